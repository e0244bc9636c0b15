package ir_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

// spinLock is a test-and-set lock whose waiting process may give up: the
// smallest abortable definition.
func spinLock(abort ...ir.Stmt) *ir.Algorithm {
	return &ir.Algorithm{
		Name:   "spin",
		Shared: []ir.Shared{{Name: "L", Type: ir.TInt}},
		Locals: []ir.Local{{Name: "old", Type: ir.TInt}},
		Acquire: Code(OnAbort(BusyRepeat("1", Eq(Var("old"), Lit(0)),
			Swap("1", "old", Reg("L"), Lit(1))), abort...)),
		Release: Code(Write("2", Reg("L"), Lit(0))),
	}
}

func TestAbortChecked(t *testing.T) {
	ok := spinLock(Fail("1"))
	if err := ir.Check(ok); err != nil {
		t.Fatalf("a wait that gives up at once: %v", err)
	}
	if !ok.Abortable() || len(ok.AbortPoints()) != 1 {
		t.Fatalf("abort points: %v", ok.AbortPoints())
	}
	plain := spinLock()
	if plain.Abortable() {
		t.Fatal("a lock without abort code is abortable")
	}

	notBusy := spinLock(Fail("1"))
	r := notBusy.Acquire[0].(ir.Repeat)
	r.Busy = false
	notBusy.Acquire = Code(r)

	inRelease := spinLock()
	inRelease.Release = Code(OnAbort(Await("2", Eq(Read(Reg("L")), Lit(1))), Fail("2")))

	inTry := spinLock()
	inTry.TryAcquire = Code(OnAbort(Await("3", Eq(Read(Reg("L")), Lit(0))), Fail("3")))

	nested := spinLock(OnAbort(Await("4", Eq(Read(Reg("L")), Lit(0))), Fail("4")), Fail("1"))

	fallsThrough := spinLock(Write("5", Reg("L"), Lit(0)))

	halfEnds := spinLock(If("6", Eq(Read(Reg("L")), Lit(0)), Fail("6")))

	for _, c := range []struct {
		name string
		a    *ir.Algorithm
		want string
	}{
		{"not a busy loop", notBusy, "not a busy wait"},
		{"in a release", inRelease, "outside an acquire"},
		{"in a try-acquire", inTry, "outside an acquire"},
		{"nested", nested, "inside abort code"},
		{"falls through", fallsThrough, "must end every way"},
		{"one branch falls through", halfEnds, "must end every way"},
	} {
		err := ir.Check(c.a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestAbortListed(t *testing.T) {
	a := spinLock(Write("A", Reg("L"), Lit(0)), Fail("A"))
	if plain := strings.Join(ir.Listing(a.Acquire), "\n"); strings.Contains(plain, "abort") {
		t.Errorf("Listing shows abort code:\n%s", plain)
	}
	got := strings.Join(ir.ListingWithAborts(a.Acquire), "\n")
	for _, want := range []string{"on abort:", "(A)         L := 0", "give up (return failure)"} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %q:\n%s", want, got)
		}
	}
}

func TestAbortCost(t *testing.T) {
	free := ir.AbortCost(Code(Fail("1")))
	if !free.Bounded() || free.Steps != 0 || !strings.HasPrefix(free.String(), "nothing") {
		t.Errorf("give up at once: %+v %s", free, free)
	}
	two := ir.AbortCost(Code(
		If("1", Eq(Read(Reg("L")), Lit(0)), Write("2", Reg("L"), Lit(1))),
		Write("3", Reg("L"), Lit(0)), Fail("3")))
	if !two.Bounded() || two.Steps != 3 {
		t.Errorf("a read, a write in one branch and a write: %+v, want 3 steps", two)
	}
	waits := ir.AbortCost(Code(Await("W", Eq(Read(Reg("L")), Lit(0))), Fail("W")))
	if waits.Bounded() || !strings.Contains(waits.String(), "waits at W") {
		t.Errorf("an abort that waits: %+v %s", waits, waits)
	}
}

func TestWalkAllSeesAbortCode(t *testing.T) {
	a := spinLock(Write("A", Reg("L"), Lit(0)), Fail("A"))
	var plain, all []string
	ir.WalkStmts(a.Acquire, func(s ir.Stmt) { plain = append(plain, s.Label()) })
	ir.WalkAll(a.Acquire, func(s ir.Stmt) { all = append(all, s.Label()) })
	if strings.Join(plain, ",") != "1,1" || strings.Join(all, ",") != "1,A,A,1" {
		t.Errorf("WalkStmts %v, WalkAll %v", plain, all)
	}
}
