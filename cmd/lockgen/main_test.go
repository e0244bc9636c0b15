package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/templates"
)

func lockgen(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"generate"}, {"generate", "-nope", "x.toml"}, {"check"},
		{"explain"}, {"explain", "no-such-algorithm"}, {"list", "extra"},
	} {
		if code, _, stderr := lockgen(args...); code != exitUsage || stderr == "" {
			t.Errorf("lockgen %q = %d (stderr %q), want %d with a message", args, code, stderr, exitUsage)
		}
	}
	if code, _, _ := lockgen("help"); code != exitOK {
		t.Errorf("lockgen help = %d, want 0", code)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	good := filepath.Join(dir, "good.toml")
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(good, []byte("[[lock]]\nname = \"T\"\npackage = \"p\"\nalgorithm = \"ticket\"\n"), 0o644)
	os.WriteFile(bad, []byte("[[lock]]\nname = \"T\"\npackage = \"p\"\nalgorithm = \"ticket\"\npading = 64\n"), 0o644)

	code, stdout, _ := lockgen("check", good)
	if code != exitOK || !strings.Contains(stdout, "ok: T (ticket, mutex)") {
		t.Errorf("check good = %d, %q", code, stdout)
	}
	code, _, stderr := lockgen("check", good, bad)
	if code != exitUsage || !strings.Contains(stderr, "bad.toml:5:1:") || !strings.Contains(stderr, "padding") {
		t.Errorf("check bad = %d, stderr %q; want exit 2 naming bad.toml:5:1 and suggesting padding", code, stderr)
	}
	if code, stdout, _ := lockgen("check", "-keys"); code != exitOK || !strings.Contains(stdout, "allow_incorrect") {
		t.Errorf("check -keys = %d, %q", code, stdout)
	}
	// check rejects what generate rejects although each spec is valid on
	// its own: two packages in one directory.
	other := filepath.Join(dir, "other.toml")
	os.WriteFile(other, []byte("[[lock]]\nname = \"U\"\npackage = \"q\"\nalgorithm = \"ticket\"\n"), 0o644)
	if code, _, _ := lockgen("check", other); code != exitOK {
		t.Errorf("check other.toml alone = %d, want ok", code)
	}
	code, _, stderr = lockgen("check", good, other)
	if code != exitUsage || !strings.Contains(stderr, "other.toml:1:1:") || !strings.Contains(stderr, "one directory holds one package") {
		t.Errorf("check of two packages in one directory = %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("check wrote files: %d entries in the spec directory, want 4", len(entries))
	}
}

func TestGenerate(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	specPath := filepath.Join(root, "locks.toml")
	os.WriteFile(specPath, []byte("[[lock]]\nname = \"T\"\npackage = \"m\"\nalgorithm = \"ticket\"\n"), 0o644)
	code, stdout, stderr := lockgen("generate", "-v", specPath)
	if code != exitOK {
		t.Fatalf("generate = %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote "+filepath.Join(root, "t.go")) {
		t.Errorf("generate -v did not list t.go: %q", stdout)
	}
	out := filepath.Join(root, "out")
	if code, _, stderr := lockgen("generate", "-o", out, specPath); code != exitOK {
		t.Fatalf("generate -o = %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "t.go")); err != nil {
		t.Errorf("generate -o did not write into %s: %v", out, err)
	}
}

func TestListAndExplainCoverTheCatalogue(t *testing.T) {
	_, list, _ := lockgen("list")
	for _, e := range templates.All() {
		if !strings.Contains(list, e.Name) {
			t.Errorf("list lacks %s", e.Name)
		}
		code, out, _ := lockgen("explain", e.Name)
		if code != exitOK {
			t.Errorf("explain %s = %d", e.Name, code)
		}
		for _, want := range []string{"Source:", "liveness", "Algorithm", "acquire:", "release:"} {
			if !strings.Contains(out, want) {
				t.Errorf("explain %s lacks %q", e.Name, want)
			}
		}
		// Every node policy the entry offers says what it fits.
		for n, why := range e.Nodes {
			if why == "" && !strings.Contains(out, fmt.Sprintf("    %-7s fits ", n)) {
				t.Errorf("explain %s: nodes = %q does not say what it fits", e.Name, n)
			}
		}
	}
}

// TestCatalogueDocIsFresh keeps docs/catalogue.md in step with the catalogue.
func TestCatalogueDocIsFresh(t *testing.T) {
	_, want, _ := lockgen("list", "-md")
	have, err := os.ReadFile("../../docs/catalogue.md")
	if err != nil || string(have) != want {
		t.Errorf("docs/catalogue.md is stale: run go run ./cmd/lockgen list -md > docs/catalogue.md")
	}
}
