package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/perf"
)

// TestBenchPGO: with -pgo, lockgen bench profiles a first pass, rebuilds
// with -pgo, and the report says so.
func TestBenchPGO(t *testing.T) {
	if !long() {
		t.Skip("builds and runs a benchmark twice in a fresh module (minutes): make test-long runs it")
	}
	root := userModule(t, "[[lock]]\nname = \"Ticket\"\npackage = \"userlocks\"\nalgorithm = \"ticket\"\n")
	reportFile, jsonFile := filepath.Join(root, "perf.md"), filepath.Join(root, "perf.json")
	code, _, stderr := lockgen("bench", "-quick", "-pgo", "-goroutines", "1", "-report", reportFile, "-json", jsonFile, filepath.Join(root, "locks.toml"))
	if code != exitOK {
		t.Fatalf("bench -pgo = %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "profiling a first, shorter pass") || !strings.Contains(stderr, "rebuilding the benchmark with -pgo") {
		t.Errorf("no profiling pass and rebuild announced:\n%s", stderr)
	}
	var rep perf.Report
	data, err := os.ReadFile(jsonFile)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil || !rep.Config.PGO {
		t.Errorf("report config %+v (%v): want PGO", rep.Config, err)
	}
	if md, err := os.ReadFile(reportFile); err != nil || !strings.Contains(string(md), "Built with profile-guided optimization") {
		t.Errorf("the report does not say it was built with PGO (%v)", err)
	}
}

// TestBenchFromAUserModule runs lockgen bench the way a user does: on a
// spec in a module outside this repository that requires lockgen as a
// tool (through a replace directive to this checkout) and has been tidied.
func TestBenchFromAUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a benchmark in a fresh module")
	}
	root := userModule(t, "[[lock]]\nname = \"Ticket\"\npackage = \"userlocks\"\nalgorithm = \"ticket\"\n\n"+
		"[[lock]]\nname = \"Sem\"\npackage = \"userlocks\"\nalgorithm = \"replace-add\"\nmode = \"kexclusion\"\nk = 2\n\n"+
		"[[lock]]\nname = \"RW\"\npackage = \"userlocks\"\nalgorithm = \"mcs-rw\"\n")
	spec := filepath.Join(root, "locks.toml")
	reportFile := filepath.Join(root, "perf.md")
	jsonFile := filepath.Join(root, "perf.json")
	modBefore := moduleFiles(t, root)
	code, stdout, stderr := lockgen("bench", "-quick", "-goroutines", "1,2", "-report", reportFile, "-json", jsonFile, spec)
	if code != exitOK {
		t.Fatalf("bench = %d\n%s", code, stderr)
	}
	for _, want := range []string{"sync.Mutex", "fair chan queue", "sync.RWMutex", "xsync.RBMutex", "sync.RWMutex, called", "semaphore.Weighted(2)", "Ticket", "Sem", "RW"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %s:\n%s", want, stdout)
		}
	}
	for _, line := range strings.Split(stdout, "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("table line wider than 100 columns: %q", line)
		}
	}
	var rep perf.Report
	data, err := os.ReadFile(jsonFile)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		t.Fatal(err)
	}
	if want := 9 * 2 * 2; len(rep.Results) != want { // subjects × goroutine counts × workloads
		t.Errorf("%d results, want %d", len(rep.Results), want)
	}
	// The compiler's verdict on every method the loops call.
	verdicts := map[string]perf.Inlining{}
	for _, in := range rep.Inlining {
		verdicts[in.Type+"."+in.Method] = in
	}
	for _, m := range []string{"Ticket.Lock", "Ticket.Unlock", "Sem.Lock", "Sem.Unlock", "RW.Lock", "RW.Unlock", "RW.RLock", "RW.RUnlock"} {
		in, ok := verdicts[m]
		switch {
		case !ok:
			t.Errorf("no inlining verdict on %s: %+v", m, rep.Inlining)
		case in.Cost == 0 && in.Reason == "", in.Inlined && !in.Inlinable, !in.Inlinable && in.Budget == 0 && in.Reason == "":
			t.Errorf("%s: inconsistent verdict %+v", m, in)
		}
	}
	md, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## This machine's limits", "## Inlining", "## Mutual exclusion", "## k-exclusion", "## Reader/writer locks", "![", "perf/throughput-mutex-empty.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "perf", "latency-rw-work-2.png")); err != nil {
		t.Errorf("plot missing: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(root, "_lockgen-bench-*")); len(left) > 0 {
		t.Errorf("scratch left behind: %v", left)
	}
	// The driver's baselines and the plots needed modules the user's
	// go.mod does not list: they went to a temporary copy of it.
	if after := moduleFiles(t, root); after != modBefore {
		t.Errorf("lockgen bench changed the user's go.mod or go.sum:\nbefore\n%s\nafter\n%s", modBefore, after)
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{{"bench"}, {"bench", "a.toml", "b.toml"}, {"bench", "-count", "0", "a.toml"}, {"bench", "-goroutines", "x", "a.toml"}} {
		if code, _, stderr := lockgen(args...); code != exitUsage || stderr == "" {
			t.Errorf("lockgen %q = %d (stderr %q), want %d with a message", args, code, stderr, exitUsage)
		}
	}
}
