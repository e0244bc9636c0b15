package wait

import (
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

func TestRules(t *testing.T) {
	var parks, spins, counts []string
	for _, w := range All {
		if w.Parks() {
			parks = append(parks, string(w))
		}
		if w.TakesSpin() {
			spins = append(spins, string(w))
		}
		if w.CountsSpinners() {
			counts = append(counts, string(w))
		}
	}
	for _, c := range []struct{ what, got, want string }{
		{"parks", strings.Join(parks, " "), "park spin-then-park adaptive"},
		{"takes spin", strings.Join(spins, " "), "spin-then-yield spin-then-park"},
		{"counts spinners", strings.Join(counts, " "), "adaptive"},
		{"Or", Or(Where(Policy.TakesSpin)), `"spin-then-yield" or "spin-then-park"`},
		{"describe", SpinThenPark.Describe(5), "spinning 5 times, then asleep until a write may let it in"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
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
