package verify_test

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/internal/tbtest"
	"github.com/lockgen/lockgen/verify/internal/testlocks"
	"github.com/lockgen/lockgen/verify/sched"
)

func idLock[L verify.IDLock](name string, procs int, mk func() L) verify.Subject {
	return verify.IDLocker(name, procs, func() verify.IDLock { return mk() })
}

var (
	peterson = idLock("Peterson", 2, func() *testlocks.Peterson { return &testlocks.Peterson{} })
	ticket   = idLock("ticket", 0, func() *testlocks.Ticket { return &testlocks.Ticket{} })
	mcs      = idLock("MCS", testlocks.MaxProcs, func() *testlocks.MCS { return &testlocks.MCS{} })
	tas      = idLock("TAS", 0, func() *testlocks.TAS { return &testlocks.TAS{} })
	sem2     = idLock("semaphore(2)", 0, func() *testlocks.Semaphore { return &testlocks.Semaphore{K: 2} })
	rwSpin   = verify.RWLocker("RW spin", func() verify.RWLock { return &testlocks.RW{} })
)

// strategies runs one strategy at a time, deterministically (fixed seed,
// no time budget).
var strategies = []struct {
	name string
	opts []verify.ExploreOption
}{
	{"random", []verify.ExploreOption{verify.ExploreRandom(2000), verify.ExplorePCT(0, 0), verify.ExploreDFS(-1)}},
	{"pct", []verify.ExploreOption{verify.ExploreRandom(0), verify.ExplorePCT(2000, 3), verify.ExploreDFS(-1)}},
	{"dfs", []verify.ExploreOption{verify.ExploreRandom(0), verify.ExplorePCT(0, 0), verify.ExploreDFS(2)}},
}

func fixed(seed uint64, opts ...verify.ExploreOption) []verify.ExploreOption {
	return append([]verify.ExploreOption{verify.ExploreSeed(seed), verify.ExploreBudget(0)}, opts...)
}

func TestExploreCorrectLocks(t *testing.T) {
	for _, c := range []struct {
		s     verify.Subject
		bound int // of the exhaustive search, kept small where the space is large
	}{
		{peterson.WithFIFO(), 2}, {ticket.WithFIFO(), 1}, {mcs.WithFIFO(), 1}, {mcs, 2}, {tas, 3},
		// FIFO with 3 goroutines: a process past its doorway waits for at most 2.
		{ticket.WithBoundedWaiting(2, false), 1},
		{sem2.WithK(2), 2}, {rwSpin, 3},
	} {
		s := c.s
		t.Run(s.Name, func(t *testing.T) {
			var rep verify.ExploreReport
			verify.Explore(t, s, fixed(1, verify.ExploreRandom(300), verify.ExplorePCT(300, 3),
				verify.ExploreDFS(c.bound), verify.ExploreReportTo(&rep))...)
			if rep.Failure != nil {
				return // already reported through t
			}
			if !rep.Exhausted {
				t.Errorf("DFS did not exhaust its space: %s", rep.String())
			}
			if s.Mode.Shared(s.K) && rep.Shared == 0 {
				t.Errorf("the critical section was never shared: %s", rep.String())
			}
			t.Log(rep.String())
		})
	}
}

// TestExploreNegativeControls: every strategy must catch every known-wrong
// lock, for the right reason, and the token must replay the same
// interleaving.
func TestExploreNegativeControls(t *testing.T) {
	controls := []struct {
		s    verify.Subject
		want sched.FailKind
	}{
		{idLock("test-then-set", 0, func() *testlocks.TestThenSet { return &testlocks.TestThenSet{} }),
			verify.ExploreMutualExclusion},
		{idLock("Peterson, writes swapped", 2, func() *testlocks.Peterson { return &testlocks.Peterson{Swapped: true} }),
			verify.ExploreMutualExclusion},
		{idLock("ticket, release forgets to serve", 0, func() *testlocks.Ticket { return &testlocks.Ticket{Forget: true} }),
			sched.FailDeadlock},
		{tas.WithFIFO(), verify.ExploreFIFO},
		{tas.WithBoundedWaiting(1, false), verify.ExploreBoundedWaiting}, // TAS bounds nothing
		{rwSpin.WithWriterPriority(), verify.ExploreWriterPriority},      // readers never defer to a waiting writer
		{idLock("Fischer", 0, func() *testlocks.Fischer { return &testlocks.Fischer{} }),
			verify.ExploreMutualExclusion},
		{sem2, verify.ExploreMutualExclusion}, // a 2-exclusion lock claimed as a mutex
		{verify.RWLocker("RW, reader ignores writer", func() verify.RWLock { return &testlocks.RW{NoWriterCheck: true} }),
			verify.ExploreMutualExclusion},
	}
	for _, c := range controls {
		for _, st := range strategies {
			t.Run(c.s.Name+"/"+st.name, func(t *testing.T) {
				rep := exploreFailing(t, c.s, fixed(7, st.opts...)...)
				f := rep.Failure
				if f.Kind != c.want {
					t.Fatalf("failure %q, want %q: %s", f.Kind, c.want, f.Message)
				}
				if !strings.HasPrefix(f.Strategy, st.name) {
					t.Errorf("strategy %q, want %s", f.Strategy, st.name)
				}
				again := exploreFailing(t, c.s, verify.ExploreReplay(f.Token))
				if again.Failure.Kind != f.Kind || again.Failure.Trace != f.Trace {
					t.Fatalf("replay of %s differs:\n%s: %s\n%s\nvs\n%s: %s\n%s", f.Token,
						f.Kind, f.Message, f.Trace, again.Failure.Kind, again.Failure.Message, again.Failure.Trace)
				}
				t.Logf("%s after %d executions: %s (token %s, %d events)",
					f.Kind, rep.Executions, f.Message, f.Token, f.Events)
			})
		}
	}
}

// The bounded-waiting check is tight: the ticket lock overtakes a process
// twice with 3 goroutines (it passes with 2 in TestExploreCorrectLocks).
func TestExploreBoundedWaitingTight(t *testing.T) {
	rep := exploreFailing(t, ticket.WithBoundedWaiting(1, false), fixed(3, verify.ExploreRandom(2000), verify.ExplorePCT(0, 0), verify.ExploreDFS(-1))...)
	if rep.Failure.Kind != verify.ExploreBoundedWaiting || !strings.Contains(rep.Failure.Message, "overtaken 2 times") {
		t.Fatalf("%s: %s, want a second overtaking", rep.Failure.Kind, rep.Failure.Message)
	}
}

// exploreFailing runs Explore on a recorder and requires a failure, which it
// checks is reported the documented way.
func exploreFailing(t *testing.T, s verify.Subject, opts ...verify.ExploreOption) verify.ExploreReport {
	t.Helper()
	var rep verify.ExploreReport
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) { verify.Explore(tb, s, append(opts, verify.ExploreReportTo(&rep))...) })
	if !rec.Failed() || rep.Failure == nil {
		t.Fatalf("%s: not caught: %s", s.Name, rep.String())
	}
	msg := strings.Join(rec.Messages(), "\n")
	for _, want := range []string{string(rep.Failure.Kind), "strategy:", "verify.ExploreReplay(\"" + rep.Failure.Token,
		"interleaving"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("failure message lacks %q:\n%s", want, msg)
		}
	}
	return rep
}

func TestExploreTraceShape(t *testing.T) {
	rep := exploreFailing(t, idLock("test-then-set", 0, func() *testlocks.TestThenSet { return &testlocks.TestThenSet{} }),
		fixed(3, strategies[2].opts...)...)
	f := rep.Failure
	// The DFS finds the shortest violations first: both read the lock free,
	// then both store and enter.
	for _, want := range []string{"[S1]     load   r1   = false", "[S2]     store  r1   := true",
		"enters the critical section"} {
		if !strings.Contains(f.Trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, f.Trace)
		}
	}
	if !strings.HasPrefix(f.Token, "lg1/2x2/") || !strings.Contains(f.Token, "/choices:") {
		t.Errorf("token %q", f.Token)
	}
	t.Logf("%s\n%s", f.Message, f.Trace)
}

func TestExploreTraceTail(t *testing.T) {
	var rep verify.ExploreReport
	rec := tbtest.New(t)
	s := idLock("ticket, release forgets to serve", 0, func() *testlocks.Ticket { return &testlocks.Ticket{Forget: true} })
	rec.Run(func(tb testing.TB) {
		verify.Explore(tb, s, fixed(1, verify.ExploreTraceTail(5), verify.ExplorePassages(4), verify.ExploreReportTo(&rep))...)
	})
	msg := strings.Join(rec.Messages(), "\n")
	events := regexp.MustCompile(`(?m)^\s+\d+  g\d`).FindAllString(msg, -1)
	if !strings.Contains(msg, "earlier events omitted") || len(events) != 5 {
		t.Errorf("tail not trimmed:\n%s", msg)
	}
	if rep.Failure == nil || strings.Contains(rep.Failure.Trace, "omitted") {
		t.Errorf("the report must keep the whole trace")
	}
}

func TestExploreNotInstrumented(t *testing.T) {
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) {
		verify.Explore(tb, verify.Locker("sync.Mutex", func() sync.Locker { return new(sync.Mutex) }))
	})
	if !rec.Contains("run with -tags lockgen_check") {
		t.Fatalf("want the not-instrumented failure, got %q", rec.Messages())
	}
}

func TestExploreBadToken(t *testing.T) {
	for _, tok := range []string{"nonsense", "lg1/2x2/100/bogus:1", "lg1/3x1/100/random:1"} {
		rec := tbtest.New(t)
		rec.Run(func(tb testing.TB) { verify.Explore(tb, peterson, verify.ExploreReplay(tok)) })
		if !rec.Failed() {
			t.Errorf("token %q accepted", tok)
		}
	}
	// A token that passes (the lock was fixed) is logged, not failed.
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) { verify.Explore(tb, peterson, verify.ExploreReplay("lg1/2x2/100/random:5")) })
	if rec.Failed() || !strings.Contains(strings.Join(rec.Logs(), "\n"), "no failure") {
		t.Errorf("passing replay: failed=%v logs=%q", rec.Failed(), rec.Logs())
	}
}

// TestExploreDefaults: one call with the defaults stays within its budget
// and does all three strategies.
func TestExploreDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("takes the default budget")
	}
	var rep verify.ExploreReport
	start := time.Now()
	verify.Explore(t, mcs.WithFIFO(), verify.ExploreReportTo(&rep))
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("default Explore took %v", d)
	}
	if len(rep.Phases) != 3 || rep.Executions == 0 {
		t.Errorf("phases: %s", rep.String())
	}
	t.Log(rep.String())
}

// TestExploreNoOverlap: a reader/writer lock whose readers exclude each
// other, and a "2-exclusion" lock that admits one, are correct mutexes but
// break their promise to share; Explore reports it (Stress does too).
func TestExploreNoOverlap(t *testing.T) {
	verify.ExploreFinds(t, verify.RWLocker("RW, readers exclusive", func() verify.RWLock {
		return &testlocks.RW{ExclusiveReaders: true}
	}), verify.ExploreNoOverlap)
	verify.ExploreFinds(t, idLock("semaphore(1) claimed as 2-exclusion", 0, func() *testlocks.Semaphore {
		return &testlocks.Semaphore{K: 1}
	}).WithK(2), verify.ExploreNoOverlap)
	// With 5 processes, more than Explore's 3 goroutines: the last chance
	// with every process (checkOverlap) runs and finds no sharing either.
	rep, err := verify.RunExplore(idLock("semaphore(1) claimed as 2-exclusion of 5", 5, func() *testlocks.Semaphore {
		return &testlocks.Semaphore{K: 1}
	}).WithK(2))
	switch {
	case err != nil:
		t.Fatal(err)
	case rep.Failure == nil || rep.Failure.Kind != verify.ExploreNoOverlap:
		t.Errorf("want a no-overlap failure: %s", rep)
	case rep.Phases[len(rep.Phases)-1].Goroutines != 5:
		t.Errorf("the overlap check did not run every process: %s", rep)
	}
	verify.StressFinds(t, verify.RWLocker("RW, readers exclusive", func() verify.RWLock {
		return &testlocks.RW{ExclusiveReaders: true}
	}), verify.StressNoOverlap)
}

// TestFirstLineSaysWhatWhoAndHow: the first line of a failure names the
// violated property, the goroutine, and how to run it again.
func TestFirstLineSaysWhatWhoAndHow(t *testing.T) {
	rep, err := verify.RunExplore(idLock("test-then-set", 0, func() *testlocks.TestThenSet { return &testlocks.TestThenSet{} }),
		verify.ExploreSeed(3))
	if err != nil || rep.Failure == nil {
		t.Fatalf("no failure: %v", err)
	}
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) {
		verify.Explore(tb, idLock("test-then-set", 0, func() *testlocks.TestThenSet { return &testlocks.TestThenSet{} }),
			verify.ExploreReplay(rep.Failure.Token))
	})
	first, _, _ := strings.Cut(strings.Join(rec.Messages(), "\n"), "\n")
	for _, want := range []string{"mutual exclusion", "g", "entered", "verify.ExploreReplay(\"" + rep.Failure.Token} {
		if !strings.Contains(first, want) {
			t.Errorf("first line lacks %q: %s", want, first)
		}
	}
	srep := verify.RunStress(verify.Locker("no lock", func() sync.Locker { return noLock{} }))
	if !srep.Failed() {
		t.Fatal("Stress passed a lock that excludes nothing")
	}
}

type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}
