package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpIsOutput: help asked for goes to stdout with exit 0, for lockgen
// itself and for each verb; help not asked for (no arguments) is a usage
// error on stderr.
func TestHelpIsOutput(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"check", "-h"}, {"generate", "x.toml", "-h"}, {"verify", "-help"}, {"bench", "-h"}, {"explain", "-h"}} {
		code, stdout, stderr := lockgen(args...)
		if code != exitOK || !strings.Contains(stdout, "lockgen") || stderr != "" {
			t.Errorf("lockgen %q = %d, stdout %q, stderr %q; want 0 and usage on stdout", args, code, stdout, stderr)
		}
	}
	if code, stdout, stderr := lockgen(); code != exitUsage || stdout != "" || !strings.Contains(stderr, "Usage:") {
		t.Errorf("lockgen = %d, stdout %q, stderr %q; want 2 and usage on stderr", code, stdout, stderr)
	}
}

// TestFlagsAfterArguments: a flag may follow the spec, as Go's own tools
// allow; after "--" everything is an argument.
func TestFlagsAfterArguments(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	specPath := filepath.Join(root, "locks.toml")
	os.WriteFile(specPath, []byte("[[lock]]\nname = \"T\"\npackage = \"m\"\nalgorithm = \"ticket\"\n"), 0o644)
	out := filepath.Join(root, "out")
	code, stdout, stderr := lockgen("generate", specPath, "-o", out, "-v")
	if code != exitOK {
		t.Fatalf("generate SPEC -o DIR -v = %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join(out, "t.go")) {
		t.Errorf("-v after the spec was not honoured, or -o not: %q", stdout)
	}
	code, _, stderr = lockgen("check", "--", "-keys")
	if code != exitUsage || !strings.Contains(stderr, "-keys") {
		t.Errorf("check -- -keys = %d, %q; want -keys read as a spec file that does not exist", code, stderr)
	}
}

func TestDidYouMean(t *testing.T) {
	if _, _, stderr := lockgen("genrate"); !strings.Contains(stderr, `did you mean "generate"?`) {
		t.Errorf("unknown command: %q", stderr)
	}
	if _, _, stderr := lockgen("explain", "tiket"); !strings.Contains(stderr, `did you mean "ticket"?`) {
		t.Errorf("unknown algorithm: %q", stderr)
	}
	if _, _, stderr := lockgen("explain", "zzzzzzzz"); strings.Contains(stderr, "did you mean") {
		t.Errorf("no close name, yet a suggestion: %q", stderr)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, stdout, _ := lockgen(args...)
		// A test binary records no module version or revision; the line
		// still names the tool and the Go version it was built with.
		if code != exitOK || !strings.HasPrefix(stdout, "lockgen ") || !strings.Contains(stdout, "go1.") {
			t.Errorf("lockgen %q = %d, %q", args, code, stdout)
		}
	}
	if code, _, _ := lockgen("version", "extra"); code != exitUsage {
		t.Errorf("version extra = %d, want %d", code, exitUsage)
	}
}
