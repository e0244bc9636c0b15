package mode

import (
	"strings"
	"testing"
)

// Every mode has every rule: a mode added to All without its table entry
// would panic at its first question.
func TestEveryModeHasItsRules(t *testing.T) {
	for _, m := range All {
		if !m.Valid() {
			t.Fatalf("%s is in All but not in the table", m)
		}
		if m.Title() == "" || m.Describe(2, "fair") == "" || m.Invariant(2) == "" {
			t.Errorf("%s: an empty description", m)
		}
	}
	if len(table) != len(All) {
		t.Errorf("%d modes in the table, %d in All", len(table), len(All))
	}
}

func TestRules(t *testing.T) {
	for _, c := range []struct {
		m                  Mode
		holders, crashes   int
		takesK, readers    bool
		ordered, shared    bool
		describe, contains string
	}{
		{Mutex, 1, 0, false, false, true, false, "a mutual exclusion lock", "one process"},
		{KExclusion, 3, 2, true, false, true, true, "a 3-exclusion lock (at most 3 holders at once)", "at most 3"},
		{RW, 1, 0, false, true, false, true, "a reader/writer lock (writer preference)", "readers share"},
	} {
		if got := c.m.Holders(3); got != c.holders {
			t.Errorf("%s.Holders(3) = %d, want %d", c.m, got, c.holders)
		}
		if got := c.m.Crashes(3); got != c.crashes {
			t.Errorf("%s.Crashes(3) = %d, want %d", c.m, got, c.crashes)
		}
		if c.m.TakesK() != c.takesK || c.m.Readers() != c.readers || c.m.Ordered() != c.ordered || c.m.Shared(3) != c.shared {
			t.Errorf("%s: TakesK %v Readers %v Ordered %v Shared %v", c.m, c.m.TakesK(), c.m.Readers(), c.m.Ordered(), c.m.Shared(3))
		}
		if got := c.m.Describe(3, "writer"); got != c.describe {
			t.Errorf("%s.Describe = %q, want %q", c.m, got, c.describe)
		}
		if got := c.m.Invariant(3); !strings.Contains(got, c.contains) {
			t.Errorf("%s.Invariant = %q, want it to say %q", c.m, got, c.contains)
		}
	}
	if KExclusion.Shared(1) {
		t.Error("1-exclusion has one holder")
	}
}

func TestUnknownMode(t *testing.T) {
	if Mode("semaphore").Valid() || Mode("").Valid() {
		t.Error("an unknown mode is valid")
	}
	if Mode("").Or(Mutex) != Mutex || RW.Or(Mutex) != RW {
		t.Error("Or")
	}
	var zero Mode
	if zero.Holders(3) != 1 || zero.Readers() || zero.Describe(3, "") != Mutex.Describe(3, "") {
		t.Error("the zero Mode does not follow Mutex's rules")
	}
	defer func() {
		if recover() == nil {
			t.Error("asking an unknown mode did not panic")
		}
	}()
	Mode("semaphore").Readers()
}
