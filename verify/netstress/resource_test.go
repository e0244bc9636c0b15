package netstress

import "testing"

// The resource accepts what a correct lock does and reports each way a
// lock can go wrong.
func TestResource(t *testing.T) {
	type access struct {
		proc  int
		write bool
		fence int64
		last  bool
	}
	const e1, e2 = 1 << EpochShift, 2 << EpochShift
	for _, c := range []struct {
		name                   string
		accesses               []access
		violations, inversions int
		stale                  int64
	}{
		{"writers then readers sharing", []access{
			{0, true, e1 + 1, false}, {0, true, e1 + 1, true},
			{1, false, e1 + 1, false}, {2, false, e1 + 1, false}, {1, false, e1 + 1, true}, {2, false, e1 + 1, true},
			{0, true, e1 + 2, false}, {0, true, e1 + 2, true}}, 0, 0, 0},
		{"a paused holder fenced off by a later epoch", []access{
			{0, true, e1 + 5, false}, {1, true, e2 + 1, false}, {0, true, e1 + 5, true}, {1, true, e2 + 1, true}}, 0, 0, 1},
		{"two writers with one token", []access{
			{0, true, e1 + 1, false}, {1, true, e1 + 1, false}}, 0, 1, 0},
		{"a token that goes backwards", []access{
			{0, true, e1 + 2, true}, {1, true, e1 + 1, true}}, 0, 1, 0},
		{"a live holder overtaken within its epoch", []access{
			{0, false, e1 + 1, false}, {1, true, e1 + 2, false}, {0, false, e1 + 1, true}}, 0, 1, 0},
		{"a reader's token below the last writer's", []access{
			{0, true, e1 + 2, true}, {1, false, e1 + 1, true}}, 0, 1, 0},
		{"a reader that ends without a second access", []access{
			{0, false, e1 + 2, false}, {1, true, e1 + 3, false}, {1, true, e1 + 3, true}, {2, false, e1 + 3, false}, {2, false, e1 + 3, true}}, 0, 0, 0},
		{"a reader between a writer's accesses, with its token", []access{
			{0, true, e1 + 1, false}, {1, false, e1 + 1, false}, {0, true, e1 + 1, true}}, 1, 0, 0},
	} {
		r := NewResource()
		for _, a := range c.accesses {
			r.Access(PassageID{Proc: a.proc}, a.write, a.fence, a.last)
		}
		rep := r.Report()
		if len(rep.Violations) != c.violations || len(rep.Inversions) != c.inversions || rep.Stale != c.stale {
			t.Errorf("%s: %d violations, %d inversions, %d stale; want %d, %d, %d (%q %q)", c.name,
				len(rep.Violations), len(rep.Inversions), rep.Stale, c.violations, c.inversions, c.stale, rep.Violations, rep.Inversions)
		}
	}
}
