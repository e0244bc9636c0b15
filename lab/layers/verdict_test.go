package layers

import (
	"strings"
	"testing"

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
		ok     bool
	}{
		{false, "T", []Result{pass("T", Stress), pass("T", Explore), fail("H", Explore)}, "verified", true},
		{false, "T", []Result{pass("T", Stress), fail("T", Explore)}, "FAILED", false},
		{false, "T", []Result{pass("T", Stress), incomplete("T")}, "no verdict from spin", true},
		{false, "T", []Result{{Lock: "T", Layer: SPIN, Verdict: Skipped}}, "not checked: every layer was skipped", true},
		{false, "T", []Result{pass("T", Stress), {Lock: "T", Layer: SPIN, Verdict: Skipped}}, "verified", true},
		{false, "H", []Result{fail("H", Explore)}, "FAILED", false},
		{true, "H", []Result{pass("H", Stress), fail("H", Explore)}, "rejected (known incorrect), as required", true},
		{true, "H", []Result{pass("H", Stress), pass("H", Explore)}, "NOT rejected", false},
		{true, "T", []Result{fail("T", Explore)}, "FAILED", false},
	} {
		j := judge(t, c.expect)
		got, ok := j.Outcome(c.rs, c.lock)
		if !strings.Contains(got, c.want) || ok != c.ok {
			t.Errorf("expect=%v %s %v: %q %v, want %q %v", c.expect, c.lock, c.rs, got, ok, c.want, c.ok)
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
