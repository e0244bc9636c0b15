package shape

import "testing"

// Every shape has every rule: a shape added to All without its table
// entry would panic at its first question.
func TestEveryShapeHasItsRules(t *testing.T) {
	for _, s := range All {
		if !s.Valid() {
			t.Fatalf("%s is in All but not in the table", s)
		}
		if s.StateIn() == "" || s.Usage() == "" {
			t.Errorf("%s: an empty description", s)
		}
	}
	if len(table) != len(All) {
		t.Errorf("%d shapes in the table, %d in All", len(table), len(All))
	}
	if Shape("").Valid() || Shape("mutex").Valid() {
		t.Error("an unknown shape is valid")
	}
}

func TestRules(t *testing.T) {
	for _, c := range []struct {
		s                                  Shape
		ids, locker, holderState, zeroNode bool
	}{
		{Locker, false, true, true, false},
		{IDs, true, false, false, false},
		{Handles, false, true, false, false},
		{CallerNodes, false, false, false, true},
	} {
		if c.s.TakesIDs() != c.ids || c.s.SyncLocker() != c.locker || c.s.HolderState() != c.holderState || c.s.ZeroNodes() != c.zeroNode {
			t.Errorf("%s: TakesIDs %v SyncLocker %v HolderState %v ZeroNodes %v", c.s, c.s.TakesIDs(), c.s.SyncLocker(), c.s.HolderState(), c.s.ZeroNodes())
		}
	}
}
