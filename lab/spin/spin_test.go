package spin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// The integration tests need spin and gcc; they are skipped, saying so,
// when either is missing. `go test ./lab/spin/` runs the n = 2, 3
// checks and the negative controls; LOCKGEN_SPIN_LONG=1 adds n = 4 (MCS
// starvation freedom at n = 4 alone takes minutes).

func needSpin(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("skipping SPIN integration test: %v", err)
	}
}

func long() bool { return os.Getenv("LOCKGEN_SPIN_LONG") != "" }

// fast are run options for the tests' small models: gcc -O0 compiles in
// a fraction of -O2's time, and these searches take milliseconds.
var fast = Options{Optimize: "-O0", HashBits: 20, Timeout: 2 * time.Minute, MemLimitMB: 2048}

func entryDef(t *testing.T, name string) *ir.Algorithm {
	t.Helper()
	return entryDefIn(t, name, mode.Mutex)
}

// entryDefIn is a catalogue entry's definition in mode m.
func entryDefIn(t *testing.T, name string, m mode.Mode) *ir.Algorithm {
	t.Helper()
	e, ok := templates.Lookup(name)
	if !ok {
		t.Fatalf("no entry %s", name)
	}
	return e.MustDef(templates.Options{Mode: m})
}

func TestCatalogueLocksPass(t *testing.T) {
	needSpin(t)
	sizes := []int{2, 3}
	if long() {
		sizes = []int{2, 3, 4}
	}
	for _, name := range []string{"ticket", "mcs"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := fast
			if long() {
				run = Options{} // the suite picks -O2 and a big hash table for n = 4
				run.Timeout = 30 * time.Minute
			}
			rep, err := CheckEntry(context.Background(), name, SuiteOptions{Sizes: sizes, Run: run, Log: func(s string) { t.Log(s) }})
			if err != nil {
				t.Fatal(err)
			}
			e, _ := templates.Lookup(name)
			want := len(StandardProperties(e, templates.Options{Mode: mode.Mutex})) * len(sizes)
			if len(rep.Runs) != want {
				t.Fatalf("%d runs, want %d", len(rep.Runs), want)
			}
			seen := map[Property]bool{}
			for _, r := range rep.Runs {
				seen[r.Property] = true
				if r.Result.Status != Passed {
					t.Errorf("%s n=%d %s: %s %s %s\n%s", name, r.N, r.Property, r.Result.Status, r.Result.Reason, r.Result.Message,
						TrailText(Condense(r.Result.Trail)))
				}
				if (r.Result.States == 0 && r.Shared == "") || r.Coverage == "" {
					t.Errorf("%s n=%d %s: no states or no coverage", name, r.N, r.Property)
				}
			}
			for _, p := range []Property{MutualExclusion, Deadlock, Starvation, FIFO} {
				if !seen[p] {
					t.Errorf("%s: property %s not checked", name, p)
				}
			}
			t.Logf("\n%s", rep)
		})
	}
}

// without returns code with every statement labelled label (at any depth)
// of type like's dropped: the test's stand-in for the mutation engine.
func without(code ir.Code, label string, like ir.Stmt) ir.Code {
	out := ir.Code{}
	for _, s := range code {
		if s.Label() == label && sameKind(s, like) {
			continue
		}
		switch x := s.(type) {
		case ir.If:
			x.Then, x.Else = without(x.Then, label, like), without(x.Else, label, like)
			if len(x.Else) == 0 {
				x.Else = nil
			}
			s = x
		case ir.While:
			x.Body = without(x.Body, label, like)
			s = x
		case ir.Repeat:
			x.Body = without(x.Body, label, like)
			s = x
		case ir.For:
			x.Body = without(x.Body, label, like)
			s = x
		}
		out = append(out, s)
	}
	return out
}

func sameKind(a, b ir.Stmt) bool {
	switch a.(type) {
	case ir.Await:
		_, ok := b.(ir.Await)
		return ok
	case ir.Write:
		_, ok := b.(ir.Write)
		return ok
	}
	return false
}

// check is runModel that also logs the condensed trail.
func check(t *testing.T, a *ir.Algorithm, n int, o promela.Options, prop Property) Result {
	t.Helper()
	res := runModel(t, a, n, o, prop)
	t.Logf("%s n=%d %s: %s %s (%d states)\n%s", a.Name, n, prop, res.Status, res.Message, res.States,
		trailText(Condense(res.Trail), res.Stuck))
	return res
}

func wantFailure(t *testing.T, res Result, kind string, labels ...string) {
	t.Helper()
	if res.Status != Failed {
		t.Fatalf("status %s (%s), want a %s", res.Status, res.Reason, kind)
	}
	if res.Failure != kind {
		t.Errorf("failure %q (%s), want %q", res.Failure, res.Message, kind)
	}
	if len(res.Trail) == 0 {
		t.Error("no trail")
	}
	for _, l := range labels {
		if !res.Mentions(l) {
			t.Errorf("the counterexample does not name paper line %s; labels seen: %v", l, Labels(append(res.Trail, res.Stuck...)))
		}
	}
}

// MCS without line 14: a releaser that lost the CAS race at line 13 reads
// its successor before the successor has linked itself, and follows nil.
func TestNegativeMCSWithoutLine14(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "mcs")
	a.Release = without(a.Release, "14", ir.Await{})
	res := check(t, a, 2, promela.Options{Checks: promela.MutualExclusion}, MutualExclusion)
	wantFailure(t, res, "invalid array index", "13", "15")
}

// The ticket lock without its release: the second process waits at T2
// for ever while the first has gone home.
func TestNegativeTicketWithoutRelease(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "ticket")
	a.Release = without(a.Release, "T3", ir.Write{})
	if len(a.Release) != 0 {
		t.Fatalf("release still has %d statements", len(a.Release))
	}
	res := check(t, a, 2, promela.Options{Passages: 2}, Deadlock)
	wantFailure(t, res, "invalid end state", "T1", "T2")
	if len(res.Stuck) == 0 || res.Stuck[0].Label != "T2" {
		t.Errorf("stuck processes %v, want one at T2", res.Stuck)
	}
	// Liveness sees the same, as a process trying for ever.
	live := check(t, a, 2, promela.Options{Passages: 2, Checks: promela.Starvation}, Starvation)
	wantFailure(t, live, "acceptance cycle", "T1")
}

// testThenSet is a test-and-set lock built from a separate load and store:
// both processes can read L = false before either writes it.
func testThenSet() *ir.Algorithm {
	return &ir.Algorithm{
		Name:   "test-then-set",
		Shared: []ir.Shared{{Name: "L", Type: ir.TBool}},
		Locals: []ir.Local{{Name: "busy", Type: ir.TBool}},
		Acquire: Code(
			BusyRepeat("A1", Not(Var("busy")), Set("A1", "busy", Read(Reg("L")))),
			Write("A2", Reg("L"), True),
		),
		Release: Code(Write("R1", Reg("L"), False)),
	}
}

func TestNegativeTestThenSet(t *testing.T) {
	needSpin(t)
	t.Parallel()
	res := check(t, testThenSet(), 2, promela.Options{Checks: promela.MutualExclusion}, MutualExclusion)
	wantFailure(t, res, "assertion violated", "A1", "A2")
	if !strings.Contains(res.Message, "g_ncs") {
		t.Errorf("the violated assertion is not the occupancy one: %s", res.Message)
	}
}

// barging is a correct test-and-set lock (CAS) that claims FIFO with a
// doorway that orders nothing: a late process can win the CAS first.
func barging() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "barging",
		Shared: []ir.Shared{
			{Name: "L", Type: ir.TBool},
			{Name: "WANT", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }},
		},
		Locals: []ir.Local{{Name: "ok", Type: ir.TBool}},
		Acquire: Code(
			Write("D1", Elem("WANT", Self), True),
			BusyRepeat("A1", Var("ok"), CAS("A1", "ok", Reg("L"), False, True)),
		),
		Release: Code(
			Write("R1", Elem("WANT", Self), False),
			Write("R2", Reg("L"), False),
		),
		DoorwayEnd: "D1",
	}
}

func TestNegativeFIFO(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := barging()
	// Mutual exclusion holds: only the order is wrong.
	if res := check(t, a, 3, promela.Options{Checks: promela.MutualExclusion}, MutualExclusion); res.Status != Passed {
		t.Fatalf("barging lock should be mutually exclusive: %s %s", res.Status, res.Message)
	}
	res := check(t, a, 3, promela.Options{Checks: promela.FIFO}, FIFO)
	wantFailure(t, res, "assertion violated", "D1", "A1")
	if !strings.Contains(res.Message, "g_ahead") {
		t.Errorf("the violated assertion is not the FIFO one: %s", res.Message)
	}
}

// Fischer's lock has no time in the model: delay(Δ) is a plain step and
// mutual exclusion fails, as it can in Go.
func TestFischerFailsWithoutTime(t *testing.T) {
	needSpin(t)
	t.Parallel()
	rep, err := CheckEntry(context.Background(), "fischer", SuiteOptions{Sizes: []int{2}, Properties: []Property{MutualExclusion}, Run: fast})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if r.Result.Status != Failed || r.Result.Failure != "assertion violated" {
		t.Fatalf("fischer: %s %s, want a mutual exclusion failure", r.Result.Status, r.Result.Message)
	}
	if !strings.Contains(r.Coverage, "delay") {
		t.Errorf("coverage does not say delay is a plain step: %s", r.Coverage)
	}
}

// Wrapping the ticket counters is sound for liveness; the wrapped model of
// a broken ticket lock (NOW advanced by 2) still fails.
func TestTicketWrapCatchesSkippedTicket(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "ticket")
	a.Release = Code(Write("T3", Reg("NOW"), Plus(Read(Reg("NOW")), Lit(2))))
	res := check(t, a, 2, promela.Options{Passages: 2}, Deadlock)
	wantFailure(t, res, "invalid end state", "T2")
}

func TestBoundExceededIsIncomplete(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "ticket")
	m, err := promela.Model(a, ir.Params{N: 2, K: 1}, promela.Options{Bound: 8, Checks: promela.MutualExclusion})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), m, MutualExclusion, fast)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || !res.BoundExceeded {
		t.Fatalf("ticket with counters bounded by 8: %s %s, want incomplete (bound exceeded)", res.Status, res.Message)
	}
}

func TestCancellationStopsSearch(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "mcs")
	m, err := promela.Model(a, ir.Params{N: 5, K: 1}, promela.Options{Checks: promela.Starvation})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	res, err := Check(ctx, m, Starvation, Options{Optimize: "-O0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || !strings.Contains(res.Reason, "time budget") {
		t.Fatalf("status %s (%s), want incomplete for the time budget", res.Status, res.Reason)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestMissingToolchain(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Check(context.Background(), "init { skip }", MutualExclusion, Options{})
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "apt-get install -y spin") {
		t.Fatalf("err = %v, want ErrNotInstalled with install instructions", err)
	}
}

func TestModelRejected(t *testing.T) {
	needSpin(t)
	t.Parallel()
	_, err := Check(context.Background(), "init { this is not promela }", MutualExclusion, fast)
	if err == nil || !strings.Contains(err.Error(), "spin rejected") {
		t.Fatalf("err = %v, want spin's rejection", err)
	}
}

func TestTrailNamesLabels(t *testing.T) {
	needSpin(t)
	t.Parallel()
	res := check(t, testThenSet(), 2, promela.Options{Checks: promela.MutualExclusion}, MutualExclusion)
	if res.Status != Failed {
		t.Fatal("test-then-set passed")
	}
	var enters int
	for _, s := range res.Trail {
		if s.Proc < 0 || s.Proc > 1 {
			t.Errorf("step of process %d", s.Proc)
		}
		if s.Op == "CS" && strings.Contains(s.Stmt, "enter") {
			enters++
		}
	}
	if enters < 2 {
		t.Errorf("the trail shows %d entries to the critical section, want 2:\n%s", enters, TrailText(res.Trail))
	}
	text := TrailText(res.Trail)
	for _, want := range []string{"Acquire line A1", "Acquire line A2: L := true", "enter the critical section"} {
		if !strings.Contains(text, want) {
			t.Errorf("trail text lacks %q:\n%s", want, text)
		}
	}
}

// exclusionModel is the mutual-exclusion model of a catalogue entry at
// n = 2.
func exclusionModel(t *testing.T, name string) string {
	t.Helper()
	m, err := promela.Model(entryDef(t, name), ir.Params{N: 2, K: 1}, promela.Options{Checks: promela.MutualExclusion})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDepthTruncationIsIncomplete(t *testing.T) {
	needSpin(t)
	t.Parallel()
	m := exclusionModel(t, "mcs")
	o := fast
	o.MaxDepth = 10 // the search needs about 120; the retry tries 100
	res, err := Check(context.Background(), m, MutualExclusion, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Incomplete || !strings.Contains(res.Reason, "depth") {
		t.Fatalf("status %s (%s), want incomplete for the depth bound", res.Status, res.Reason)
	}
	o.MaxDepth = 20 // the retry at 200 completes
	if res, err := Check(context.Background(), m, MutualExclusion, o); err != nil || res.Status != Passed {
		t.Fatalf("with a retry deep enough: %v %s %s", err, res.Status, res.Reason)
	}
}

// The standard suite covers try-acquires: a ticket lock whose TryLock
// writes NEXT instead of CAS-ing it lets a try enter beside a holder.
func TestNegativeTicketTryWithoutCAS(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := entryDef(t, "ticket")
	a.TryAcquire = ir.Code{
		a.TryAcquire[0], // TT1: now := NOW
		ir.Write{At: ir.At{L: "TT2"}, To: ir.Var{Name: "NEXT"}, Val: ir.Bin{Op: ir.Add, X: ir.LocalRef{Name: "now"}, Y: ir.Const{V: 1}}},
	}
	rep, err := CheckEntry(context.Background(), "ticket", SuiteOptions{Sizes: []int{2}, Properties: []Property{MutualExclusion}, Def: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 {
		t.Fatalf("runs = %d", len(rep.Runs))
	}
	wantFailure(t, rep.Runs[0].Result, "assertion violated", "TT2")
}

// The black-white bakery's numbers (its catalogue note): the paper bounds
// every number by n, but at n = 3 the model of this transcription takes a
// number past 64, because line 3 reads MYCOLOR[j] and NUMBER[j] as two
// steps. With each pair read in one step (the model edited here, as the IR
// has no such read) every number stays within n = 3 in every reachable
// state. The entry therefore claims bounded registers for n ≤ 2 only; when
// this test fails, the transcription or the lowering changed and the note
// must be revisited. It also checks that a run leaving the bound comes
// with the trail that shows how.
func TestBlackWhiteBakeryNumbersAtThree(t *testing.T) {
	needSpin(t)
	t.Parallel()
	e, _ := templates.Lookup("black-white-bakery")
	if e.Props.BoundedRegistersUpTo >= 3 {
		t.Fatalf("the entry claims bounded registers up to n = %d, which this test refutes", e.Props.BoundedRegistersUpTo)
	}
	a := entryDef(t, "black-white-bakery")
	model := func(bound int) string {
		m, err := promela.Model(a, ir.Params{N: 3, K: 1}, promela.Options{Bound: bound, Checks: promela.MutualExclusion})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	check := func(m string) Result {
		res, err := Check(context.Background(), m, MutualExclusion, Options{Timeout: 2 * time.Minute, Optimize: "-O2"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := check(model(64))
	if !res.BoundExceeded || len(res.Trail) == 0 {
		t.Fatalf("as transcribed: %s %s %s (trail of %d steps), want the counter bound 64 exceeded, with a trail", res.Status, res.Message, res.Reason, len(res.Trail))
	}
	t.Logf("as transcribed: %s after %d states; trail of %d steps", res.Message, res.States, len(res.Trail))
	if res := check(pairReads(t, model(3))); res.Status != Passed || res.BoundExceeded {
		t.Fatalf("line 3 reading each pair in one step: %s %s %s, want every number within 3", res.Status, res.Message, res.Reason)
	}
}

// pairReads rewrites the black-white bakery's model so that line 3 reads
// MYCOLOR[j] and, if it matches, NUMBER[j] in one atomic step.
func pairReads(t *testing.T, m string) string {
	t.Helper()
	start := strings.Index(m, "L3_3:")
	end := strings.Index(m, "\t\t\tj++;\t/*@ Acquire|3|")
	if start < 0 || end < start || !strings.Contains(m[start:end], "(MYCOLOR[j] == mc) ->") || !strings.Contains(m[start:end], "t = NUMBER[j]") {
		t.Fatalf("line 3's loop body is no longer where this test expects it:\n%s", m)
	}
	return m[:start] + "L3_3:\tatomic { if :: (MYCOLOR[j] == mc) -> t = NUMBER[j] :: else -> t = 0 fi };\n" +
		"\t\t\tif :: (t > mine) -> mine = t :: else fi;\n" + m[end:]
}

func TestCounterexampleShowsTheEnd(t *testing.T) {
	var res Result
	for i := range 5 {
		res.Trail = append(res.Trail, Step{Proc: i % 2, Label: fmt.Sprint(i), Stmt: fmt.Sprintf("x := %d", i)})
	}
	res.Stuck = []Step{{Proc: 1, Label: "9", Stmt: "await x = 9"}}
	all, end := Counterexample(res, 0), Counterexample(res, 2)
	for _, want := range []string{"x := 0", "x := 4", "stuck:", "await x = 9"} {
		if !strings.Contains(all, want) {
			t.Errorf("whole counterexample lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(end, "x := 2") || !strings.Contains(end, "x := 4") || !strings.Contains(end, "3 earlier steps not shown") || !strings.Contains(end, "stuck:") {
		t.Errorf("the last 2 steps:\n%s", end)
	}
}

// Bounded waiting: each claimed bound holds at n = 3 (with TryLock mixed
// in where the entry claims it for tries too), and is tight there: one
// less fails, so the check would notice a lock that lets one more entry
// through.
func TestBoundedWaitingIsTight(t *testing.T) {
	needSpin(t)
	for _, name := range []string{"eisenberg-mcguire", "knuth", "debruijn"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := templates.Lookup(name)
			const n = 3
			bound := e.Props.Overtakes(n)
			a := entryDef(t, name)
			po := promela.Options{Checks: promela.BoundedWaiting, TryAcquire: !e.Props.OvertakesAcquireOnly}
			po.Overtakes = bound
			if res := runModel(t, a, n, po, BoundedWaiting); res.Status != Passed {
				t.Fatalf("bound %d at n = %d: %s %s %s", bound, n, res.Status, res.Message, res.Reason)
			}
			po.Overtakes = bound - 1
			res := runModel(t, a, n, po, BoundedWaiting)
			if res.Status != Failed || !strings.Contains(res.Message, "g_ovt") || !res.Mentions("L0") {
				t.Fatalf("bound %d at n = %d: %s %s, want the g_ovt assertion violated with a trail through L0", bound-1, n, res.Status, res.Message)
			}
		})
	}
}

// de Bruijn's bound is claimed for Lock only (its catalogue note): with
// TryLock calls mixed in, a process is overtaken more than 10 times at
// n = 3. When this test fails, the claim may cover TryLock too.
func TestDeBruijnTryLockVoidsBound(t *testing.T) {
	needSpin(t)
	t.Parallel()
	e, _ := templates.Lookup("debruijn")
	if !e.Props.OvertakesAcquireOnly {
		t.Fatal("the entry claims its bound with TryLock too, which this test refutes")
	}
	res := runModel(t, entryDef(t, "debruijn"), 3, promela.Options{Checks: promela.BoundedWaiting, Overtakes: 10, TryAcquire: true}, BoundedWaiting)
	if res.Status != Failed || !strings.Contains(res.Message, "g_ovt") {
		t.Fatalf("%s %s, want more than 10 overtakings", res.Status, res.Message)
	}
}

// runModel checks one model without logging its trail (these run to
// thousands of steps).
func runModel(t *testing.T, a *ir.Algorithm, n int, o promela.Options, prop Property) Result {
	t.Helper()
	if err := ir.Check(a); err != nil {
		t.Fatal(err)
	}
	m, err := promela.Model(a, ir.Params{N: n, K: 1}, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), m, prop, fast)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Writer priority bites: the writer-preference lock passes it, and fails
// it without the reader's deference to requesting writers (R1), as does
// the reader-preference lock, which never claims it.
func TestWriterPriority(t *testing.T) {
	needSpin(t)
	t.Parallel()
	e, _ := templates.Lookup("mcs-rw")
	po := promela.Options{Mode: mode.RW, Writers: 1, Readers: 1, Checks: promela.WriterPriority, Passages: 3}
	writer := e.MustDef(templates.Options{Mode: mode.RW, Preference: templates.WriterPref})
	if res := runModel(t, writer, 2, po, WriterPriority); res.Status != Passed {
		t.Fatalf("writer preference: %s %s %s", res.Status, res.Message, res.Reason)
	}
	noDefer := *writer
	noDefer.RAcquire = writer.RAcquire[1:] // drop R1
	reader := e.MustDef(templates.Options{Mode: mode.RW, Preference: templates.ReaderPref})
	reader.DoorwayEnd = "W1" // its one-line acquire, as the request
	for name, a := range map[string]*ir.Algorithm{"writer preference without R1": &noDefer, "reader preference": reader} {
		res := runModel(t, a, 2, po, WriterPriority)
		if res.Status != Failed || !strings.Contains(res.Message, "g_ahead") || !res.Mentions("W1") {
			t.Errorf("%s: %s %s, want the writer-priority assertion violated after W1", name, res.Status, res.Message)
		}
	}
	if e.PropsFor(templates.Options{Mode: mode.RW, Preference: templates.ReaderPref}).WriterPriority ||
		e.PropsFor(templates.Options{Mode: mode.RW, Preference: templates.FairPref}).WriterPriority {
		t.Error("only the writer-preference lock claims writer priority")
	}
}

// A lone writer never meets another, so without the second model (2
// writers and 1 reader at n = 3) SPIN cannot see writers overtake each
// other. Without W2 a writer no longer waits for those that requested
// before it; in SPIN's trail one writer enters twice while an earlier
// requester waits at W3, and the completions it counts (WCOMP) let the
// reader through R1 ahead of that earlier writer. One writer with two
// readers passes this mutant; the default split catches it and names the
// model that did.
func TestSecondWriterCatchesWriterOrder(t *testing.T) {
	needSpin(t)
	t.Parallel()
	e, _ := templates.Lookup("mcs-rw")
	a := e.MustDef(templates.Options{Mode: mode.RW, Preference: templates.WriterPref})
	if a.Acquire[1].Label() != "W2" {
		t.Fatalf("the writer's second step is %s, want W2's await", a.Acquire[1].Label())
	}
	noW2 := *a
	noW2.Acquire = slices.Delete(slices.Clone(a.Acquire), 1, 2)
	check := func(writers, readers int) Result {
		t.Helper()
		po := promela.Options{Mode: mode.RW, Writers: writers, Readers: readers, Checks: promela.WriterPriority, Passages: 3}
		res, _, err := CheckAlgorithm(context.Background(), &noW2, ir.Params{N: 3, K: 1}, po, WriterPriority, fast)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := check(1, 2); res.Status != Passed {
		t.Fatalf("1 writer and 2 readers: %s %s %s, want a pass (the hole the second model closes)", res.Status, res.Message, res.Reason)
	}
	res := check(0, 0)
	if res.Status != Failed || !strings.Contains(res.Message, "g_ahead") || !strings.Contains(res.Message, "2 writers and 1 reader") {
		t.Fatalf("default split: %s %q %s, want the writer-priority assertion violated with 2 writers and 1 reader", res.Status, res.Message, res.Reason)
	}
	if res := check(2, 1); res.Status != Failed {
		t.Fatalf("2 writers and 1 reader: %s %s %s, want a failure", res.Status, res.Message, res.Reason)
	}
}

// A parameter that puts the model beyond the budget (the anonymous
// algorithm's memory = 11 at n = 2) gives no verdict; with Reduce the
// property is checked again with the smallest valid memory, and the run
// says so.
func TestReduceChecksSmallestParameters(t *testing.T) {
	needSpin(t)
	t.Parallel()
	so := SuiteOptions{Sizes: []int{2}, Properties: []Property{MutualExclusion}, Extra: map[string]int64{"memory": 11},
		Run: Options{Optimize: "-O0", HashBits: 20, Timeout: time.Minute, MemLimitMB: 256}}
	rep, err := CheckEntry(context.Background(), "anonymous", so)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Runs[0]; r.Result.Status != Incomplete || r.Reduced != "" {
		t.Fatalf("memory = 11 without Reduce: %s (reduced %q), want incomplete", r.Result.Status, r.Reduced)
	}
	so.Reduce = true
	rep, err = CheckEntry(context.Background(), "anonymous", so)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Runs[0]
	if r.Result.Status != Passed || r.Reduced != "memory = 3 at n = 2" || !strings.Contains(rep.Reduction, "memory = 11 gave no verdict") {
		t.Fatalf("memory = 11 with Reduce: %s, reduced %q, reduction %q; want passed with memory = 3", r.Result.Status, r.Reduced, rep.Reduction)
	}
	if !strings.Contains(rep.String(), "with the smallest valid parameters, memory = 3 at n = 2") {
		t.Errorf("the report does not say which parameters were checked:\n%s", rep)
	}
}

// From n = 4 bounded waiting is checked one watched process per run. The
// split must not lose violations: Eisenberg–McGuire (Lock only) at n = 4
// passes its bound n − 1 = 3 watching each process, and fails bound 2.
func TestBoundedWaitingWatchedPerProcess(t *testing.T) {
	needSpin(t)
	t.Parallel()
	if testing.Short() {
		t.Skip("n = 4 searches")
	}
	a := entryDef(t, "eisenberg-mcguire")
	po := promela.Options{Checks: promela.BoundedWaiting, Overtakes: 3}
	if res := boundedWaitingAtFour(t, a, po); res.Status != Passed {
		t.Fatalf("bound 3 at n = 4: %s %s %s", res.Status, res.Message, res.Reason)
	}
	po.Overtakes = 2
	if res := boundedWaitingAtFour(t, a, po); res.Status != Failed || !strings.Contains(res.Message, "g_ovt") {
		t.Fatalf("bound 2 at n = 4: %s %s %s, want the g_ovt assertion violated", res.Status, res.Message, res.Reason)
	}
	m, err := promela.Model(a, ir.Params{N: 4, K: 1}, promela.Options{Checks: promela.BoundedWaiting, Overtakes: 3, Watch: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m, "g_ovt[2]++") || strings.Contains(m, "g_ovt[0]") || strings.Contains(m, "g_ovt[1]") || strings.Contains(m, "g_ovt[3]") {
		t.Errorf("watching process 2: want only g_ovt[2] counted:\n%s", m)
	}
}

// Eisenberg–McGuire's n − 1 bound does not survive our TryLock at n = 4
// (it does at n = 3): the paper's argument assumes a process that wants in
// competes until it enters, which a try that gives up does not, so the
// entry claims the bound for Lock only.
func TestEisenbergMcGuireTryLockVoidsBound(t *testing.T) {
	needSpin(t)
	t.Parallel()
	if !long() {
		t.Skip("an n = 4 search of 50 s: LOCKGEN_SPIN_LONG=1 runs it")
	}
	e, _ := templates.Lookup("eisenberg-mcguire")
	if !e.Props.OvertakesAcquireOnly {
		t.Fatal("the entry claims its bound with TryLock too, which this test refutes")
	}
	po := promela.Options{Checks: promela.BoundedWaiting, Overtakes: 3, TryAcquire: true, Watch: []int{0}}
	if res := boundedWaitingAtFour(t, entryDef(t, "eisenberg-mcguire"), po); res.Status != Failed || !strings.Contains(res.Message, "g_ovt[0]") {
		t.Fatalf("%s %s %s, want process 0 overtaken more than 3 times", res.Status, res.Message, res.Reason)
	}
}

// boundedWaitingAtFour checks po's bounded-waiting model of a at n = 4
// through CheckAlgorithm (one run per watched process unless po.Watch
// names them).
func boundedWaitingAtFour(t *testing.T, a *ir.Algorithm, po promela.Options) Result {
	t.Helper()
	res, _, err := CheckAlgorithm(context.Background(), a, ir.Params{N: 4, K: 1}, po, BoundedWaiting,
		Options{HashBits: 24, Timeout: 5 * time.Minute, MemLimitMB: 4096})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBitstateFindsButNeverPasses: a bitstate search reports the
// counterexample of a wrong lock with its trail, and for a correct one
// says it is incomplete, never passed.
func TestBitstateFindsButNeverPasses(t *testing.T) {
	needSpin(t)
	t.Parallel()
	o := fast
	o.Bitstate = true
	for _, c := range []struct {
		alg  string
		want Status
	}{{"hyman", Failed}, {"peterson", Incomplete}} {
		m := exclusionModel(t, c.alg)
		res, err := Check(context.Background(), m, MutualExclusion, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want || (c.want == Failed) != (len(res.Trail) > 0) || !slices.Contains(res.CompileFlags, "-DBITSTATE") {
			t.Errorf("%s, bitstate: %s (%s), %d trail steps, flags %v; want %s", c.alg, res.Status, res.Reason, len(res.Trail), res.CompileFlags, c.want)
		}
	}
}

// TestHashCompact: a hash-compact search stores as many states as the
// full one on a model far too small for its 96-bit signatures to collide,
// passes a correct lock with its (negligible) omission bound, finds a wrong
// lock's counterexample with its trail, and refuses to combine with
// Collapse. The bound grows as N²: past OmissionLimit there is no verdict.
func TestHashCompact(t *testing.T) {
	needSpin(t)
	t.Parallel()
	for _, c := range []struct {
		alg  string
		want Status
	}{{"hyman", Failed}, {"peterson", Passed}} {
		m := exclusionModel(t, c.alg)
		full, err := Check(t.Context(), m, MutualExclusion, fast)
		if err != nil {
			t.Fatal(err)
		}
		o := fast
		o.HashCompact = true
		res, err := Check(t.Context(), m, MutualExclusion, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.want || (c.want == Failed) != (len(res.Trail) > 0) || !slices.Contains(res.CompileFlags, "-DHC4") {
			t.Errorf("%s, hash-compact: %s (%s), %d trail steps, flags %v; want %s", c.alg, res.Status, res.Reason, len(res.Trail), res.CompileFlags, c.want)
		}
		if c.want == Passed && (res.States != full.States || res.Omission <= 0 || res.Omission >= 1e-20) {
			t.Errorf("%s, hash-compact: %d states (full search %d), omission bound %g", c.alg, res.States, full.States, res.Omission)
		}
	}
	o := fast
	o.HashCompact, o.Collapse = true, true
	if _, err := Check(t.Context(), "active proctype p() { skip }", MutualExclusion, o); err == nil {
		t.Error("HashCompact with Collapse: no error")
	}
	if b := omission(1_000_000_000); b > 1e-11 || b < 1e-12 {
		t.Errorf("omission bound at a billion states %g, want about 6e-12", b)
	}
	if omission(1<<40) < OmissionLimit {
		t.Errorf("omission bound at 2^40 states %g: below the limit, want no verdict there", omission(1<<40))
	}
}

// TestProgressLines reads pan's periodic report and nothing else.
func TestProgressLines(t *testing.T) {
	var got [][2]int64
	var reported int64
	f := progressLines(func(states, depth int64) { got = append(got, [2]int64{states, depth}) }, &reported)
	for _, line := range []string{
		"Depth=    9478 States=    1e+06 Transitions= 2.82e+06 Memory=   147.456\tt=     1.22 R=   8e+05",
		"pan: elapsed time 1.5 seconds",
		"Depth=   12001 States=  2.5e+06 Transitions= 7e+06 Memory=   300.1",
		"      2500000 states, stored",
	} {
		f(line)
	}
	if want := [][2]int64{{1000000, 9478}, {2500000, 12001}}; !reflect.DeepEqual(got, want) {
		t.Errorf("progress = %v, want %v", got, want)
	}
	if reported != 2500000 {
		t.Errorf("last reported states %d, want 2500000", reported)
	}
	var lines []string
	w := &lineWriter{w: io.Discard, line: func(s string) { lines = append(lines, s) }}
	w.Write([]byte("one\ntw"))
	w.Write([]byte("o\nthree"))
	if want := []string{"one", "two"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %q, want %q", lines, want)
	}
}

// A report fails on any failed run and is incomplete on any run without
// a verdict; spincheck's exit status rests on both.
func TestReportVerdicts(t *testing.T) {
	rep := func(ss ...Status) *Report {
		r := &Report{}
		for _, s := range ss {
			r.Runs = append(r.Runs, Run{Result: Result{Status: s}})
		}
		return r
	}
	for _, c := range []struct {
		r                  *Report
		failed, incomplete bool
	}{
		{rep(Passed, Skipped), false, false},
		{rep(Passed, Incomplete), false, true},
		{rep(Failed, Passed), true, false},
		{rep(Incomplete, Failed), true, true},
	} {
		if c.r.Failed() != c.failed || c.r.Incomplete() != c.incomplete {
			t.Errorf("%v: failed %v, incomplete %v; want %v, %v", c.r.Runs, c.r.Failed(), c.r.Incomplete(), c.failed, c.incomplete)
		}
	}
}
