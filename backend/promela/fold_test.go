package promela

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// steps counts a model's marked lines: its statements, options and steps.
func steps(model string) int { return strings.Count(model, "/*@") }

// TestFoldCatalogue: folded, every catalogue model still parses, keeps one
// shared location per line (a transition) and has no more lines than the
// model without folding.
func TestFoldCatalogue(t *testing.T) {
	for _, e := range templates.All() {
		for _, m := range mode.All {
			if !e.SupportsMode(m) {
				continue
			}
			a := e.MustDef(templates.Options{Mode: m})
			p := e.SmallParamsFor(m, 3)
			for _, c := range []Check{MutualExclusion, Starvation, DeadlockFreedom, FIFO | MutualExclusion} {
				o := Options{Mode: m, Checks: c, Passages: 2}
				if m.Readers() {
					o.Writers, o.Readers = 1, 2
				}
				plain, perr := Model(a, p, o)
				o.Fold = true
				folded, err := Model(a, p, o)
				if (perr != nil) != (err != nil) {
					t.Errorf("%s (%s): refused %v without folding, %v folded", e.Name, m, perr, err)
				}
				if err != nil || perr != nil {
					continue
				}
				spinParses(t, folded)
				oneAccessPerLine(t, a, folded)
				if l := loneResets(a, folded); l != nil {
					t.Errorf("%s (%s, checks %d): transitions that only reset locals:\n%s", e.Name, m, c, strings.Join(l, "\n"))
				}
				if steps(folded) > steps(plain) {
					t.Errorf("%s (%s, checks %d): %d lines folded, %d without", e.Name, m, c, steps(folded), steps(plain))
				}
			}
		}
	}
}

// loneResets returns the model's lines that are a transition of their own
// doing nothing but reset step or passage locals: folding joins resets to a
// neighbouring step, or to each way out of the if or loop before them, and
// leaves out the resets of locals already zero. The passage's end (lg_end)
// is a step in every model.
func loneResets(a *ir.Algorithm, model string) []string {
	tracked := map[string]bool{}
	for _, v := range a.Locals {
		if v.Len == nil && v.Scope != ir.Process {
			tracked[v.Name] = true
		}
	}
	var out []string
	for _, l := range strings.Split(model, "\n") {
		c := code(l)
		if i := strings.Index(c, ":"); i >= 0 && !strings.HasPrefix(c, "::") && !strings.Contains(c[:i], " ") {
			if strings.HasPrefix(c, "lg_") {
				continue // a goto target: the passage's end, in every model
			}
			c = strings.TrimSpace(c[i+1:]) // a label
		}
		c = strings.TrimSuffix(c, ";")
		if inner, ok := strings.CutPrefix(c, "atomic { "); ok {
			c = strings.TrimSuffix(inner, " }")
		}
		lone := c != ""
		for _, part := range strings.Split(c, "; ") {
			name, ok := strings.CutSuffix(part, " = 0")
			lone = lone && ok && tracked[name]
		}
		if lone {
			out = append(out, l)
		}
	}
	return out
}

// TestFoldAnonymous pins what folding does to the anonymous algorithm,
// whose n = 3 looping search needs it.
func TestFoldAnonymous(t *testing.T) {
	a := def(t, "anonymous")
	m, err := Model(a, ir.Params{N: 3, K: 1, Extra: map[string]int64{"memory": 5}}, Options{Checks: DeadlockFreedom, Bound: 64, Fold: true})
	if err != nil {
		t.Fatal(err)
	}
	spinParses(t, m)
	// Line 7's CAS carries lines 7–8's local work, and ok is dead after it.
	l7 := lines(m, "Acquire", "7")
	if len(l7) != 1 || !strings.Contains(l7[0], "R[perm[j]] = round") || !strings.Contains(l7[0], "counter = (counter + 1)") ||
		!strings.Contains(l7[0], "ok = 0") {
		t.Errorf("line 7 is not one step with its local work:\n%s", strings.Join(l7, "\n"))
	}
	// competitors only serves line 12's test: both options reset it.
	if l12 := strings.Join(lines(m, "Acquire", "12"), "\n"); strings.Count(l12, "competitors = 0") != 2 {
		t.Errorf("line 12's options do not reset competitors:\n%s", l12)
	}
	// Lines A2–A3 (local) join A1's fetch&add; the generator's state is
	// dead after it.
	a1 := strings.Join(lines(m, "Acquire", "A1"), "\n")
	if !strings.Contains(a1, "HANDLES = HANDLES + 1") || !strings.Contains(a1, "named = true") || lines(m, "Acquire", "A2") != nil {
		t.Errorf("lines A1–A3 are not one step:\n%s", a1)
	}
	if !strings.Contains(m, "seed = 0; tmp = 0; y = 0") {
		t.Error("the permutation generator's locals are not reset once dead")
	}
}

// TestFoldLiveness: a local is reset where it dies, never where a later
// read (the same iteration, the next one, or a loop's test) needs it.
func TestFoldLiveness(t *testing.T) {
	a := &ir.Algorithm{
		Name:   "live",
		Shared: []ir.Shared{{Name: "X", Type: ir.TInt}, {Name: "Y", Type: ir.TInt}},
		Locals: []ir.Local{{Name: "a", Type: ir.TInt}, {Name: "b", Type: ir.TInt}, {Name: "c", Type: ir.TInt}, {Name: "d", Type: ir.TInt}},
		Acquire: Code(
			Set("1", "a", Read(Reg("X"))),
			Write("2", Reg("Y"), Lit(1)),
			If("3", Eq(Var("a"), Lit(0)), Write("3", Reg("Y"), Lit(2))),
			Set("4", "c", Lit(0)),
			While("5", Lt(Var("c"), Lit(2)), Set("5", "c", Plus(Var("c"), Lit(1))), Write("6", Reg("Y"), Var("c"))),
			Repeat("7", Eq(Var("b"), Lit(0)), Set("7", "b", Read(Reg("X")))),
			Set("8", "d", Read(Reg("X"))),
			For("9", "i", Lit(0), Lit(1), Write("9", Reg("Y"), Var("d"))),
		),
		Release: Code(Write("10", Reg("X"), Lit(0))),
	}
	m := build(t, a, 2, Options{Checks: MutualExclusion, Passages: 1, Fold: true})
	oneAccessPerLine(t, a, m)
	// lines, without the markers (which quote the paper: "until b = 0").
	lines := func(m, op, label string) []string {
		var out []string
		for _, l := range lines(m, op, label) {
			out = append(out, code(l))
		}
		return out
	}
	if l2 := strings.Join(lines(m, "Acquire", "2"), "\n"); strings.Contains(l2, "a = 0") {
		t.Errorf("a is reset before line 3 reads it:\n%s", l2)
	}
	if l3 := strings.Join(lines(m, "Acquire", "3"), "\n"); strings.Count(l3, "a = 0") != 2 {
		t.Errorf("a is not reset in both options of line 3, its last read:\n%s", l3)
	}
	for _, l := range append(lines(m, "Acquire", "5"), lines(m, "Acquire", "6")...) {
		if strings.Contains(l, "c = 0") && !strings.Contains(l, "!") {
			t.Errorf("c is reset inside the loop that counts with it: %s", l)
		}
	}
	if l7 := strings.Join(lines(m, "Acquire", "7"), "\n"); strings.Contains(l7, "b = 0") {
		t.Errorf("b is reset before line 7's test reads it:\n%s", l7)
	}
	if l8 := strings.Join(lines(m, "Acquire", "8"), "\n"); strings.Contains(l8, "d = 0") {
		t.Errorf("d is reset before the loop whose every iteration reads it:\n%s", l8)
	}
	if cs := strings.Join(lines(m, "CS", ""), "\n"); !strings.Contains(cs, "b = 0") || !strings.Contains(cs, "c = 0") ||
		!strings.Contains(cs, "d = 0") {
		t.Errorf("b, c and d are not reset once the loops are done:\n%s", cs)
	}
}

// TestFoldResetsOnlyWhatMayBeSet: a local reset where it died inside a
// branch, and never set on the other, is not reset again after the if.
func TestFoldResetsOnlyWhatMayBeSet(t *testing.T) {
	a := &ir.Algorithm{
		Name:   "zero",
		Shared: []ir.Shared{{Name: "X", Type: ir.TInt}, {Name: "Y", Type: ir.TInt}},
		Locals: []ir.Local{{Name: "a", Type: ir.TInt}},
		Acquire: Code(
			If("1", Eq(Read(Reg("X")), Lit(0)),
				Set("2", "a", Read(Reg("Y"))),
				Write("3", Reg("X"), Var("a")),
			),
			Write("4", Reg("Y"), Lit(1)),
		),
		Release: Code(Write("5", Reg("X"), Lit(0))),
	}
	m := build(t, a, 2, Options{Checks: MutualExclusion, Passages: 1, Fold: true})
	if l3 := strings.Join(lines(m, "Acquire", "3"), "\n"); !strings.Contains(l3, "a = 0") {
		t.Errorf("a is not reset after line 3, its last read:\n%s", l3)
	}
	if l4 := strings.Join(lines(m, "Acquire", "4"), "\n"); strings.Contains(l4, "a = 0") {
		t.Errorf("line 4 resets a, zero on both ways out of line 1's if:\n%s", l4)
	}
}
