package wait

import (
	"slices"
	"strings"
	"testing"
)

// Every policy has every rule: a policy added to All without its table
// entry would panic at its first question.
func TestEveryPolicyHasItsRules(t *testing.T) {
	for _, w := range All {
		if !w.Valid() {
			t.Fatalf("%s is in All but not in the table", w)
		}
		if w.Fits() == "" || w.Describe(7) == "" {
			t.Errorf("%s: an empty description", w)
		}
		if w.TakesSpin() != strings.Contains(w.Describe(7), "7") {
			t.Errorf("%s: takes the spin key %v, but its description %q", w, w.TakesSpin(), w.Describe(7))
		}
	}
	if len(table) != len(All) {
		t.Errorf("%d policies in the table, %d in All", len(table), len(All))
	}
}

// TestRules checks the rows of the policies the catalogue started with:
// a new policy adds a row without changing these.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		w                       Policy
		parks, spin, countsSpin bool
	}{
		{Spin, false, false, false},
		{Yield, false, false, false},
		{Park, true, false, false},
		{SpinThenYield, false, true, false},
		{SpinThenPark, true, true, false},
		{Adaptive, true, false, true},
	} {
		if c.w.Parks() != c.parks || c.w.TakesSpin() != c.spin || c.w.CountsSpinners() != c.countsSpin {
			t.Errorf("%s: Parks %v TakesSpin %v CountsSpinners %v, want %v %v %v",
				c.w, c.w.Parks(), c.w.TakesSpin(), c.w.CountsSpinners(), c.parks, c.spin, c.countsSpin)
		}
	}
	if got, want := SpinThenPark.Describe(5), "spinning 5 times, then asleep until a write may let it in"; got != want {
		t.Errorf("Describe: %s, want %s", got, want)
	}
	if got, want := Or([]Policy{SpinThenYield, SpinThenPark}), `"spin-then-yield" or "spin-then-park"`; got != want {
		t.Errorf("Or: %s, want %s", got, want)
	}
	spinning := Where(Policy.TakesSpin)
	for _, w := range All {
		if slices.Contains(spinning, w) != w.TakesSpin() {
			t.Errorf("Where(TakesSpin) and %s disagree", w)
		}
	}
}

func TestUnknownPolicy(t *testing.T) {
	if Policy("sleep").Valid() || Policy("").Valid() {
		t.Error("an unknown policy is valid")
	}
	defer func() {
		if recover() == nil {
			t.Error("asking an unknown policy did not panic")
		}
	}()
	Policy("sleep").Parks()
}
