//go:build lockgen_check

package sync_test

import (
	"testing"

	"github.com/lockgen/lockgen/verify/checked/sync"
	"github.com/lockgen/lockgen/verify/sched"
)

// Under the controlled scheduler, every schedule of correct use completes
// (no lost wake-up inside the primitives themselves), and a wait that
// nothing will end is a deadlock.

func exhaust(t *testing.T, bound int, bodies func() []func(*sched.Proc)) {
	t.Helper()
	d := sched.NewDFS(bound)
	n := 0
	for d.Next() {
		n++
		if res := sched.Run(sched.Config{Chooser: d}, bodies()); res.Failure != nil {
			t.Fatalf("schedule %d: %v\n%s", n, res.Failure, sched.FormatTrace(res.Events, 30))
		}
	}
	if n < 2 {
		t.Fatalf("only %d schedules", n)
	}
}

func TestMutexUnderTheScheduler(t *testing.T) {
	exhaust(t, 2, func() []func(*sched.Proc) {
		var mu sync.Mutex
		in := 0
		body := func(p *sched.Proc) {
			for i := 0; i < 2; i++ {
				mu.Lock()
				if in++; in > 1 {
					p.Fail("mutual exclusion", "two inside")
				}
				p.Yield(0, "inside")
				in--
				mu.Unlock()
			}
		}
		return []func(*sched.Proc){body, body, body}
	})
}

func TestChanAndCondUnderTheScheduler(t *testing.T) {
	exhaust(t, 2, func() []func(*sched.Proc) {
		c := sync.NewChan[int](0)
		var mu sync.Mutex
		cond := sync.NewCond(&mu)
		done := false
		return []func(*sched.Proc){
			func(p *sched.Proc) { c.Send(1); mu.Lock(); done = true; cond.Signal(); mu.Unlock() },
			func(p *sched.Proc) {
				c.Recv()
				mu.Lock()
				for !done {
					cond.Wait()
				}
				mu.Unlock()
			},
		}
	})
}

func TestSemaTimeoutUnderTheScheduler(t *testing.T) {
	exhaust(t, 2, func() []func(*sched.Proc) {
		s := sync.NewSema(0)
		got := 0
		return []func(*sched.Proc){
			func(p *sched.Proc) {
				if s.AcquireTimeout(1) { // either outcome is explored...
					got++
				}
			},
			func(p *sched.Proc) {
				s.Release()
				if s.TryAcquire() { // ...and the permit is never lost: the waiter or this one has it
					got++
				}
				if got != 1 && s.TryAcquire() {
					p.Fail("lost permit", "the permit went nowhere")
				}
			},
		}
	})
}

func TestReceiveNobodySendsIsADeadlock(t *testing.T) {
	c := sync.NewChan[int](0)
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) { c.Recv() }})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("got %v, want a deadlock", res.Failure)
	}
}
