package main

import (
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/tune"
)

// cacheModule makes a module outside this repository from the go-cache
// fixture (testdata/tune/gocache: go-cache's cache and its benchmarks,
// its mutex replaced by the lock locks.toml describes), requiring lockgen
// as a tool through a replace directive to this checkout, generated and
// tidied as a user's would be; it returns its directory.
func cacheModule(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files, err := filepath.Glob("testdata/tune/gocache/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gomod := "module example.com/cache\n\ngo 1.26\n\ntool github.com/lockgen/lockgen/cmd/lockgen\n\n" +
		"require github.com/lockgen/lockgen v0.0.0\n\nreplace github.com/lockgen/lockgen => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := lockgen("generate", filepath.Join(root, "locks.toml")); code != exitOK {
		t.Fatalf("generate: %s", stderr)
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = root
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	return root
}

// snapshot hashes every file under dir.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		m[p] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, before, after map[string][32]byte) {
	t.Helper()
	for p, h := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s removed", p)
		} else if a != h {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created", p)
		}
	}
}

// TestTuneFromAUserModule is the short tune make test runs: on go-cache's
// benchmark of Set, the current variant and one candidate, a small
// budget. It checks the run, not the figures (the machine is shared):
// both measured, the table fits 100 columns, the JSON holds every
// round, the Markdown report shows the benchmark's plot (drawn by
// tuneplots, built on a copy of the go.mod), and the user's files,
// go.mod and go.sum included, are as they were.
func TestTuneFromAUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds go-cache's benchmarks twice in a fresh module")
	}
	root := cacheModule(t)
	before := snapshot(t, root)
	out := filepath.Join(t.TempDir(), "tune.json")
	report := filepath.Join(t.TempDir(), "tune.md")
	code, stdout, stderr := lockgen("tune", "-bench", "CacheSetNotExpiring$", "-benchtime", "20ms", "-rounds", "6",
		"-budget", "1m", "-candidates", "mcs-rw:preference=reader", "-stress", "100ms",
		"-json", out, "-report", report, filepath.Join(root, "locks.toml"))
	if code != exitOK {
		t.Fatalf("tune = %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"CacheSetNotExpiring", "current (mcs-rw:preference=writer)", "mcs-rw:preference=reader", "sec/op", "vs current"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout)
		}
	}
	for _, line := range strings.Split(stdout, "\n") {
		if len([]rune(line)) > termWidth {
			t.Errorf("wider than %d columns: %q", termWidth, line)
		}
	}
	if !strings.Contains(stderr, "round 1/6 done") {
		t.Errorf("no progress line per round:\n%s", stderr)
	}
	var rep tune.Report
	data, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Candidates) != 2 || rep.Rounds < 1 || rep.Benchmarks[0] != "CacheSetNotExpiring" {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Candidates {
		b, ok := c.Benchmarks["CacheSetNotExpiring"]
		if c.Status == tune.NotInTime {
			continue
		}
		if !ok || len(b.Samples) != rep.Rounds || b.Median <= 0 {
			t.Errorf("%s: %+v", c.Name, b)
		}
	}
	md, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(md), "## CacheSetNotExpiring") || !strings.Contains(string(md), "](tune/rwlock-cachesetnotexpiring.png)") {
		t.Errorf("report: %v\n%s", err, md)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(report), "tune", "rwlock-cachesetnotexpiring.png")); err != nil {
		t.Errorf("no plot: %v", err)
	}
	sameTree(t, before, snapshot(t, root))
}

func TestTuneUsage(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "locks.toml")
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	os.WriteFile(spec, []byte("[[lock]]\nname = \"T\"\npackage = \"p\"\nalgorithm = \"ticket\"\n"), 0o644)
	for _, args := range [][]string{
		{"tune"}, {"tune", spec, spec}, {"tune", "-rounds", "0", spec}, {"tune", "-objective", "A=x", spec},
		{"tune", "-lock", "Nope", spec}, {"tune", "-candidates", "tiket", spec}, {"tune", "-candidates", "mcs-rw", spec},
		{"tune", "-candidates", "current", spec},
	} {
		if code, _, stderr := lockgen(args...); code != exitUsage || stderr == "" {
			t.Errorf("lockgen %q = %d (stderr %q), want %d with a message", args, code, stderr, exitUsage)
		}
	}
	if _, _, stderr := lockgen("tune", "-candidates", "tiket", spec); !strings.Contains(stderr, `did you mean "ticket"`) {
		t.Errorf("no suggestion for a mistyped algorithm: %s", stderr)
	}
}
