package sched_test

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify/internal/testlocks"
	"github.com/lockgen/lockgen/verify/sched"
)

// bodies returns n bodies running f(p) after a first scheduling point.
func bodies(n int, f func(p *sched.Proc)) []func(*sched.Proc) {
	bs := make([]func(*sched.Proc), n)
	for i := range bs {
		bs[i] = func(p *sched.Proc) {
			p.Point(0, "start")
			f(p)
		}
	}
	return bs
}

// lockBodies runs passages of l by n goroutines and fails the execution if
// two are ever inside.
func lockBodies(n, passages int, l interface {
	Lock(int)
	Unlock(int)
}) []func(*sched.Proc) {
	in := 0
	bs := make([]func(*sched.Proc), n)
	for i := range bs {
		bs[i] = func(p *sched.Proc) {
			for range passages {
				p.Point(0, "acquire")
				l.Lock(i)
				if in++; in > 1 {
					p.Fail("mutual exclusion", "g%d entered with %d inside", i, in-1)
				}
				p.Yield(0, "in CS")
				in--
				l.Unlock(i)
			}
		}
	}
	return bs
}

func TestPassThroughOutsideExecutions(t *testing.T) {
	var l testlocks.Ticket
	var wg sync.WaitGroup
	counter := 0
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				l.Lock(i)
				counter++
				l.Unlock(i)
			}
		}()
	}
	wg.Wait()
	if counter != 2000 {
		t.Fatalf("counter = %d, want 2000", counter)
	}
	sched.Wait("x") // a Gosched
	sched.Doorway("x")
	sched.Delay("x")
}

// TestOutsidersDuringExecutions runs ordinary goroutines on an instrumented
// lock while executions run: they must neither be scheduled nor disturb the
// managed goroutines.
func TestOutsidersDuringExecutions(t *testing.T) {
	var outside testlocks.Ticket
	stop := make(chan struct{})
	var wg sync.WaitGroup
	counts := make([]int, 3)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				outside.Lock(i)
				counts[i]++
				outside.Unlock(i)
			}
		}()
	}
	var steps int
	for i := 0; i < 200; i++ {
		res := sched.Run(sched.Config{Chooser: sched.NewRandom(uint64(i))}, lockBodies(3, 2, &testlocks.MCS{}))
		if res.Failure != nil {
			t.Fatalf("execution %d: %v", i, res.Failure)
		}
		steps += res.Steps
		for _, e := range res.Events {
			if e.G < 0 || e.G > 2 {
				t.Fatalf("event of an unknown goroutine: %v", e)
			}
		}
	}
	close(stop)
	wg.Wait()
	if counts[0]+counts[1]+counts[2] == 0 {
		t.Fatal("outsiders made no passage")
	}
	t.Logf("200 executions, %d steps; outsiders made %v passages meanwhile", steps, counts)
}

// interleavings counts the sequences in which n goroutines run m segments
// each, with at most bound preemptions (a switch away from a goroutine
// with segments left).
func interleavings(n, m, bound int) int {
	left := make([]int, n)
	for i := range left {
		left[i] = m
	}
	var rec func(last, pre, remaining int) int
	rec = func(last, pre, remaining int) int {
		if remaining == 0 {
			return 1
		}
		total := 0
		for g := 0; g < n; g++ {
			if left[g] == 0 {
				continue
			}
			p := pre
			if last >= 0 && g != last && left[last] > 0 {
				p++
			}
			if p > bound {
				continue
			}
			left[g]--
			total += rec(g, p, remaining-1)
			left[g]++
		}
		return total
	}
	return rec(-1, 0, n*m)
}

func TestDFSCountsSchedules(t *testing.T) {
	for _, tc := range []struct{ n, k, bound int }{
		{2, 1, 0}, {2, 2, 0}, {2, 2, 1}, {2, 3, 2}, {2, 3, 100}, {3, 1, 1}, {3, 2, 2}, {3, 2, 100},
	} {
		d := sched.NewDFS(tc.bound)
		runs := 0
		seen := map[string]bool{}
		for d.Next() {
			regs := make([]sched.IntReg, tc.n)
			res := sched.Run(sched.Config{Chooser: d}, bodies(tc.n, func(p *sched.Proc) {
				for range tc.k {
					regs[p.ID()].Load("L")
				}
			}))
			if res.Failure != nil {
				t.Fatal(res.Failure)
			}
			tok := sched.ChoicesToken(res.Choices)
			if seen[tok] {
				t.Fatalf("%+v: schedule %s run twice", tc, tok)
			}
			seen[tok] = true
			runs++
		}
		// Each goroutine runs k+1 segments: to its first access, between
		// accesses, and from the last one to its end.
		want := interleavings(tc.n, tc.k+1, tc.bound)
		if runs != want || !d.Exhausted() {
			t.Errorf("%+v: DFS ran %d schedules (exhausted %v), want %d", tc, runs, d.Exhausted(), want)
		}
	}
}

func TestWaitSemantics(t *testing.T) {
	run := func(f func(p *sched.Proc, x *sched.IntReg)) *sched.Result {
		var x sched.IntReg
		return sched.Run(sched.Config{Chooser: sched.NewReplay(nil)}, bodies(1, func(p *sched.Proc) { f(p, &x) }))
	}
	// Nobody will write what the goroutine read: deadlock.
	if res := run(func(p *sched.Proc, x *sched.IntReg) {
		x.Load("a")
		sched.Wait("w")
	}); res.Failure == nil || res.Failure.Kind != sched.FailDeadlock || !strings.Contains(res.Failure.Msg, "g0 waits at [w] on r1") {
		t.Errorf("lone waiter: %v", res.Failure)
	}
	// Its own write after the read: the wait returns at once.
	if res := run(func(p *sched.Proc, x *sched.IntReg) {
		x.Load("a")
		x.Store("b", 1)
		sched.Wait("w")
	}); res.Failure != nil {
		t.Errorf("own write: %v", res.Failure)
	}
	// Nothing read: a scheduling point only.
	if res := run(func(p *sched.Proc, x *sched.IntReg) { sched.Wait("w") }); res.Failure != nil {
		t.Errorf("empty read set: %v", res.Failure)
	}
	// A harness event starts a new operation: earlier reads do not count.
	if res := run(func(p *sched.Proc, x *sched.IntReg) {
		x.Load("a")
		x.Store("b", 1)
		p.Note(0, "op")
		x.Load("c")
		sched.Wait("w")
	}); res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Errorf("after a harness event: %v", res.Failure)
	}

	// Writing the value already there wakes nobody; a real change does.
	for _, tc := range []struct {
		v    int64
		want sched.FailKind
	}{{0, sched.FailDeadlock}, {1, ""}} {
		var x sched.IntReg
		res := sched.Run(sched.Config{Chooser: sched.NewReplay([]int{0, 0, 1, 1, 0, 0})}, []func(*sched.Proc){
			func(p *sched.Proc) {
				p.Point(0, "start")
				for x.Load("a") == 0 {
					sched.Wait("w")
				}
			},
			func(p *sched.Proc) {
				p.Point(0, "start")
				x.Store("b", tc.v)
			},
		})
		got := sched.FailKind("")
		if res.Failure != nil {
			got = res.Failure.Kind
		}
		if got != tc.want {
			t.Errorf("store %d: failure %q, want %q\n%s", tc.v, got, tc.want, sched.FormatTrace(res.Events, 0))
		}
	}
}

func TestDeadlockAndNoProgress(t *testing.T) {
	// Each waits for the other to write first.
	var a, b sched.IntReg
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){
		func(p *sched.Proc) {
			p.Point(0, "start")
			for b.Load("1") == 0 {
				sched.Wait("1")
			}
			a.Store("2", 1)
		},
		func(p *sched.Proc) {
			p.Point(0, "start")
			for a.Load("3") == 0 {
				sched.Wait("3")
			}
			b.Store("4", 1)
		},
	})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("want a deadlock, got %v", res.Failure)
	}
	for _, w := range []string{"g0 waits at [1]", "g1 waits at [3]"} {
		if !strings.Contains(res.Failure.Msg, w) {
			t.Errorf("deadlock message lacks %q:\n%s", w, res.Failure.Msg)
		}
	}

	// A goroutine that keeps changing what it waits on never blocks.
	var x sched.IntReg
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(1), MaxSteps: 300}, bodies(2, func(p *sched.Proc) {
		for {
			x.FetchAdd("5", 1)
			sched.Wait("5")
		}
	}))
	if res.Failure == nil || res.Failure.Kind != sched.FailNoProgress || !strings.Contains(res.Failure.Error(), "no progress: after 300 steps") {
		t.Fatalf("want no progress, got %v", res.Failure)
	}
}

func TestPanicAndGoexit(t *testing.T) {
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, bodies(2, func(p *sched.Proc) {
		if p.ID() == 1 {
			panic("lock misuse")
		}
	}))
	if res.Failure == nil || res.Failure.Kind != sched.FailPanic || !strings.Contains(res.Failure.Msg, "lock misuse") {
		t.Errorf("panic: %v", res.Failure)
	}
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, bodies(2, func(p *sched.Proc) {
		if p.ID() == 0 {
			runtime.Goexit()
		}
	}))
	if res.Failure == nil || res.Failure.Kind != sched.FailGoexit {
		t.Errorf("goexit: %v", res.Failure)
	}
	// Fail from a body stops the execution and every goroutine.
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, bodies(3, func(p *sched.Proc) {
		p.Fail("custom", "g%d says so", p.ID())
	}))
	if res.Failure == nil || res.Failure.Kind != "custom" {
		t.Errorf("Fail: %v", res.Failure)
	}
}

// TestStall: a goroutine spinning on a plain atomic, out of the scheduler's
// sight, is reported; the goroutines then run free and finish.
func TestStall(t *testing.T) {
	var flag atomic.Bool
	var x sched.IntReg
	start := time.Now()
	res := sched.Run(sched.Config{Chooser: sched.NewReplay([]int{0}), Stall: 100 * time.Millisecond},
		[]func(*sched.Proc){
			func(p *sched.Proc) {
				p.Point(0, "start")
				x.Load("a")
				for !flag.Load() {
				}
				x.Load("b")
			},
			func(p *sched.Proc) {
				p.Point(0, "start")
				x.Store("c", 1)
				flag.Store(true)
			},
		})
	if res.Failure == nil || res.Failure.Kind != sched.FailStall || !strings.Contains(res.Failure.Msg, "g0") {
		t.Fatalf("want a stall of g0, got %v", res.Failure)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("stall took %v to report", d)
	}
	// The next execution is not disturbed.
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(3)}, lockBodies(2, 2, &testlocks.Peterson{}))
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
}

func TestReplayReproducesTrace(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		r := sched.NewRandom(seed)
		a := sched.Run(sched.Config{Chooser: r}, lockBodies(3, 2, &testlocks.MCS{}))
		for _, tok := range []string{r.Token(), sched.ChoicesToken(a.Choices)} {
			c, err := sched.ParseToken(tok)
			if err != nil {
				t.Fatal(err)
			}
			b := sched.Run(sched.Config{Chooser: c}, lockBodies(3, 2, &testlocks.MCS{}))
			if x, y := sched.FormatTrace(a.Events, 0), sched.FormatTrace(b.Events, 0); x != y {
				t.Fatalf("replay of %s differs:\n%s\nvs\n%s", tok, x, y)
			}
		}
	}
	p := sched.NewPCT(7, 3, 3, 50)
	a := sched.Run(sched.Config{Chooser: p}, lockBodies(3, 2, &testlocks.Ticket{}))
	c, err := sched.ParseToken(p.Token())
	if err != nil {
		t.Fatal(err)
	}
	b := sched.Run(sched.Config{Chooser: c}, lockBodies(3, 2, &testlocks.Ticket{}))
	if sched.FormatTrace(a.Events, 0) != sched.FormatTrace(b.Events, 0) {
		t.Fatal("PCT replay differs")
	}
	if _, err := sched.ParseToken("bogus:1"); err == nil {
		t.Error("bogus token accepted")
	}
	// A schedule that does not fit the program is reported, not followed.
	res := sched.Run(sched.Config{Chooser: sched.NewReplay([]int{5})}, lockBodies(2, 1, &testlocks.Ticket{}))
	if res.Failure == nil || res.Failure.Kind != sched.FailReplay {
		t.Fatalf("want a replay divergence, got %v", res.Failure)
	}
}

func TestChoicesTokenRoundTrip(t *testing.T) {
	in := []int{0, 0, 0, 1, 2, 2, 0}
	tok := sched.ChoicesToken(in)
	if tok != "choices:0*3.1.2*2.0" {
		t.Fatalf("token %q", tok)
	}
	c, err := sched.ParseToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.(*sched.Replay).Token(); got != tok {
		t.Fatalf("round trip: %q", got)
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[sched.Op]string{sched.OpLoad: "load", sched.OpStore: "store",
		sched.OpSwap: "swap", sched.OpCAS: "cas", sched.OpAdd: "add", sched.Op(9): "Op(9)"} {
		if op.String() != want {
			t.Errorf("%d: %q", op, op.String())
		}
	}
}

// TestStaleGoroutine: a managed goroutine that outlives its execution (it
// never reached a scheduling point and did not finish when released) keeps
// calling the entry points; later executions must tell it apart (by
// goroutine id, since it too started in managedMain).
func TestStaleGoroutine(t *testing.T) {
	var stop atomic.Bool
	var y sched.IntReg
	exited := make(chan struct{})
	res := sched.Run(sched.Config{Chooser: sched.NewReplay(nil), Stall: 50 * time.Millisecond},
		bodies(1, func(p *sched.Proc) {
			defer close(exited)
			y.Load("a")
			quiet := time.Now().Add(300 * time.Millisecond)
			for !stop.Load() {
				if time.Now().After(quiet) {
					y.Load("stale")
				}
			}
		}))
	if res.Failure == nil || res.Failure.Kind != sched.FailStall {
		t.Fatalf("want a stall, got %v", res.Failure)
	}
	time.Sleep(350 * time.Millisecond) // the stale goroutine now calls Access
	for i := 0; i < 50; i++ {
		res := sched.Run(sched.Config{Chooser: sched.NewRandom(uint64(i))}, lockBodies(2, 2, &testlocks.Peterson{}))
		if res.Failure != nil {
			t.Fatalf("execution %d: %v", i, res.Failure)
		}
		for _, e := range res.Events {
			if e.Label == "stale" {
				t.Fatalf("execution %d recorded the stale goroutine's access", i)
			}
		}
	}
	stop.Store(true)
	<-exited
}

// BenchmarkAccessOutside is the cost of an instrumented load outside any
// execution (what a stress test pays with -tags lockgen_check).
func BenchmarkAccessOutside(b *testing.B) {
	var x sched.IntReg
	for b.Loop() {
		x.Load("a")
	}
}

// BenchmarkExecution runs Peterson's lock, 2 goroutines × 2 passages, under
// the random strategy, and reports executions and steps per second.
func BenchmarkExecution(b *testing.B) {
	steps := 0
	i := 0
	for b.Loop() {
		res := sched.Run(sched.Config{Chooser: sched.NewRandom(uint64(i))}, lockBodies(2, 2, &testlocks.Peterson{}))
		steps += res.Steps
		i++
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(i)/s, "execs/s")
	b.ReportMetric(float64(steps)/s, "steps/s")
	b.ReportMetric(float64(steps)/float64(i), "steps/exec")
}

// TestCrashTraceKept: a deadlock among goroutines one of which never
// exits once the verdict lets them run free (here a deferred call that
// blocks; in a lock, a waiter that spins on without the scheduler) keeps
// its trace up to the verdict. Explore showed such failures (a crash in a
// k-exclusion lock) with no interleaving at all.
func TestCrashTraceKept(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	found := false
	for seed := range uint64(10) {
		var l testlocks.TAS
		// The stall bound is also how long Run waits for g1 before it
		// abandons it: long enough that a loaded machine cannot pass for
		// a stall, and paid once, at the first deadlock.
		res := sched.Run(sched.Config{Chooser: sched.NewRandom(seed), Stall: time.Second}, []func(*sched.Proc){
			func(p *sched.Proc) {
				p.Point(0, "start")
				l.Lock(0)
				p.Crash("in the critical section")
			},
			func(p *sched.Proc) {
				entered := false
				defer func() {
					if !entered {
						<-stuck // stopped waiting: never exits
					}
				}()
				p.Point(0, "start")
				l.Lock(1)
				entered = true
				l.Unlock(1)
			},
		})
		if res.Failure == nil {
			continue // g1 went first, and both finished
		}
		found = true
		if f := res.Failure; f.Kind != sched.FailDeadlock || f.Events == 0 || len(res.Events) != f.Events ||
			!strings.Contains(sched.FormatTrace(res.Events, 0), "CRASHED") {
			t.Fatalf("seed %d: %v; the trace has %d events for a failure after %d:\n%s",
				seed, f, len(res.Events), f.Events, sched.FormatTrace(res.Events, 0))
		}
		break
	}
	if !found {
		t.Fatal("no seed made the deadlock: the test looks at nothing")
	}
}

// TestCrash: a goroutine that crashes holding a lock leaves the others
// deadlocked, and the deadlock names it; one that crashes outside lets the
// others finish, and the execution ends without it, its goroutine gone.
func TestCrash(t *testing.T) {
	var l testlocks.TAS
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(3)}, []func(*sched.Proc){
		func(p *sched.Proc) {
			p.Point(0, "start")
			l.Lock(0)
			p.Crash("in the critical section")
		},
		func(p *sched.Proc) {
			p.Point(0, "start")
			for range 3 {
				l.Lock(1)
				l.Unlock(1)
			}
		},
	})
	// g1 may finish before g0 takes the lock; with seed 3 it does not.
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock || !strings.Contains(res.Failure.Msg, "g0 has crashed") {
		t.Fatalf("want a deadlock naming the crashed g0, got %v", res.Failure)
	}

	before := runtime.NumGoroutine()
	var m testlocks.TAS
	for seed := range uint64(20) {
		crashed := false
		res = sched.Run(sched.Config{Chooser: sched.NewRandom(seed)}, append(lockBodies(2, 2, &m), func(p *sched.Proc) {
			p.Point(0, "start")
			m.Lock(2)
			m.Unlock(2)
			crashed = true
			p.Crash("in the remainder")
		}))
		if res.Failure != nil || !crashed {
			t.Fatalf("seed %d: a crash outside the lock: failure %v, crashed %v", seed, res.Failure, crashed)
		}
		var ev *sched.Event
		for i := range res.Events {
			if res.Events[i].Kind == sched.EvCrash {
				ev = &res.Events[i]
			}
		}
		if ev == nil || ev.G != 2 || !strings.Contains(ev.String(), "CRASHED in the remainder") {
			t.Fatalf("seed %d: no crash event for g2 in the trace", seed)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the crashed executions, %d before: the crashed ones were not let go", n, before)
	}
}
