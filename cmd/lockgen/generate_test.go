package main

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockgen/lockgen/gen"
)

// Two specs of one package that differ in every way a regeneration can:
// a file replaced, files added, files removed, the runtime changed (the
// second has no tests, so no check runtime).
const (
	genSpecA = "[[lock]]\nname = \"T\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n\n[[lock]]\nname = \"Q\"\npackage = \"locks\"\nalgorithm = \"mcs\"\nnodes = \"handle\"\n"
	genSpecB = "[[lock]]\nname = \"T\"\npackage = \"locks\"\nalgorithm = \"tas\"\ntests = false\n\n[[lock]]\nname = \"R\"\npackage = \"locks\"\nalgorithm = \"clh\"\nnodes = \"caller\"\ntests = false\n"
)

// packageFiles is what dir holds, by name, the spec left out; ok is false
// if a run's own files (temporaries, kept versions, journal) are there.
func packageFiles(t *testing.T, dir string) (files map[string]string, ok bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, ok = map[string]string{}, true
	for _, e := range entries {
		if e.Name() == "locks.toml" {
			continue
		}
		if strings.HasPrefix(e.Name(), ".lockgen") {
			ok = false
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files, ok
}

// runGen runs lockgen generate in dir, signalling it sig after delay
// (never, with delay < 0); it returns the exit code (-1: killed).
func runGen(t *testing.T, bin, dir string, sig syscall.Signal, delay time.Duration, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"generate"}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if delay >= 0 {
		timer := time.AfterFunc(delay, func() { cmd.Process.Signal(sig) })
		defer timer.Stop()
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// TestGenerateKilledAtRandomPoints regenerates a package back and forth
// between two specs, stopping lockgen generate at random points with
// SIGKILL, SIGINT or SIGTERM (60 runs; 240 in make test-long). After each run (and, after a SIGKILL, the
// repair the next run makes first), the package is wholly the old one or
// wholly the new one, with nothing of the run left; at the end both
// versions vet.
func TestGenerateKilledAtRandomPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("runs lockgen generate a few hundred times")
	}
	bin := buildLockgen(t)
	root := userModule(t, "")
	dir := filepath.Join(root, "locks")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "locks.toml")
	versions := map[string]map[string]string{}
	var took time.Duration
	for _, v := range []string{genSpecA, genSpecB} {
		if err := os.WriteFile(spec, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if code, out := runGen(t, bin, dir, 0, -1, "locks.toml"); code != 0 {
			t.Fatalf("generate: %d\n%s", code, out)
		}
		took = max(took, time.Since(start))
		versions[v], _ = packageFiles(t, dir)
		goIn(t, root, nil, "vet", "./...")
		goIn(t, root, nil, "vet", "-tags", "lockgen_check", "./...")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	signals := []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM}
	runs := 60 // 20 per signal; make test-long makes 240
	if long() {
		runs = 240
	}
	cur := genSpecB
	tally := map[string]int{}
	for i := range runs {
		next := genSpecA
		if cur == genSpecA {
			next = genSpecB
		}
		if err := os.WriteFile(spec, []byte(next), 0o644); err != nil {
			t.Fatal(err)
		}
		sig := signals[i%len(signals)]
		delay := time.Duration(rng.Int64N(int64(took) * 6 / 5))
		code, out := runGen(t, bin, dir, sig, delay, "locks.toml")
		if code == -1 && sig == syscall.SIGKILL {
			if err := gen.Repair(dir); err != nil { // what the next run does first
				t.Fatalf("run %d: Repair after SIGKILL at %v: %v", i, delay, err)
			}
		}
		files, clean := packageFiles(t, dir)
		var now string
		switch {
		case !clean:
			t.Fatalf("run %d (%v at %v, exit %d): a run's files left: %v\n%s", i, sig, delay, code, keys(files), out)
		case maps.Equal(files, versions[cur]):
			now = "old"
		case maps.Equal(files, versions[next]):
			now, cur = "new", next
		default:
			t.Fatalf("run %d (%v at %v, exit %d): the package is neither wholly old nor wholly new: %v\n%s", i, sig, delay, code, keys(files), out)
		}
		if code != 0 && code != -1 && code != exitInterrupted {
			t.Fatalf("run %d (%v at %v): exit %d\n%s", i, sig, delay, code, out)
		}
		tally[sig.String()+" → "+now]++
	}
	t.Logf("%d runs, up to %v each uninterrupted: %v", runs, took, tally)
	goIn(t, root, nil, "vet", "./...")
	goIn(t, root, nil, "vet", "-tags", "lockgen_check", "./...")
}

func keys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// TestGenerateConcurrentRuns starts two lockgen generate runs on one
// directory at once, from two specs of one package (16 pairs; 60 in make
// test-long). They take turns, each planning against what the other
// wrote: with different
// locks, both succeed and the directory holds both specs' locks on the
// runtime both need (the same whichever ran first); with a lock of the
// same name, the second refuses at its spec's file:line and the directory
// is wholly the first's. Nothing of a run is left either way.
func TestGenerateConcurrentRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs lockgen generate in pairs")
	}
	bin := buildLockgen(t)
	root := userModule(t, "")
	specs := map[string]string{
		"a":    genSpecA,                                       // T, Q with tests
		"b":    strings.ReplaceAll(genSpecB, "\"T\"", "\"U\""), // U, R without
		"same": genSpecB,                                       // T again
	}
	for name, s := range specs {
		d := filepath.Join(root, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "locks.toml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(root, "out")
	gen := func(spec string) (int, string) {
		return runGen(t, bin, root, 0, -1, "-o", out, filepath.Join(spec, "locks.toml"))
	}
	// Both, one after the other: what every pair must leave.
	for _, s := range []string{"a", "b"} {
		if code, text := gen(s); code != 0 {
			t.Fatalf("generate %s: %d\n%s", s, code, text)
		}
	}
	union, _ := packageFiles(t, out)
	goIn(t, root, nil, "vet", "./...")
	goIn(t, root, nil, "vet", "-tags", "lockgen_check", "./...")

	type result struct {
		spec string
		code int
		out  string
	}
	tally := map[string]int{}
	pairs := 16 // make test-long starts 60
	if long() {
		pairs = 60
	}
	for i := range pairs {
		os.RemoveAll(out)
		pair := []string{"a", "b"}
		if i%2 == 1 {
			pair = []string{"a", "same"}
		}
		results := make(chan result, 2)
		for _, s := range pair {
			go func() {
				code, text := gen(s)
				results <- result{s, code, text}
			}()
		}
		r1, r2 := <-results, <-results
		files, clean := packageFiles(t, out)
		if !clean {
			t.Fatalf("pair %d %v: a run's files left: %v", i, pair, keys(files))
		}
		if pair[1] == "b" {
			if r1.code != 0 || r2.code != 0 || !maps.Equal(files, union) {
				t.Fatalf("pair %d %v: exits %d, %d; files %v, want both specs' %v\n%s\n%s", i, pair, r1.code, r2.code, keys(files), keys(union), r1.out, r2.out)
			}
			tally["both"]++
			continue
		}
		won, lost := r1, r2
		if r1.code != 0 {
			won, lost = r2, r1
		}
		if won.code != 0 || lost.code != exitUsage || !strings.Contains(lost.out, "locks.toml:") || !strings.Contains(lost.out, "was generated from") {
			t.Fatalf("pair %d %v: exits %s %d, %s %d; want one 0 and one refusal at the spec's file:line\n%s\n%s", i, pair, r1.spec, r1.code, r2.spec, r2.code, r1.out, r2.out)
		}
		_, q := files["q.go"]
		_, r := files["r.go"]
		if (won.spec == "a") != q || q == r {
			t.Fatalf("pair %d: %s won but the directory holds %v", i, won.spec, keys(files))
		}
		tally[won.spec+" first"]++
	}
	t.Logf("%v", tally)
}
