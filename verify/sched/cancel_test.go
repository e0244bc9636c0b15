package sched_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/verify/sched"
)

// spinUntil waits for w to hold v, giving up when ctx is cancelled, as a
// lock's LockContext does; it reports whether it saw v.
func spinUntil(ctx context.Context, w *word, v int64) bool {
	for w.load("check") != v {
		sched.Wait("spin")
		if ctx.Err() != nil {
			return false
		}
	}
	return true
}

// A goroutine that waits for a write nobody makes, with a context the
// scheduler holds, is not a deadlock: the only way on is to cancel it,
// which every strategy takes, and the trace says so.
func TestCancelEndsAWaitNobodyEnds(t *testing.T) {
	for _, c := range []sched.Chooser{sched.NewRandom(3), sched.NewPCT(3, 1, 2, 20), sched.NewReplay(nil)} {
		var w word
		gaveUp := false
		res := sched.Run(sched.Config{Chooser: c}, []func(*sched.Proc){func(p *sched.Proc) {
			ctx, stop := p.CancelContext(context.Background())
			defer stop()
			gaveUp = !spinUntil(ctx, &w, 1)
			if gaveUp && ctx.Err() != context.Canceled {
				p.Fail("ctx", "gave up with Err() = %v", ctx.Err())
			}
		}})
		if res.Failure != nil {
			t.Fatalf("%T: %v\n%s", c, res.Failure, sched.FormatTrace(res.Events, 0))
		}
		if !gaveUp {
			t.Fatalf("%T: the wait ended without a write", c)
		}
		trace := sched.FormatTrace(res.Events, 0)
		if !strings.Contains(trace, "CANCELLED: its context is cancelled while it waits at [spin]") {
			t.Errorf("%T: trace lacks the cancellation:\n%s", c, trace)
		}
		if !strings.Contains(sched.ChoicesToken(res.Choices), "-1") {
			t.Errorf("%T: choices %v record no cancellation", c, res.Choices)
		}
	}
}

// Without a context the scheduler holds, the same wait is a deadlock.
func TestNoCancelStillDeadlocks(t *testing.T) {
	var w word
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) {
		spinUntil(context.Background(), &w, 1)
	}})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("got %v, want a deadlock", res.Failure)
	}
	// A stopped context is no longer the scheduler's to cancel.
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) {
		ctx, stop := p.CancelContext(context.Background())
		stop()
		spinUntil(ctx, &w, 1)
	}})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("after stop: got %v, want a deadlock", res.Failure)
	}
}

// Exhaustive search sees both ways a wait with a context ends: the write
// comes first, or the cancellation; and replaying a schedule with a
// cancellation repeats it.
func TestCancelIsAChoice(t *testing.T) {
	got := map[bool]int{}
	var withCancel []int
	res, n := dfs(1, func() []func(*sched.Proc) {
		var w word
		return []func(*sched.Proc){
			func(p *sched.Proc) {
				ctx, stop := p.CancelContext(context.Background())
				defer stop()
				got[spinUntil(ctx, &w, 1)]++
			},
			func(p *sched.Proc) { w.store("set", 1) },
		}
	}, func(r *sched.Result) {
		for _, c := range r.Choices {
			if c < 0 && withCancel == nil {
				withCancel = r.Choices
			}
		}
	})
	if res != nil {
		t.Fatal(res.Failure)
	}
	if got[true] == 0 || got[false] == 0 || withCancel == nil {
		t.Fatalf("outcomes over %d schedules: %v, want both", n, got)
	}
	tok := sched.ChoicesToken(withCancel)
	c, err := sched.ParseToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	var w word
	gaveUp := false
	res2 := sched.Run(sched.Config{Chooser: c}, []func(*sched.Proc){
		func(p *sched.Proc) {
			ctx, stop := p.CancelContext(context.Background())
			defer stop()
			gaveUp = !spinUntil(ctx, &w, 1)
		},
		func(p *sched.Proc) { w.store("set", 1) },
	})
	if res2.Failure != nil || !gaveUp {
		t.Fatalf("replay of %s: failure %v, gave up %v", tok, res2.Failure, gaveUp)
	}
}

// ParkContext returns false when the scheduler cancels the context, true
// when an Unpark comes first; a context the scheduler does not hold
// leaves a plain Park, whose lost wake-up is a deadlock.
func TestParkContext(t *testing.T) {
	got := map[bool]int{}
	if res, _ := dfs(2, func() []func(*sched.Proc) {
		var pk sched.Parker
		return []func(*sched.Proc){
			func(p *sched.Proc) {
				ctx, stop := p.CancelContext(context.Background())
				defer stop()
				ok := pk.ParkContext("sleep", ctx)
				got[ok]++
				if !ok && ctx.Err() == nil {
					p.Fail("ctx", "gave up without a cancellation")
				}
			},
			func(p *sched.Proc) { pk.Unpark("wake") },
		}
	}, nil); res != nil {
		t.Fatal(res.Failure)
	}
	if got[true] == 0 || got[false] == 0 {
		t.Fatalf("outcomes %v, want both", got)
	}
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) {
		var pk sched.Parker
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		pk.ParkContext("sleep", ctx)
	}})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("a foreign context: got %v, want a deadlock", res.Failure)
	}
}

func TestParkContextOutsideExecutions(t *testing.T) {
	var pk sched.Parker
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if pk.ParkContext("x", ctx) {
		t.Fatal("a cancelled context got the token")
	}
	pk.Unpark("x")
	if !pk.ParkContext("x", context.Background()) {
		t.Fatal("the token was not taken")
	}
}
