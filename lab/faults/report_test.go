package faults

import (
	"strings"
	"testing"
	"time"
)

// A run fails on what safety forbids and on what it left unchecked; a
// clean run does not; a lock failure no fault explains alone is counted
// apart (make faults fails on it, TestShortRun logs it).
func TestReportFailed(t *testing.T) {
	clean := func() *Report {
		return &Report{Lease: time.Second, Faults: map[string]int{}, Recovery: map[string][]time.Duration{},
			Groups: []GroupReport{{Name: "dcrew-3", N: 3}}, Intruder: Intruder{Sent: 10, Dropped: 10}}
	}
	if r := clean(); r.Failed() || r.Unexplained() != 0 {
		t.Errorf("a clean run failed: %+v", r)
	}
	for name, spoil := range map[string]func(*Report){
		"violation":         func(r *Report) { r.Groups[0].Violations = []string{"two writers"} },
		"inversion":         func(r *Report) { r.Groups[0].Inversions = []string{"token 2 after 3"} },
		"suite error":       func(r *Report) { r.Groups[0].Errors = []string{"dcrew-3: the intruder cannot connect: EOF"} },
		"intruder through":  func(r *Report) { r.Intruder.Dropped = 9 },
		"intruder's damage": func(r *Report) { r.Intruder.Failures = 1 },
	} {
		r := clean()
		spoil(r)
		if !r.Failed() {
			t.Errorf("%s: the run did not fail", name)
		}
	}
	r := clean()
	r.Groups[0].Unexplained = []string{"lease lost"}
	if r.Failed() || r.Unexplained() != 1 {
		t.Errorf("an unexplained failure: Failed %v, Unexplained %d", r.Failed(), r.Unexplained())
	}
	r = clean()
	r.Groups[0].Errors = []string{"dcrew-3: the intruder cannot connect: EOF"}
	var b strings.Builder
	r.Write(&b)
	if out := b.String(); !strings.Contains(out, "exclusion violations: 0;") || !strings.Contains(out, "the suite's own errors (what they name went unchecked): 1") ||
		!strings.Contains(out, "the intruder cannot connect") {
		t.Errorf("the report does not tell a suite error from a violation:\n%s", out)
	}
}
