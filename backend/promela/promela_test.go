package promela

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

func def(t *testing.T, name string) *ir.Algorithm {
	t.Helper()
	e, ok := templates.Lookup(name)
	if !ok {
		t.Fatalf("no catalogue entry %s", name)
	}
	return e.MustDef(templates.Options{Mode: mode.Mutex})
}

func build(t *testing.T, a *ir.Algorithm, n int, o Options) string {
	t.Helper()
	s, err := Model(a, ir.Params{N: n, K: 1}, o)
	if err != nil {
		t.Fatalf("Model(%s): %v", a.Name, err)
	}
	spinParses(t, s)
	return s
}

// spinParses runs spin -a on the model when spin is installed, so every
// model the tests build is also valid Promela.
func spinParses(t *testing.T, model string) {
	t.Helper()
	if _, err := exec.LookPath("spin"); err != nil {
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.pml"), []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("spin", "-a", "m.pml")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "Error") {
		t.Fatalf("spin -a rejects the model: %v\n%s\n%s", err, out, numbered(model))
	}
}

func numbered(s string) string {
	var b strings.Builder
	for i, l := range strings.Split(s, "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

// lines returns the model lines carrying the marker of op/label, or "".
func lines(model, op, label string) []string {
	var out []string
	for _, l := range strings.Split(model, "\n") {
		if strings.Contains(l, "/*@ "+op+"|"+label+"|") {
			out = append(out, l)
		}
	}
	return out
}

func code(l string) string {
	if i := strings.Index(l, "/*@"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// sharedAccesses returns the distinct shared locations one model line
// touches (registers and record fields, not ghosts or locals).
func sharedAccesses(a *ir.Algorithm, line string) []string {
	var names []string
	for _, s := range a.Shared {
		names = append(names, regexp.QuoteMeta(s.Name))
	}
	for _, r := range a.Records {
		for _, f := range r.Fields {
			names = append(names, regexp.QuoteMeta(r.Name+"_"+f.Name))
		}
	}
	if len(names) == 0 {
		return nil
	}
	re := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b(\[[^\]]*\])?`)
	seen := map[string]bool{}
	var out []string
	for _, m := range re.FindAllString(code(line), -1) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// oneAccessPerLine checks the atomicity rule: no emitted line (one Promela
// step, or the guard of one) touches two shared locations.
func oneAccessPerLine(t *testing.T, a *ir.Algorithm, model string) {
	t.Helper()
	for _, l := range strings.Split(model, "\n") {
		if !strings.Contains(l, "/*@") {
			continue
		}
		if acc := sharedAccesses(a, l); len(acc) > 1 {
			t.Errorf("line touches %d shared locations %v: %s", len(acc), acc, l)
		}
	}
}

func TestMCSStructure(t *testing.T) {
	a := def(t, "mcs")
	m := build(t, a, 3, Options{Checks: MutualExclusion})
	for _, want := range []string{
		"proctype Proc(byte lg_me)",
		"byte TAIL;",
		"byte QNode_next[3];", // one node per process, NIL = 0 outside
		"bool QNode_value[3];",
		"run Proc(0);", "run Proc(2);",
		"end_ncs:",
		"assert(g_ncs <= 1)",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	// Every paper line of fig. 11 is a Promela label, duplicates renamed.
	for _, l := range []string{"L1:", "L2:", "L3:", "L4:", "L5:", "L6:", "L7:", "L10:", "L11:", "L12:", "L13:", "L13_2:", "L14:", "L15:", "L16:"} {
		if !regexp.MustCompile(`(?m)^` + l).MatchString(m) {
			t.Errorf("label %s missing", l)
		}
	}
	// Line 3 is one atomic swap, line 13 one atomic CAS.
	if l := lines(m, "Acquire", "3"); len(l) != 1 || !strings.Contains(l[0], "atomic {") || !strings.Contains(l[0], "TAIL = previous") {
		t.Errorf("line 3 is not one atomic swap: %q", l)
	}
	if l := lines(m, "Release", "13"); len(l) == 0 || !strings.Contains(l[0], "atomic { if :: (TAIL == mynode) -> TAIL = NIL") {
		t.Errorf("line 13 is not one atomic CAS: %q", l)
	}
	// Awaits on one register are blocking guards.
	if l := lines(m, "Acquire", "7"); len(l) != 1 || code(l[0]) != "L7:\t\t\t(QNode_value[mynode-1] == true);" {
		t.Errorf("line 7: %q", l)
	}
	// Fields go through index r-1, so NIL dereferences are caught.
	if !strings.Contains(m, "QNode_next[previous-1] = mynode") {
		t.Error("line 6 does not index previous-1")
	}
	// mynode is the paper's NODE[i]: record i+1.
	if !strings.Contains(m, "mynode = (lg_me + 1)") {
		t.Error("mynode is not NODE[i]")
	}
	oneAccessPerLine(t, a, m)
}

func TestTicketCounters(t *testing.T) {
	a := def(t, "ticket")
	an := Analyze(a)
	for _, c := range []string{"NEXT", "NOW", "my"} {
		if !an.IsCounter(c) {
			t.Errorf("%s is not found unbounded (counters %v)", c, an.Counters)
		}
	}
	if !an.WrapSafe {
		t.Errorf("ticket counters should be wrap-safe: %s", an.WrapBlocker)
	}
	if _, err := Model(a, ir.Params{N: 2}, Options{}); err == nil || !strings.Contains(err.Error(), "NEXT") {
		t.Errorf("an infinite ticket model must be refused, naming the counters; got %v", err)
	}
	m := build(t, a, 3, Options{Passages: 2, Checks: MutualExclusion})
	if !strings.Contains(m, "(lg_pass < 2) -> lg_pass++") {
		t.Error("passages not bounded")
	}
	// T3: NOW := NOW + 1 is a read step, then a write step.
	t3 := lines(m, "Release", "T3")
	if len(t3) != 2 || !strings.Contains(t3[0], "= NOW;") || !strings.Contains(t3[1], "NOW = (lg_int0 + 1)") {
		t.Errorf("T3 is not read-then-write: %q", t3)
	}
	// T1 is one fetch&add.
	if t1 := lines(m, "Acquire", "T1"); len(t1) != 1 || !strings.Contains(t1[0], "NEXT = NEXT + 1") {
		t.Errorf("T1: %q", t1)
	}
	oneAccessPerLine(t, a, m)

	w := build(t, a, 3, Options{Wrap: 4, Checks: Starvation})
	if !strings.Contains(w, "% 4") || !strings.Contains(w, "ltl starvation") {
		t.Error("wrapped liveness model lacks the modulus or the claim")
	}
	if !strings.Contains(w, "(g_trying[2] -> <> g_incs[2])") {
		t.Error("starvation claim does not cover every process")
	}
}

// flat is a made-up algorithm exercising the flattening of multi-read
// expressions.
func flat() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "flat",
		Shared: []ir.Shared{
			{Name: "A", Type: ir.TInt},
			{Name: "B", Type: ir.TInt},
			{Name: "F", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }},
		},
		Locals: []ir.Local{{Name: "x", Type: ir.TInt}},
		Acquire: Code(
			Set("S1", "x", Plus(Read(Reg("A")), Read(Reg("B")))),
			Await("S2", And(Eq(Read(Reg("A")), Lit(0)), Eq(Read(Reg("B")), Lit(0)))),
			Await("S3", Or(Read(Elem("F", Lit(0))), Eq(Read(Reg("B")), Self))),
			Write("S4", Reg("A"), Read(Reg("B"))),
		),
		Release: Code(Write("S5", Reg("A"), Lit(0))),
	}
}

func TestFlattening(t *testing.T) {
	a := flat()
	m := build(t, a, 2, Options{})
	oneAccessPerLine(t, a, m)

	// S1: two reads, A then B, then the local sum.
	s1 := lines(m, "Acquire", "S1")
	if len(s1) != 3 || !strings.Contains(s1[0], "lg_int0 = A") || !strings.Contains(s1[1], "lg_int1 = B") ||
		!strings.Contains(s1[2], "x = (lg_int0 + lg_int1)") {
		t.Errorf("S1 not flattened in order:\n%s", strings.Join(s1, "\n"))
	}
	// S2: B is read only when A = 0 (short-circuit), inside a re-reading loop.
	s2 := strings.Join(lines(m, "Acquire", "S2"), "\n")
	ia, ib, ig := strings.Index(s2, "= A;"), strings.Index(s2, "= B;"), strings.Index(s2, ":: (lg_int0 == 0) ->")
	if ia < 0 || ib < 0 || ig < 0 || !(ia < ig && ig < ib) {
		t.Errorf("S2: B must be read after A and only under A = 0:\n%s", s2)
	}
	if !strings.Contains(s2, "do") || !strings.Contains(s2, "break") {
		t.Errorf("S2: a multi-read await must loop:\n%s", s2)
	}
	// S3: || evaluates B only when F[0] is false.
	s3 := strings.Join(lines(m, "Acquire", "S3"), "\n")
	if !strings.Contains(s3, ":: (!lg_bool0) ->") || !strings.Contains(s3, ":: else -> lg_bool1 = true;") {
		t.Errorf("S3: || not short-circuited:\n%s", s3)
	}
	// S4: A := B is a read of B, then a write of A.
	s4 := lines(m, "Acquire", "S4")
	if len(s4) != 2 || !strings.Contains(s4[0], "lg_int0 = B") || !strings.Contains(s4[1], "A = lg_int0") {
		t.Errorf("S4: %q", s4)
	}
	// Temporaries are reset once consumed.
	if !strings.Contains(s4[1], "lg_int0 = 0") {
		t.Errorf("S4 does not reset its temporary: %q", s4[1])
	}
}

func TestLabelsSanitised(t *testing.T) {
	a := &ir.Algorithm{
		Name:    "lbl",
		Shared:  []ir.Shared{{Name: "X", Type: ir.TInt}},
		Acquire: Code(Await("R7.1", Eq(Read(Reg("X")), Lit(0))), Write("R7.1", Reg("X"), Lit(1))),
		Release: Code(Write("9b", Reg("X"), Lit(0))),
	}
	m := build(t, a, 2, Options{})
	for _, l := range []string{"LR7_1:", "LR7_1_2:", "L9b:"} {
		if !strings.Contains(m, "\n"+l) {
			t.Errorf("label %s missing", l)
		}
	}
	if !strings.Contains(m, "/*@ Acquire|R7.1|await X = 0 */") {
		t.Error("marker does not carry the paper's label")
	}
}

// loops exercises For (with SkipSelf), While, Repeat, CAS/Swap/FetchAdd
// without results, Delay, and try-acquire with Succeed/Fail.
func loops() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "loops",
		Shared: []ir.Shared{
			{Name: "X", Type: ir.TInt},
			{Name: "F", Type: ir.TBool, Len: func(p ir.Params) int { return p.N },
				Init: func(p ir.Params, i int) int64 { return int64(i % 2) }},
		},
		Locals: []ir.Local{{Name: "ok", Type: ir.TBool}, {Name: "v", Type: ir.TInt}},
		Acquire: Code(
			Write("1", Elem("F", Self), True),
			ForOthers("2", "j", Lit(0), Minus(N, Lit(1)),
				Await("3", Not(Read(Elem("F", Var("j")))))),
			BusyRepeat("4", Var("ok"), CAS("5", "ok", Reg("X"), Lit(0), Plus(Self, Lit(1)))),
			While("6", And(Eq(Read(Reg("X")), Lit(7)), Read(Elem("F", Lit(0)))), Delay("7", "delta")),
		),
		Release: Code(
			Swap("8", "", Reg("X"), Lit(0)),
			CAS("9", "", Reg("X"), Lit(5), Lit(0)),
			FetchAdd("10", "", Reg("X"), Lit(0)),
			Write("11", Elem("F", Self), False),
		),
		TryAcquire: Code(
			Set("T1", "v", Read(Reg("X"))),
			If("T2", Ne(Var("v"), Lit(0)), Fail("T2")),
			CAS("T3", "ok", Reg("X"), Lit(0), Plus(Self, Lit(1))),
			If("T4", Var("ok"), Write("T5", Elem("F", Self), True), Succeed("T5")),
			Fail("T6"),
		),
	}
}

func TestLoopsAndTry(t *testing.T) {
	a := loops()
	if err := ir.Check(a); err != nil {
		t.Fatal(err)
	}
	p := ir.Params{N: 3, K: 1, Extra: map[string]int64{"delta": 1000}}
	lw, err := Lower(a, p, Options{TryAcquire: true, Checks: MutualExclusion, Bound: 8})
	if err != nil {
		t.Fatal(err)
	}
	m := lw.Text
	spinParses(t, m)
	oneAccessPerLine(t, a, m)
	for _, want := range []string{
		"(j != lg_me) ->", // SkipSelf
		"goto lg_cs;", "goto lg_end;",
		"lg_cs:", "lg_end:",
		"F[1] = 1", // non-uniform initial values set in init
	} {
		if !strings.Contains(m, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	if l := lines(m, "Acquire", "7"); len(l) != 1 || !strings.Contains(l[0], "skip;") {
		t.Errorf("delay is not a plain step: %q", l)
	}
	found := false
	for _, n := range lw.Notes {
		found = found || strings.Contains(n, "delay")
	}
	if !found {
		t.Errorf("notes do not mention the delay: %v", lw.Notes)
	}
	b := flat()
	b.Release = append(b.Release, Write("S9", Reg("A"), Param("m")))
	if _, err := Model(b, ir.Params{N: 2, K: 1}, Options{}); err == nil || !strings.Contains(err.Error(), "parameter m") {
		t.Errorf("a missing parameter must be an error, got %v", err)
	}
}

func TestModes(t *testing.T) {
	a := def(t, "mcs")
	k := build(t, a, 3, Options{Mode: mode.KExclusion, Checks: MutualExclusion})
	if !strings.Contains(k, "assert(g_ncs <= 1)") {
		t.Error("k-exclusion with k = 1 asserts occupancy <= 1")
	}
	m, err := Model(a, ir.Params{N: 3, K: 2}, Options{Mode: mode.KExclusion, Checks: MutualExclusion})
	if err != nil || !strings.Contains(m, "assert(g_ncs <= 2)") {
		t.Errorf("k = 2: %v", err)
	}
	if _, err := Model(a, ir.Params{N: 3}, Options{Mode: mode.RW, Readers: 2, Writers: 1}); err == nil {
		t.Error("rw mode without reader operations must be refused")
	}
	rw := flat()
	rw.RAcquire = Code(Await("R1", Eq(Read(Reg("A")), Lit(0))))
	rw.RRelease = Code(Write("R2", Reg("B"), Lit(0)))
	s := build(t, rw, 3, Options{Mode: mode.RW, Readers: 2, Writers: 1, Checks: MutualExclusion | Starvation})
	for _, want := range []string{"proctype Writer(byte lg_me)", "proctype Reader(byte lg_me)", "run Writer(0);", "run Reader(1);", "run Reader(2);",
		"assert(g_nw == 0 && g_nr == 0)", "assert(g_nw == 0)", "ltl starvation"} {
		if !strings.Contains(s, want) {
			t.Errorf("rw model lacks %q", want)
		}
	}
}

func TestFIFOInstrumentation(t *testing.T) {
	a := def(t, "mcs")
	m := build(t, a, 3, Options{Checks: FIFO})
	if !strings.Contains(m, "g_ahead[lg_me] = g_dw") || !strings.Contains(m, "assert(g_ahead[lg_me] == 0)") {
		t.Error("FIFO ghosts missing")
	}
	// The doorway's end is folded into line 3's atomic swap.
	if l := lines(m, "Acquire", "3"); len(l) != 1 || !strings.Contains(l[0], "g_dw = g_dw | (1 << lg_me)") {
		t.Errorf("doorway end not recorded at line 3: %q", l)
	}
	s := build(t, a, 3, Options{Checks: StrongFIFO})
	if l := lines(s, "Acquire", "3"); len(l) != 1 || !strings.Contains(l[0], "g_ahead[lg_me] = g_dw;") {
		t.Errorf("strong FIFO snapshot not at line 3: %q", l)
	}
	noDoor := flat()
	if _, err := Model(noDoor, ir.Params{N: 2}, Options{Checks: FIFO}); err == nil {
		t.Error("FIFO without DoorwayEnd must be refused")
	}
}

func TestRefusals(t *testing.T) {
	a := flat()
	a.Shared = append(a.Shared, ir.Shared{Name: "C", Type: ir.TInt})
	a.Release = append(a.Release, Write("S6", Reg("C"), Plus(Read(Reg("C")), Lit(1))),
		Await("S7", Lt(Read(Reg("C")), Lit(100))))
	an := Analyze(a)
	if !an.IsCounter("C") || an.WrapSafe {
		t.Fatalf("C should be an unbounded counter that cannot wrap (compared with <): %+v", an)
	}
	if _, err := Model(a, ir.Params{N: 2}, Options{Wrap: 3}); err == nil || !strings.Contains(err.Error(), "<") {
		t.Errorf("wrapping a counter compared with < must be refused: %v", err)
	}
	if _, err := Model(a, ir.Params{N: 2}, Options{Checks: Starvation | DeadlockFreedom, Passages: 1}); err == nil {
		t.Error("two LTL claims in one model must be refused")
	}
	// Bounded arithmetic is not a counter.
	b := flat()
	b.Locals = append(b.Locals, ir.Local{Name: "j1", Type: ir.TInt})
	b.Release = append(b.Release, Set("S8", "j1", Mod(Plus(Self, Lit(1)), N)))
	if an := Analyze(b); len(an.Counters) != 0 {
		t.Errorf("(i+1) mod n is bounded, got counters %v", an.Counters)
	}
}

// Victims restricts the crasher's pick and is refused where it would
// mean nothing or leave the crasher no live process to pick.
func TestCrashVictims(t *testing.T) {
	a := flat()
	s, err := Model(a, ir.Params{N: 3}, Options{Crashes: 1, Victims: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	spinParses(t, s)
	for i, want := range []bool{false, false, true} {
		if got := strings.Contains(s, fmt.Sprintf("!g_dead[%d] -> g_victim = %d", i, i)); got != want {
			t.Errorf("the crasher may pick process %d: %v, want %v", i, got, want)
		}
	}
	// The safety (quiescence) form crashes its victim by rendezvous.
	q, err := Model(a, ir.Params{N: 3}, Options{Crashes: 1, Victims: []int{2}, Checks: Quiescence, Passages: 1})
	if err != nil {
		t.Fatal(err)
	}
	spinParses(t, q)
	for i, want := range []bool{false, false, true} {
		if got := strings.Contains(q, fmt.Sprintf(":: g_crash[%d]!1", i)); got != want {
			t.Errorf("quiescence: the crasher may crash process %d: %v, want %v", i, got, want)
		}
	}
	for _, o := range []Options{
		{Victims: []int{0}},
		{Crashes: 2, Victims: []int{1}},
		{Crashes: 1, Victims: []int{}},
		{Crashes: 1, Victims: []int{3}},
		{Crashes: 2, Victims: []int{1, 1}},
	} {
		if _, err := Model(a, ir.Params{N: 3}, o); err == nil || !strings.Contains(err.Error(), "victims") {
			t.Errorf("crashes %d, victims %v: %v, want a refusal", o.Crashes, o.Victims, err)
		}
	}
}

// In the safety (quiescence) form a crash is one step: the crasher's
// rendezvous with its victim, whose escape runs in the same atomic step,
// so that no state has a crash picked and not yet taken; and the crasher,
// which no fairness obliges to move, has no way to stop crashing that
// would copy the crash-free states. Two crashes are two choices in turn.
// The liveness form, under weak fairness, keeps the victim flag, since
// SPIN's partial order reduction refuses rendezvous with fairness.
func TestCrashRendezvous(t *testing.T) {
	a := flat()
	q, err := Model(a, ir.Params{N: 3}, Options{Crashes: 2, Checks: Quiescence, Passages: 1})
	if err != nil {
		t.Fatal(err)
	}
	spinParses(t, q)
	crasher := q[strings.Index(q, "proctype "+CrasherRole):]
	crasher = crasher[:strings.Index(crasher, "\n}")]
	for _, want := range []string{"end_crash1:", "end_crash2:", ":: g_crash[0]!1", ":: g_crash[2]!1", "unless { atomic { g_crash[lg_me]?_ -> g_dead[lg_me] = 1;"} {
		if !strings.Contains(q, want) {
			t.Errorf("quiescence form: no %q in the model", want)
		}
	}
	for _, unwanted := range []string{"break", "goto", "skip", "g_victim"} {
		if strings.Contains(crasher, unwanted) {
			t.Errorf("quiescence form: the crasher has %q:\n%s", unwanted, crasher)
		}
	}
	if strings.Contains(q, "g_victim") {
		t.Errorf("quiescence form: the model still has the victim flag")
	}
	l, err := Model(a, ir.Params{N: 3}, Options{Crashes: 1, Checks: DeadlockFreedom})
	if err != nil {
		t.Fatal(err)
	}
	spinParses(t, l)
	if strings.Contains(l, "chan g_crash") || !strings.Contains(l, "unless { atomic { g_victim == lg_me ->") {
		t.Errorf("liveness form: want the victim flag, not a rendezvous")
	}
}

func TestCatalogueLowers(t *testing.T) {
	// Every catalogue algorithm lowers (and parses) for each instrumentation.
	for _, e := range templates.All() {
		if e.SupportsMode(mode.RW) {
			for _, pref := range e.Preferences {
				a := e.MustDef(templates.Options{Mode: mode.RW, Preference: pref})
				o := Options{Mode: mode.RW, Writers: 1, Readers: 2, Checks: MutualExclusion, Passages: 2}
				s, err := Model(a, ir.Params{N: 3, K: 1}, o)
				if err != nil {
					// The only refusal allowed: constants too wide for Promela.
					if !strings.Contains(err.Error(), "does not fit") {
						t.Errorf("%s (%s): %v", e.Name, pref, err)
					}
					t.Logf("%s (%s) refused: %v", e.Name, pref, err)
					continue
				}
				spinParses(t, s)
				oneAccessPerLine(t, a, s)
			}
		}
		if !e.SupportsMode(mode.Mutex) {
			continue
		}
		a := e.MustDef(templates.Options{Mode: mode.Mutex})
		extra := map[string]int64{}
		for _, ps := range e.Params {
			extra[ps.Key] = ps.Default
		}
		for _, c := range []Check{0, MutualExclusion, Starvation} {
			o := Options{Checks: c}
			if len(Analyze(a).Counters) > 0 {
				o.Passages = 2
			}
			n := 3
			if e.MaxProcs > 0 && n > e.MaxProcs {
				n = e.MaxProcs
			}
			s, err := Model(a, ir.Params{N: n, K: 1, Extra: extra}, o)
			if err != nil {
				t.Errorf("%s: %v", e.Name, err)
				continue
			}
			spinParses(t, s)
			oneAccessPerLine(t, a, s)
		}
	}
}
