package spin

import (
	"context"
	"testing"

	"github.com/lockgen/lockgen/templates"
)

// TestFoldKeepsVerdicts: folding local work into the neighbouring step and
// resetting dead locals (Options.Fold) must not change what SPIN finds. At
// n = 2, folded, every catalogue entry that is not a negative control
// passes every property it claims, and every negative control still fails
// with a trail.
//
// make test checks the same verdicts through the command line (make
// test-spin: lockgen verify -spin-fold over generated/, which holds every
// entry, gen TestGeneratedCoversCatalogue), so this runs with
// LOCKGEN_SPIN_LONG only: twice was 45 s of CI's CPU for nothing new.
func TestFoldKeepsVerdicts(t *testing.T) {
	needSpin(t)
	if !long() {
		t.Skip("make test-spin checks the folded verdicts of every entry; set LOCKGEN_SPIN_LONG to run it here too")
	}
	for _, name := range templates.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := templates.Lookup(name)
			run := fast
			run.Fold = true
			rep, err := CheckEntry(context.Background(), name, SuiteOptions{Sizes: []int{2}, Run: run})
			if err != nil {
				t.Fatal(err)
			}
			failed := false
			for _, r := range rep.Runs {
				res := r.Result
				switch {
				case res.Status == Failed:
					failed = true
					if !e.NegativeControl() {
						t.Errorf("%s %s: %s\n%s", name, r.Property, res.Message, TrailText(Condense(res.Trail)))
					}
					if len(res.Trail) == 0 {
						t.Errorf("%s %s failed without a trail", name, r.Property)
					}
				case res.Status != Passed && !e.NegativeControl():
					t.Errorf("%s %s: %s (%s)", name, r.Property, res.Status, res.Reason)
				}
			}
			if e.NegativeControl() && !failed {
				t.Errorf("%s is a negative control, but its folded models pass:\n%s", name, rep)
			}
		})
	}
}
