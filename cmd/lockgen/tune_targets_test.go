package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/tune"
)

// TestTuneTargets measures issue 49's targets on an idle machine (make
// tune-targets; about 25 minutes on 2 cores). It is skipped unless
// LOCKGEN_TUNE_TARGETS is set.
//
//  1. Known by construction: on go-cache's Set, one goroutine writing,
//     the reader-preference lock's write passage makes 2 atomic
//     read-modify-writes (W1, W2), where the fixture's writer-preference
//     lock (current) makes 4 (W1, W3, W4, W5), as sync.RWMutex's Lock and
//     Unlock do: the reader-preference lock must win. On its concurrent
//     Get, every processor reading, with the fair lock current, whose
//     readers pass through two registers (R1 on REQ, R3 on COMP, each on
//     a cache line of its own), sync.RWMutex's read passage makes one
//     atomic add on each side, on one word, and inlines; the
//     reader-preference lock's makes as many adds on one word, a read
//     more, in calls: sync.RWMutex must win. tune must pick them in 10
//     runs of 10 each.
//  2. A default tune (default candidates, budget, benchtime and rounds)
//     of the lock with three benchmarks finishes within its budget and
//     says which candidates it could not measure in time.
//  3. The recommended variant, tuned again against the current one,
//     gives a ratio within the interval the first run reported.
func TestTuneTargets(t *testing.T) {
	if os.Getenv("LOCKGEN_TUNE_TARGETS") == "" {
		t.Skip("measures for half an hour: make tune-targets")
	}
	load := func() string {
		out, _ := exec.Command("uptime").Output()
		return strings.TrimSpace(string(out))
	}
	t.Logf("load before: %s", load())
	root := cacheModule(t)
	spec := filepath.Join(root, "locks.toml")
	fixture, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	// current makes the fixture's lock prefer pref.
	current := func(pref string) {
		t.Helper()
		src := strings.Replace(string(fixture), `preference = "writer"`, `preference = "`+pref+`"`, 1)
		if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := lockgen("generate", spec); code != exitOK {
			t.Fatal(stderr)
		}
	}
	tuneJSON := func(args ...string) (*tune.Report, string, time.Duration) {
		t.Helper()
		file := filepath.Join(t.TempDir(), "tune.json")
		began := time.Now()
		var out strings.Builder
		code := run(append(append([]string{"tune", "-json", file}, args...), spec), &out, os.Stderr)
		took := time.Since(began)
		stdout := out.String()
		if code != exitOK {
			t.Fatalf("lockgen tune %q = %d\n%s", args, code, stdout)
		}
		var rep tune.Report
		data, err := os.ReadFile(file)
		if err == nil {
			err = json.Unmarshal(data, &rep)
		}
		if err != nil {
			t.Fatal(err)
		}
		return &rep, stdout, took
	}

	// 1. Ten runs each way.
	var summary []string
	var reproduce *tune.Report
	var reproduceCurrent string
	for _, c := range []struct{ bench, current, want string }{
		{"CacheSetNotExpiring$", "writer", "mcs-rw:preference=reader"},
		{"CacheGetConcurrentNotExpiring$", "fair", "sync.RWMutex"},
	} {
		current(c.current)
		picked := 0
		var got []string
		for i := 0; i < 10; i++ {
			rep, _, _ := tuneJSON("-bench", c.bench, "-candidates", "std,mcs-rw:preference=reader", "-benchtime", "200ms", "-rounds", "10", "-budget", "3m")
			winner := rep.Winner
			if winner == "" {
				winner = "current"
			}
			got = append(got, winner+" "+ratioOf(rep, rep.Winner))
			if rep.Winner == c.want {
				picked++
				if reproduce == nil {
					reproduce, reproduceCurrent = rep, c.current
				}
			}
		}
		line := fmt.Sprintf("%s, current preference %s: %s picked in %d of 10 runs: %s", c.bench, c.current, c.want, picked, strings.Join(got, "; "))
		summary = append(summary, line)
		if picked != 10 {
			t.Errorf("target 1 not met: %s", line)
		}
	}

	// 2. A default tune with three benchmarks, on the fixture as it is.
	current("writer")
	three := "CacheGetNotExpiring$|CacheGetConcurrentNotExpiring$|CacheSetNotExpiring$"
	rep, stdout, took := tuneJSON("-bench", three)
	budget := 3 * time.Minute
	var late []string
	for _, c := range rep.Candidates {
		if c.Status == tune.NotInTime {
			late = append(late, c.Name)
			if !strings.Contains(stdout, c.Name) {
				t.Errorf("target 2: %s, not measured in time, is not named in the output", c.Name)
			}
		}
	}
	if !strings.Contains(stdout, "Not measured in time") {
		t.Errorf("target 2: the output does not say which candidates were not measured in time:\n%s", stdout)
	}
	line := fmt.Sprintf("default tune of 3 benchmarks: %s of a %s budget, %d candidates, %d rounds, not measured in time: %v, winner %q %s",
		took.Round(time.Second), budget, len(rep.Candidates), rep.Rounds, late, rep.Winner, ratioOf(rep, rep.Winner))
	summary = append(summary, line)
	if took > budget {
		t.Errorf("target 2 not met: %s", line)
	}
	t.Log(stdout)

	// 3. The winner again, against the current variant alone.
	if rep.Winner != "" {
		reproduce, reproduceCurrent = rep, "writer"
	}
	if reproduce == nil {
		t.Errorf("target 3: no run recommended a variant to rerun")
	} else {
		current(reproduceCurrent)
		first := candidateOf(reproduce, reproduce.Winner)
		args := []string{"-bench", reproduce.Bench, "-candidates", reproduce.Winner, "-benchtime", reproduce.Benchtime, "-rounds", fmt.Sprint(reproduce.Rounds)}
		again, _, _ := tuneJSON(args...)
		second := candidateOf(again, reproduce.Winner)
		ok := first.Ratio != nil && second.Ratio != nil && first.Ratio.Lo != nil && first.Ratio.Hi != nil &&
			second.Ratio.Center >= *first.Ratio.Lo && second.Ratio.Center <= *first.Ratio.Hi
		line := fmt.Sprintf("%s rerun (-bench %s): %s, first run %s", reproduce.Winner, reproduce.Bench, ratioOf(again, reproduce.Winner), ratioOf(reproduce, reproduce.Winner))
		summary = append(summary, line)
		if !ok {
			t.Errorf("target 3 not met: %s", line)
		}
	}
	t.Logf("load after: %s", load())
	for _, s := range summary {
		t.Log(s)
	}
}

func candidateOf(rep *tune.Report, name string) tune.CandidateReport {
	for _, c := range rep.Candidates {
		if c.Name == name {
			return c
		}
	}
	return tune.CandidateReport{}
}

func ratioOf(rep *tune.Report, name string) string {
	c := candidateOf(rep, name)
	if c.Ratio == nil {
		return ""
	}
	b := func(x *float64) string {
		if x == nil {
			return "∞"
		}
		return fmt.Sprintf("%.2f", *x)
	}
	return fmt.Sprintf("%.2f× [%s, %s]", c.Ratio.Center, b(c.Ratio.Lo), b(c.Ratio.Hi))
}

// TestTuningDoc reruns the commands docs/tuning.md shows, in the go-cache
// fixture's module, and puts their output between the doc's markers
// (make tuning-doc). It is skipped unless LOCKGEN_TUNING_DOC is set.
func TestTuningDoc(t *testing.T) {
	if os.Getenv("LOCKGEN_TUNING_DOC") == "" {
		t.Skip("measures for about 5 minutes: make tuning-doc")
	}
	load := func() string {
		out, _ := exec.Command("uptime").Output()
		return strings.TrimSpace(string(out))
	}
	root := cacheModule(t)
	tuneRun := func(args ...string) string {
		t.Helper()
		var out strings.Builder
		// Relative to the module, as a user runs it there.
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(root); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(wd)
		before := load()
		began := time.Now().UTC()
		code := run(append([]string{"tune"}, args...), &out, os.Stderr)
		if code != exitOK {
			t.Fatalf("lockgen tune %q = %d\n%s", args, code, out.String())
		}
		return fmt.Sprintf("Run on %s, %s, by `go test -run TestTuningDoc ./cmd/lockgen/` at %s; load (uptime) before: `%s`, after: `%s`.\n\n```\n$ go tool lockgen tune %s\n%s```\n",
			began.Format("2006-01-02 15:04 UTC"), machine(), versionString(), before, load(), shellWords(args), strings.TrimLeft(out.String(), "\n"))
	}
	blocks := map[string]string{
		"default": tuneRun("-bench", "CacheGetNotExpiring$|CacheGetConcurrentNotExpiring$|CacheSetNotExpiring$", "locks.toml"),
	}
	write := tuneRun("-bench", "CacheSetNotExpiring$", "-candidates", "std,mcs-rw:preference=reader", "-write", "locks.toml")
	spec, err := os.ReadFile(filepath.Join(root, "locks.toml"))
	if err != nil {
		t.Fatal(err)
	}
	blocks["write"] = write + "\nlocks.toml afterwards:\n\n```toml\n" + string(spec) + "```\n"
	doc := "../../docs/tuning.md"
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for name, block := range blocks {
		open, end := "<!-- tune:"+name+" -->\n", "<!-- /tune:"+name+" -->"
		i, j := strings.Index(text, open), strings.Index(text, end)
		if i < 0 || j < i {
			t.Fatalf("docs/tuning.md has no %s block", name)
		}
		text = text[:i+len(open)] + block + text[j:]
	}
	if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// machine describes the machine for the doc.
func machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
}

// shellWords writes args as a shell would read them back.
func shellWords(args []string) string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, "$|*?[]() '\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
