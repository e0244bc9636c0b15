package gotest

import (
	"context"
	"strings"
	"testing"
	"time"
)

const fixture = "testdata/fixture"

func outcomes(r *Result) map[string]Outcome {
	m := map[string]Outcome{}
	for _, t := range r.Tests {
		m[t.Name] = t.Outcome
	}
	return m
}

func TestRunReportsEveryOutcome(t *testing.T) {
	res, err := Run(context.Background(), Options{Dir: fixture, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || res.BuildFailed || res.TimedOut {
		t.Errorf("passed %v, build failed %v, timed out %v", res.Passed, res.BuildFailed, res.TimedOut)
	}
	want := map[string]Outcome{
		"TestPasses": Pass, "TestFails": Fail, "TestSkips": Skip,
		"TestSub": Fail, "TestSub/ok": Pass, "TestSub/bad": Fail,
		"TestHangs": Skip, "TestCrashes": Skip,
	}
	got := outcomes(res)
	for name, o := range want {
		if got[name] != o {
			t.Errorf("%s: %q, want %q", name, got[name], o)
		}
	}
	if tp, _ := res.Test("TestPasses"); !strings.Contains(tp.Output, "hello from TestPasses") {
		t.Errorf("TestPasses output %q lacks its log line", tp.Output)
	}
	if len(res.Failed()) != 3 {
		t.Errorf("Failed() = %d tests, want 3", len(res.Failed()))
	}
}

func TestRunSelectsAndPasses(t *testing.T) {
	res, err := Run(context.Background(), Options{Dir: fixture, Run: "^TestPasses$", Race: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed || len(res.Tests) != 1 {
		t.Errorf("passed %v with %d tests; output:\n%s", res.Passed, len(res.Tests), res.Output)
	}
}

func TestBuildFailure(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(context.Background(), Options{Dir: dir, Packages: []string{"./nonexistent"}})
	if err == nil && res.Passed {
		t.Error("a missing package passed")
	}
}

func TestBinaryRunsEachTestInItsOwnProcess(t *testing.T) {
	ctx := context.Background()
	bin, err := Build(ctx, Options{Dir: fixture, Env: []string{"FIXTURE_HANG=1", "FIXTURE_CRASH=1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Remove()
	if !strings.HasSuffix(bin.Package, "lab/gotest/testdata/fixture") {
		t.Errorf("package %q", bin.Package)
	}
	res, err := bin.Run(ctx, RunOptions{Run: "^TestPasses$"})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomes(res); o["TestPasses"] != Pass || !res.Passed {
		t.Errorf("TestPasses: %v (passed %v)", o, res.Passed)
	}

	start := time.Now()
	res, err = bin.Run(ctx, RunOptions{Run: "^TestHangs$", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("the hanging test took %v to be killed", time.Since(start))
	}
	if o := outcomes(res); o["TestHangs"] != Killed || !res.TimedOut {
		t.Errorf("TestHangs: %v, timed out %v", o, res.TimedOut)
	}
	if tr, _ := res.Test("TestHangs"); !strings.Contains(tr.Output, "about to hang") {
		t.Errorf("the killed test's output was lost: %q", tr.Output)
	}

	res, err = bin.Run(ctx, RunOptions{Run: "^TestCrashes$", Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := res.Test("TestCrashes")
	if !ok || tr.Outcome == Pass || res.Passed || !strings.Contains(tr.Output+res.Output, "crash outside the test goroutine") {
		t.Errorf("crash: %+v passed %v; output %q", tr, res.Passed, res.Output)
	}
}

func TestBuildError(t *testing.T) {
	_, err := Build(context.Background(), Options{Dir: "testdata", Packages: []string{"./broken"}})
	if _, ok := err.(*BuildError); !ok {
		t.Errorf("Build of a broken package: %v, want *BuildError", err)
	}
}
