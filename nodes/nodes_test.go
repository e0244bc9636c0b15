package nodes

import (
	"testing"

	"github.com/lockgen/lockgen/shape"
)

// Every policy has every rule: a policy added to All without its table
// entry would panic at its first question.
func TestEveryPolicyHasItsRules(t *testing.T) {
	for _, n := range All {
		if !n.Valid() {
			t.Fatalf("%s is in All but not in the table", n)
		}
		if n.Fits() == "" || !n.Shape().Valid() {
			t.Errorf("%s: no description or no shape", n)
		}
	}
	if len(table) != len(All)+1 { // and None
		t.Errorf("%d policies in the table, %d in All and None", len(table), len(All))
	}
	if None.Valid() || Policy("stack").Valid() {
		t.Error("None or an unknown policy is valid")
	}
}

func TestRules(t *testing.T) {
	for _, c := range []struct {
		n                             Policy
		shape                         shape.Shape
		procs, perPassage, pooled, id bool
	}{
		{None, shape.Locker, false, false, false, false},
		{Handle, shape.Handles, false, false, false, false},
		{Pool, shape.Locker, false, true, true, false},
		{Heap, shape.Locker, false, true, false, false},
		{Caller, shape.CallerNodes, false, false, false, false},
		{Array, shape.IDs, true, false, false, true},
	} {
		if c.n.Shape() != c.shape || c.n.NeedsProcs() != c.procs || c.n.PerPassage() != c.perPassage || c.n.Pooled() != c.pooled || c.n.IDs() != c.id {
			t.Errorf("%q: Shape %s NeedsProcs %v PerPassage %v Pooled %v IDs %v", c.n, c.n.Shape(), c.n.NeedsProcs(), c.n.PerPassage(), c.n.Pooled(), c.n.IDs())
		}
	}
	if (Pool.Usage() == "") || (Heap.Usage() == "") || Handle.Usage() != "" {
		t.Error("only the per-passage policies say something in a lock's doc")
	}
}
