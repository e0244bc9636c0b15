package mutate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// tiny is a small algorithm with one of everything the operators touch.
func tiny() *ir.Algorithm {
	free, busy := dsl.Named("FREE", 0), dsl.Named("BUSY", 1)
	return &ir.Algorithm{
		Name:   "tiny",
		Shared: []ir.Shared{{Name: "L", Type: ir.TInt}, {Name: "F", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc"}},
		Locals: []ir.Local{{Name: "old", Type: ir.TInt}, {Name: "ok", Type: ir.TBool}},
		Acquire: dsl.Code(
			dsl.Write("1", dsl.Elem("F", dsl.Self), dsl.True),
			dsl.For("2", "j", dsl.Lit(0), dsl.Minus(dsl.N, dsl.Lit(1))),
			dsl.BusyRepeat("3", dsl.Eq(dsl.Var("old"), free),
				dsl.Swap("3", "old", dsl.Reg("L"), busy)),
			dsl.Await("4", dsl.ForAllOthers("k", dsl.Lit(0), dsl.Minus(dsl.N, dsl.Lit(1)), dsl.Read(dsl.Elem("F", dsl.Var("k"))))),
		),
		Release: dsl.Code(
			dsl.CAS("5", "ok", dsl.Reg("L"), busy, free),
			dsl.Write("6", dsl.Elem("F", dsl.Self), dsl.False),
		),
	}
}

func TestOperatorsApplyWhereTheyFit(t *testing.T) {
	a := tiny()
	if err := ir.Check(a); err != nil {
		t.Fatal(err)
	}
	set := Generate(a, Target{Entry: EntryFor(a), Options: templates.Options{Mode: mode.Mutex}})
	got := map[string]string{}
	for _, m := range set.Kept {
		got[m.ID] = m.Change
	}
	for _, d := range set.Discarded {
		t.Logf("discarded %s: %s", d.ID, d.Reason)
	}
	want := []string{
		"tiny/Acquire/swap@1,2", "tiny/Acquire/swap@2,3", "tiny/Acquire/swap@3,4",
		"tiny/Acquire/delete@1", "tiny/Acquire/delete@2", "tiny/Acquire/delete@3", "tiny/Acquire/delete@3#2",
		"tiny/Acquire/drop-await@4",
		"tiny/Acquire/off-by-one-from+1@2", "tiny/Acquire/off-by-one-from-1@2", "tiny/Acquire/off-by-one-to+1@2", "tiny/Acquire/off-by-one-to-1@2",
		"tiny/Acquire/flip-eq@3",
		"tiny/Acquire/fas-write@3",
		"tiny/Acquire/off-by-one-qfrom+1@4", "tiny/Acquire/off-by-one-qto-1@4",
		"tiny/Release/swap@5,6", "tiny/Release/delete@5", "tiny/Release/delete@6", "tiny/Release/cas-write@5",
	}
	for _, id := range want {
		if _, ok := got[id]; !ok {
			t.Errorf("no mutant %s; have %v", id, keys(got))
		}
	}
	if c := got["tiny/Release/cas-write@5"]; c != "(5) ok := CAS(L, BUSY, FREE) → L := FREE; ok := true" {
		t.Errorf("cas-write change = %q", c)
	}
	if c := got["tiny/Acquire/fas-write@3"]; c != "(3) old := FAS(L, BUSY) → old := L; L := BUSY" {
		t.Errorf("fas-write change = %q", c)
	}
	if c := got["tiny/Acquire/off-by-one-to-1@2"]; !strings.Contains(c, "for j from 0 to n - 1 do → (2) for j from 0 to (n - 1) - 1 do") {
		t.Errorf("off-by-one change = %q", c)
	}
	// The repeat's condition is a comparison with a bound only when it
	// orders: = has no off-by-one.
	if _, ok := got["tiny/Acquire/off-by-one-cmp-eq@3"]; ok {
		t.Error("off-by-one applied to an equality")
	}
	// No two kept mutants are the same definition, and none is the original.
	seen := map[string]string{canonical(a): "original"}
	for _, m := range set.Kept {
		c := canonical(m.Alg)
		if prev, dup := seen[c]; dup {
			t.Errorf("%s is the same definition as %s", m.ID, prev)
		}
		seen[c] = m.ID
		if err := ir.Check(m.Alg); err != nil {
			t.Errorf("%s kept but does not check: %v", m.ID, err)
		}
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestMutantsDoNotShareWithTheOriginal edits every slice of every mutant
// and requires the original to be unchanged.
func TestMutantsDoNotShareWithTheOriginal(t *testing.T) {
	for _, name := range []string{"mcs", "bakery", "dvir-taubenfeld-1", "anonymous"} {
		e, ok := templates.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		a := e.MustDef(e.AllOptions()[0])
		before := canonical(a) + fmt.Sprintf("%#v%#v%#v", a.Records, a.Procs, a.Locals)
		for _, m := range Mutants(a) {
			scribble(m.Alg)
		}
		after := canonical(a) + fmt.Sprintf("%#v%#v%#v", a.Records, a.Procs, a.Locals)
		if before != after {
			t.Errorf("%s: editing its mutants changed the original", name)
		}
	}
}

// scribble overwrites every element of every slice reachable from a.
func scribble(a *ir.Algorithm) {
	for i := range a.Shared {
		a.Shared[i].Name = "X"
	}
	for i := range a.Records {
		a.Records[i].Name = "X"
		for j := range a.Records[i].Fields {
			a.Records[i].Fields[j].Name = "X"
		}
	}
	for i := range a.Procs {
		a.Procs[i].Count = 99
	}
	for i := range a.Locals {
		a.Locals[i].Name = "X"
		if a.Locals[i].InitMine != nil {
			a.Locals[i].InitMine.Name = "X"
		}
	}
	for _, op := range ir.OpNames {
		scribbleCode(*a.OpCode(op))
	}
}

func scribbleCode(c ir.Code) {
	for i, s := range c {
		switch s := s.(type) {
		case ir.If:
			scribbleCode(s.Then)
			scribbleCode(s.Else)
		case ir.While:
			scribbleCode(s.Body)
		case ir.Repeat:
			scribbleCode(s.Body)
		case ir.For:
			scribbleCode(s.Body)
		}
		c[i] = ir.Succeed{At: ir.At{L: "X"}}
	}
}

// TestIDsAreStable: generating twice gives the same IDs in the same order.
func TestIDsAreStable(t *testing.T) {
	e, _ := templates.Lookup("mcs")
	a := e.MustDef(e.AllOptions()[0])
	x, y := Mutants(a), Mutants(e.MustDef(e.AllOptions()[0]))
	if len(x) != len(y) || len(x) == 0 {
		t.Fatalf("%d and %d mutants", len(x), len(y))
	}
	ids := map[string]bool{}
	for i := range x {
		if x[i].ID != y[i].ID {
			t.Errorf("mutant %d: %s then %s", i, x[i].ID, y[i].ID)
		}
		if ids[x[i].ID] {
			t.Errorf("duplicate ID %s", x[i].ID)
		}
		ids[x[i].ID] = true
	}
	for _, id := range []string{"mcs/Release/drop-await@14", "mcs/Acquire/swap@5,6", "mcs/Release/cas-write@13", "mcs/Acquire/fas-write@3"} {
		if !ids[id] {
			t.Errorf("no mutant %s", id)
		}
	}
}

// TestDoorwayFollowsDeletion: deleting the statement that ends the doorway
// moves DoorwayEnd to the statement before it, so the mutant still checks.
func TestDoorwayFollowsDeletion(t *testing.T) {
	e, _ := templates.Lookup("mcs")
	for _, m := range Mutants(e.MustDef(e.AllOptions()[0])) {
		if m.ID == "mcs/Acquire/delete@3" {
			if m.Alg.DoorwayEnd != "2" {
				t.Errorf("DoorwayEnd = %q, want 2", m.Alg.DoorwayEnd)
			}
			return
		}
	}
	t.Error("no mutant mcs/Acquire/delete@3")
}

// TestEveryCatalogueAlgorithmMutates: every definition yields mutants, and
// every mutant checks.
func TestEveryCatalogueAlgorithmMutates(t *testing.T) {
	for _, e := range templates.All() {
		for _, o := range e.AllOptions() {
			set := Generate(e.MustDef(o), Target{Entry: e, Options: o})
			if len(set.Kept) == 0 {
				t.Errorf("%s %v: no mutants", e.Name, o)
			}
			for _, m := range set.Kept {
				if err := ir.Check(m.Alg); err != nil {
					t.Errorf("%s: %v", m.ID, err)
				}
			}
		}
	}
}

func TestControlsAreOneLineChanges(t *testing.T) {
	cs, err := Controls()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range cs {
		if names[c.Name] {
			t.Errorf("control %s twice", c.Name)
		}
		names[c.Name] = true
		if (c.ExploreKind == "") == (c.SpinOnly == "") || c.SpinProperty == "" || c.SpinFailure == "" || c.SpinN < 2 || c.Why == "" || c.Source == "" {
			t.Errorf("control %s: incomplete record", c.Name)
		}
		e, ok := templates.Lookup(c.Alg.Name)
		if !ok || c.Name == "hyman" {
			continue
		}
		orig := e.MustDef(c.Options)
		if canonical(orig) == canonical(c.Alg) && len(orig.Procs) > 0 && orig.Procs[0].Count == c.Alg.Procs[0].Count {
			t.Errorf("control %s is the catalogue definition unchanged", c.Name)
		}
	}
	for _, want := range []string{"dt1-one-node", "dt1-swap-6-7", "dt1-status-after-test", "dt2-unlocked", "mcs-no-exit-wait", "test-then-set", "hyman",
		"clh-try-leave-reachable", "clh-try-unlink-early", "lamport-fast-abort-r7.2", "mcs-try-no-step-4"} {
		if !names[want] {
			t.Errorf("no control %s", want)
		}
	}
}

// Abort code is mutated like the rest: its statements get mutants whose
// paths go through the wait's abort code ("a").
func TestAbortCodeMutated(t *testing.T) {
	e, _ := templates.Lookup("clh-try")
	a := e.MustDef(e.AllOptions()[0])
	set := Generate(a, Target{Entry: e, Options: e.AllOptions()[0]})
	inAbort := 0
	for _, m := range set.Kept {
		if strings.Contains(m.Where.Path, ".a") {
			inAbort++
			if !m.Alg.Abortable() && m.Operator != Delete {
				t.Errorf("%s: the mutant lost the abort code", m.ID)
			}
		}
	}
	if inAbort < 20 {
		t.Errorf("%d mutants of clh-try's abort code, want at least 20", inAbort)
	}
	// The abort code of a copy is the copy's own.
	b := a.Clone()
	ir.WalkStmts(b.Acquire, func(s ir.Stmt) {
		if abort, ok := ir.AbortOf(s); ok && len(abort) > 0 {
			abort[0] = ir.Fail{}
		}
	})
	if canonical(a) == canonical(b) {
		t.Error("Clone shares the abort code with the original")
	}
}
