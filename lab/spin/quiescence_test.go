package spin

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// quiet are the model options of the quiescence check: one passage per
// process, local work folded.
func quiet(m mode.Mode, crashes int) promela.Options {
	return promela.Options{Mode: m, Checks: promela.Quiescence, Passages: 1, Fold: true, Crashes: crashes}
}

// wantStuck checks that res is the quiescence assertion's failure, with a
// trail that names the wait's line.
func wantStuck(t *testing.T, res Result, labels ...string) {
	t.Helper()
	wantFailure(t, res, "assertion violated", labels...)
	if !strings.Contains(res.Message, "g_stuck") {
		t.Errorf("the violated assertion is not quiescence's: %s", res.Message)
	}
}

// Zehavi's algorithm passes the quiescence check at n = 2; without line 15
// (Compete never reset) the second process waits for ever for the first,
// which is done.
func TestQuiescenceZehavi(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDefIn(t, "zehavi", mode.KExclusion)
	if res := check(t, a, 2, quiet(mode.KExclusion, 0), Quiescence); res.Status != Passed {
		t.Fatalf("zehavi: %s %s %s", res.Status, res.Message, res.Reason)
	}
	a.Release = without(a.Release, "15", ir.Write{})
	wantStuck(t, check(t, a, 2, quiet(mode.KExclusion, 0), Quiescence), "11")
}

// counting is a lock whose passages bump a counter that is compared by
// order (so it cannot be kept modulo anything): the suite's model looping
// for ever soon leaves the counter bound, and the suite falls back to
// bounded passages, where quiescence applies.
func counting() *ir.Algorithm {
	return &ir.Algorithm{
		Name:   "counting",
		Shared: []ir.Shared{{Name: "L", Type: ir.TBool}, {Name: "C", Type: ir.TInt}},
		Locals: []ir.Local{{Name: "t", Type: ir.TInt}},
		Acquire: Code(
			BusyWhile("A1", Read(Reg("L"))),
			Write("A2", Reg("L"), True),
			Set("A3", "t", Read(Reg("C"))),
			If("A4", Ge(Var("t"), Lit(0)), Write("A4", Reg("C"), Plus(Var("t"), Lit(1)))),
		),
		Release: Code(Write("R1", Reg("L"), False)),
	}
}

// Through the suite, the bounded-passage run of a liveness property is
// quiescence: it keeps the property's name and says how it was checked.
func TestQuiescenceThroughSuite(t *testing.T) {
	needSpin(t)
	t.Parallel()
	run := fast
	run.Fold = true
	rep, err := CheckEntry(t.Context(), "tas", SuiteOptions{Sizes: []int{2}, Properties: []Property{DeadlockFreedom},
		Passages: 2, Run: run, Quiescence: true, Def: counting()})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep)
	r := rep.Runs[0]
	if r.Result.Status != Passed || r.Property != DeadlockFreedom || r.Result.Property != DeadlockFreedom {
		t.Fatalf("%s: %s %s %s", r.Property, r.Result.Status, r.Result.Message, r.Result.Reason)
	}
	if !strings.Contains(r.Coverage, "checked as quiescence") || strings.Contains(r.Coverage, "weak fairness") {
		t.Errorf("coverage does not say the run was the safety form: %s", r.Coverage)
	}
}

// One crash more than k − 1 starves Zehavi's algorithm: at n = 2, k = 1,
// the process that crashes in the critical section keeps the other out.
func TestQuiescenceCrashBeyondK(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDefIn(t, "zehavi", mode.KExclusion)
	res := check(t, a, 2, quiet(mode.KExclusion, 1), Quiescence)
	wantStuck(t, res, "11")
	wantCrash(t, res)
}

// leaky is a lock whose release forgets the flag its acquire waits on: the
// second process waits for ever. With toggle, the wait flips a local on
// every pass, so a stuck process never repeats its previous pass.
func leaky(toggle bool) *ir.Algorithm {
	var body []ir.Stmt
	if toggle {
		body = append(body, Set("A2", "t", Minus(Lit(1), Var("t"))))
	}
	return &ir.Algorithm{
		Name:   "leaky",
		Shared: []ir.Shared{{Name: "L", Type: ir.TBool}, {Name: "X", Type: ir.TBool}},
		Locals: []ir.Local{{Name: "t", Type: ir.TInt}},
		Acquire: Code(
			BusyWhile("A1", Read(Reg("L")), body...),
			Write("A3", Reg("L"), True),
		),
		Release: Code(Write("R1", Reg("X"), True)),
	}
}

// The check bites on a plain starvation, and a wait whose locals never
// settle makes it inconclusive instead of passing it.
func TestQuiescenceLeakyLock(t *testing.T) {
	needSpin(t)
	t.Parallel()
	wantStuck(t, check(t, leaky(false), 2, quiet(mode.Mutex, 0), Quiescence), "A1")
	res := check(t, leaky(true), 2, quiet(mode.Mutex, 0), Quiescence)
	if res.Status != Incomplete || !strings.Contains(res.Reason, promela.SettleName) {
		t.Fatalf("a wait whose locals cycle: %s (%s %s), want incomplete on %s", res.Status, res.Message, res.Reason, promela.SettleName)
	}
}

// The suite plans the safety form for Zehavi's bounded passages, and keeps
// the LTL claim, saying why, once the wait writes; the model generator
// refuses it outright.
func TestQuiescencePlan(t *testing.T) {
	e, _ := templates.Lookup("zehavi")
	a := e.MustDef(templates.Options{Mode: mode.KExclusion})
	so := SuiteOptions{Passages: 1, Quiescence: true, K: 1}
	claims := e.PropsFor(templates.Options{Mode: mode.KExclusion})
	last := func(a *ir.Algorithm) attempt {
		t.Helper()
		atts, err := plan(a, claims, mode.KExclusion, Starvation, 2, so)
		if err != nil {
			t.Fatal(err)
		}
		return atts[len(atts)-1]
	}
	if at := last(a); at.run != Quiescence || at.po.Checks != promela.Quiescence || at.po.Passages != 1 {
		t.Errorf("zehavi: run %q, checks %v, %d passages, want quiescence over 1 passage", at.run, at.po.Checks, at.po.Passages)
	}

	writing := *a
	writing.Acquire = append(ir.Code{}, a.Acquire...)
	found := false
	for i, s := range writing.Acquire {
		if w, ok := s.(ir.While); ok && w.Label() == "11" {
			w.Body = append(append(ir.Code{}, w.Body...), Write("11x", Elem("REVEAL", Self), True))
			writing.Acquire[i], found = w, true
		}
	}
	if !found {
		t.Fatal("no line 11 loop in zehavi's acquire")
	}
	at := last(&writing)
	if at.run != "" || at.po.Checks != promela.Starvation || !strings.Contains(at.cov, "does not apply") {
		t.Errorf("a writing wait: run %q, checks %v, coverage %q, want the LTL claim and why", at.run, at.po.Checks, at.cov)
	}
	_, err := promela.Lower(&writing, ir.Params{N: 2, K: 1}, quiet(mode.KExclusion, 0))
	if err == nil || !strings.Contains(err.Error(), "line 11") || !strings.Contains(err.Error(), "11x") {
		t.Errorf("promela accepted quiescence on a writing wait: %v", err)
	}
	if _, err := promela.Lower(a, ir.Params{N: 2, K: 1}, promela.Options{Mode: mode.KExclusion, Checks: promela.Quiescence}); err == nil ||
		!strings.Contains(err.Error(), "bounded passages") {
		t.Errorf("promela accepted quiescence with processes looping for ever: %v", err)
	}
}

// FixedHash compiles pan without its hash-table resizing, and the search
// stores the same states: the option saves memory, not coverage.
func TestFixedHashSameStates(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDefIn(t, "zehavi", mode.KExclusion)
	m, err := promela.Model(a, ir.Params{N: 2, K: 1}, quiet(mode.KExclusion, 0))
	if err != nil {
		t.Fatal(err)
	}
	var states [2]int64
	for i, fixed := range []bool{false, true} {
		o := fast
		o.Collapse, o.FixedHash = true, fixed
		res, err := Check(t.Context(), m, Quiescence, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Passed || slices.Contains(res.CompileFlags, "-DNO_RESIZE") != fixed {
			t.Fatalf("fixed hash %v: %s, flags %v", fixed, res.Status, res.CompileFlags)
		}
		states[i] = res.States
	}
	if states[0] != states[1] || states[0] == 0 {
		t.Errorf("states %d with resizing, %d without", states[0], states[1])
	}
}

// Quiescence gives the LTL claim's verdict, over every catalogue entry it
// applies to at n = 2 (two passages each) and over two mutants that starve
// a process: ticket without its release, Zehavi without line 15. Long: a
// minute and a half of SPIN runs (LOCKGEN_SPIN_LONG=1).
func TestQuiescenceAgreesWithLTL(t *testing.T) {
	needSpin(t)
	if !long() {
		t.Skip("LOCKGEN_SPIN_LONG=1 runs it")
	}
	run := fast
	run.Fold = true
	compare := func(t *testing.T, a *ir.Algorithm, m mode.Mode, extra map[string]int64, ltl promela.Check, prop Property) Status {
		p := ir.Params{N: 2, K: 1, Extra: extra}
		po := promela.Options{Mode: m, Passages: 2, Checks: ltl}
		want, _, err := CheckAlgorithm(t.Context(), a, p, po, prop, run)
		if err != nil {
			t.Fatal(err)
		}
		po.Checks = promela.Quiescence
		got, _, err := CheckAlgorithm(t.Context(), a, p, po, Quiescence, run)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || want.Status == Incomplete {
			t.Errorf("%s (%s): quiescence %s (%s), %s %s (%s)", a.Name, m, got.Status, got.Message, prop, want.Status, want.Message+want.Reason)
		}
		return want.Status
	}
	passed := 0
	for _, e := range templates.All() {
		for _, m := range []mode.Mode{mode.Mutex, mode.KExclusion} {
			if !e.SupportsMode(m) || e.MinProcs > 2 {
				continue
			}
			a := e.MustDef(templates.Options{Mode: m})
			if promela.QuiescenceBlocker(a) != "" {
				continue
			}
			prop, ltl := DeadlockFreedom, promela.DeadlockFreedom
			if strings.HasPrefix(e.PropsFor(templates.Options{Mode: m}).Liveness, "starvation-free") {
				prop, ltl = Starvation, promela.Starvation
			}
			extra := map[string]int64{}
			for _, ps := range e.Params {
				extra[ps.Key] = ps.Default
			}
			if compare(t, a, m, extra, ltl, prop) == Passed {
				passed++
			}
		}
	}
	if passed < 10 {
		t.Errorf("only %d entries compared", passed)
	}
	ticket := entryDef(t, "ticket")
	ticket.Release = without(ticket.Release, "T3", ir.Write{})
	zehavi := entryDef(t, "zehavi")
	zehavi.Release = without(zehavi.Release, "15", ir.Write{})
	for _, a := range []*ir.Algorithm{ticket, zehavi} {
		if got := compare(t, a, mode.Mutex, nil, promela.Starvation, Starvation); got != Failed {
			t.Errorf("%s mutant: %s, want both checks to fail", a.Name, got)
		}
	}
}

// A crash in the safety form is one step (backend/promela
// rendezvousCrash): the crash model holds the crash-free states once, plus
// the states after a crash, whose victim's locals are zeroed. With a
// victim flag that the victim acted on at its next step, and a crasher
// that could stop, lastHolds at n = 3 stored 7,581 states against 821
// crash-free (961 now).
func TestCrashStatesNoCopies(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a, p := lastHolds(), ir.Params{N: 3, K: 1}
	free, _, err := CheckAlgorithm(t.Context(), a, p, quiet(mode.Mutex, 0), Quiescence, fast)
	if err != nil {
		t.Fatal(err)
	}
	po := quiet(mode.Mutex, 1)
	po.Victims = []int{0, 1}
	crash, _, err := CheckAlgorithm(t.Context(), a, p, po, Quiescence, fast)
	if err != nil {
		t.Fatal(err)
	}
	if free.Status != Passed || crash.Status != Passed {
		t.Fatalf("crash-free %s, with crashes %s %s", free.Status, crash.Status, crash.Message)
	}
	if crash.States <= free.States || crash.States >= 2*free.States {
		t.Errorf("with crashes %d states, crash-free %d: want more, and fewer than twice as many", crash.States, free.States)
	}
}

// The safety form's crash is a rendezvous received in the escape of an
// unless, and pan warns that such an escape "could make p.o. reduction
// invalid": a search with the reduction that finds nothing is therefore
// incomplete, and CheckAlgorithm checks crash models without it. That
// costs nothing: in these models the reduction prunes nothing. Every
// statement of a process's unless body carries the escape, a receive on a
// global channel, so pan never counts one as safe, and a process is inside
// that body from its start. This test holds pan to that: each crash model
// below, folded (as make test and spincheck -fold run them) and not,
// stores the same states with the reduction as without it, and a
// counterexample is found either way. The crash-free model shows that the
// flag is not idle: there the reduction stores fewer states, and pan
// does not warn.
func TestCrashReductionPrunesNothing(t *testing.T) {
	needSpin(t)
	t.Parallel()
	victims := quiet(mode.Mutex, 1)
	victims.Victims = []int{0, 1}
	zehavi := entryDefIn(t, "zehavi", mode.KExclusion)
	const warning = "rendezvous stmnts in the escape of an unless clause"
	for _, c := range []struct {
		name string
		a    *ir.Algorithm
		p    ir.Params
		o    promela.Options
		fold bool
		want Status // without the reduction
	}{
		{"zehavi, k = 1, folded", zehavi, ir.Params{N: 2, K: 1}, quiet(mode.KExclusion, 1), true, Failed},
		{"zehavi, k = 2, folded", zehavi, ir.Params{N: 2, K: 2}, quiet(mode.KExclusion, 1), true, Passed},
		{"zehavi, k = 2", zehavi, ir.Params{N: 2, K: 2}, quiet(mode.KExclusion, 1), false, Passed},
		{"lastHolds, processes 0 and 1 may crash, folded", lastHolds(), ir.Params{N: 3, K: 1}, victims, true, Passed},
		{"peterson without crashes", entryDefIn(t, "peterson", mode.Mutex), ir.Params{N: 2, K: 1}, quiet(mode.Mutex, 0), false, Passed},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			po := c.o
			po.Fold = c.fold
			low, err := promela.Lower(c.a, c.p, po)
			if err != nil {
				t.Fatal(err)
			}
			var got [2]Result
			for i, noReduce := range []bool{false, true} {
				o := fast
				o.NoReduce = noReduce
				if got[i], err = Check(t.Context(), low.Text, Quiescence, o); err != nil {
					t.Fatal(err)
				}
			}
			red, full := got[0], got[1]
			t.Logf("reduced: %s %s%s (%d states); without reduction: %s %s (%d states)", red.Status, red.Message, red.Reason, red.States, full.Status, full.Message, full.States)
			if full.Status != c.want || (c.want == Passed && len(full.Warnings) != 0) {
				t.Fatalf("without reduction: %s %q, warnings %q; want %s (and no warning if it passes)", full.Status, full.Message, full.Warnings, c.want)
			}
			crashes := c.o.Crashes > 0
			if warned := slices.ContainsFunc(red.Warnings, func(w string) bool { return strings.Contains(w, warning) }); warned != crashes {
				t.Errorf("with reduction: warnings %q; want the unless warning only with crashes", red.Warnings)
			}
			switch {
			case c.want == Failed && (red.Status != Failed || red.Message != full.Message):
				t.Errorf("with reduction: %s %q; want %q too", red.Status, red.Message, full.Message)
			case c.want == Passed && crashes && red.Status != Incomplete:
				t.Errorf("with reduction: %s; want incomplete for the warning", red.Status)
			case c.want == Passed && !crashes && red.Status != Passed:
				t.Errorf("with reduction: %s %s; want passed", red.Status, red.Reason)
			}
			switch {
			case crashes && red.States != full.States:
				t.Errorf("%d states reduced, %d without: the reduction prunes crash models, so checking them without it is not free", red.States, full.States)
			case !crashes && red.States >= full.States:
				t.Errorf("%d states reduced, %d without: the reduction does nothing even without crashes", red.States, full.States)
			}
			res, _, err := CheckAlgorithm(t.Context(), c.a, c.p, po, Quiescence, fast)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(res.CompileFlags, "-DNOREDUCE") != crashes || res.Status != c.want {
				t.Errorf("CheckAlgorithm: %s, flags %v; want %s, and -DNOREDUCE only with crashes", res.Status, res.CompileFlags, c.want)
			}
		})
	}
}
