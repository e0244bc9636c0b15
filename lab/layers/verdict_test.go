package layers

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/verify/harness"
)

func judge(t *testing.T, expect bool) Judge {
	t.Helper()
	f, err := spec.Parse("x.toml", []byte("[[lock]]\nname = \"T\"\npackage = \"p\"\nalgorithm = \"ticket\"\n\n[[lock]]\nname = \"H\"\npackage = \"p\"\nalgorithm = \"hyman\"\nprocs = 2\nallow_incorrect = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	return Judge{Files: []*spec.File{f}, ExpectRejections: expect}
}

func TestOutcome(t *testing.T) {
	pass := func(l, layer string) Result { return Result{Lock: l, Layer: layer, Verdict: Pass} }
	fail := func(l, layer string) Result { return Result{Lock: l, Layer: layer, Verdict: Fail} }
	incomplete := func(l string) Result { return Result{Lock: l, Layer: SPIN, Verdict: Incomplete} }
	for _, c := range []struct {
		expect bool
		lock   string
		rs     []Result
		want   string
		status Status
	}{
		{false, "T", []Result{pass("T", Stress), pass("T", Explore), fail("H", Explore)}, "verified", Verified},
		{false, "T", []Result{pass("T", Stress), fail("T", Explore)}, "FAILED", Failed},
		{false, "T", []Result{pass("T", Stress), incomplete("T")}, "INCOMPLETE: no failure found, but no verdict from spin", Unfinished},
		{false, "T", []Result{fail("T", Stress), incomplete("T")}, "FAILED", Failed},
		{false, "T", []Result{{Lock: "T", Layer: SPIN, Verdict: Skipped}}, "not checked: every layer was skipped", Verified},
		{false, "T", []Result{pass("T", Stress), {Lock: "T", Layer: SPIN, Verdict: Skipped}}, "verified", Verified},
		{false, "H", []Result{fail("H", Explore)}, "FAILED", Failed},
		{true, "H", []Result{pass("H", Stress), fail("H", Explore)}, "rejected (known incorrect), as required", Verified},
		{true, "H", []Result{pass("H", Stress), pass("H", Explore)}, "NOT rejected", Failed},
		{true, "H", []Result{pass("H", Stress), incomplete("H")}, "not rejected (known incorrect); no verdict from spin", Unfinished},
		{true, "T", []Result{fail("T", Explore)}, "FAILED", Failed},
	} {
		j := judge(t, c.expect)
		got, status := j.Outcome(c.rs, c.lock)
		if !strings.Contains(got, c.want) || status != c.status {
			t.Errorf("expect=%v %s %v: %q %v, want %q %v", c.expect, c.lock, c.rs, got, status, c.want, c.status)
		}
		if status != Verified && strings.Contains(got, "verified") {
			t.Errorf("expect=%v %s %v: %q says verified", c.expect, c.lock, c.rs, got)
		}
	}
	if got := judge(t, true).Shown(fail("H", Explore)); got != Rejected {
		t.Errorf("a control's failure shown as %q", got)
	}
	if got := judge(t, true).Shown(fail("T", Explore)); got != Fail {
		t.Errorf("a correct lock's failure shown as %q", got)
	}
}

func TestFailureDropsFindings(t *testing.T) {
	out := "x_test.go:3: verify.Stress: overlap\nx_test.go:4: " + harness.Marker + "{}\n--- FAIL"
	if got := withoutFindings(out); strings.Contains(got, harness.Marker) || !strings.Contains(got, "overlap") {
		t.Errorf("withoutFindings = %q", got)
	}
}

// A SPIN layer with one run that gave no verdict has no verdict, however
// many others passed (a ticket lock's n = 4 runs once ended "verified"
// beside "2 incomplete, no verdict").
func TestSpinLayerWithAGapIsIncomplete(t *testing.T) {
	for _, c := range []struct {
		runs []spin.Status
		want string
	}{
		{[]spin.Status{spin.Passed, spin.Passed}, Pass},
		{[]spin.Status{spin.Passed, spin.Incomplete}, Incomplete},
		{[]spin.Status{spin.Incomplete}, Incomplete},
		{[]spin.Status{spin.Passed, spin.Skipped}, Pass},
		{[]spin.Status{spin.Passed, spin.Incomplete, spin.Failed}, Fail},
	} {
		var tally spinTally
		for i, s := range c.runs {
			tally.add(2+i, spin.MutualExclusion, spin.Result{Status: s})
		}
		var r Result
		tally.verdict(&r)
		if r.Verdict != c.want {
			t.Errorf("runs %v: verdict %s, want %s", c.runs, r.Verdict, c.want)
		}
	}
}
