//go:build lockgen_check

package sync_test

import (
	"context"
	"fmt"
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

// Under the scheduler a context it holds (sched.Proc.CancelContext) may be
// cancelled while the goroutine waits: both outcomes are explored, and a
// permit or a value given to a waiter that gives up at that moment is
// never lost.
func TestContextFormsUnderTheScheduler(t *testing.T) {
	outcomes := map[string]int{}
	exhaust(t, 2, func() []func(*sched.Proc) {
		s := sync.NewSema(0)
		got := 0
		return []func(*sched.Proc){
			func(p *sched.Proc) {
				ctx, stop := p.CancelContext(context.Background())
				defer stop()
				err := s.AcquireContext(ctx)
				if err == nil {
					got++
				} else if err != context.Canceled {
					p.Fail("error", "AcquireContext returned %v", err)
				}
				outcomes[fmt.Sprint("sema ", err)]++
			},
			func(p *sched.Proc) {
				s.Release()
				if s.TryAcquire() {
					got++
				}
				if got != 1 && s.TryAcquire() {
					p.Fail("lost permit", "the permit went nowhere")
				}
			},
		}
	})
	exhaust(t, 2, func() []func(*sched.Proc) {
		c := sync.NewChan[int](0)
		return []func(*sched.Proc){
			func(p *sched.Proc) {
				ctx, stop := p.CancelContext(context.Background())
				defer stop()
				v, _, err := c.RecvContext(ctx)
				outcomes[fmt.Sprint("chan ", err)]++
				if err != nil {
					v, _ = c.Recv() // the send still waits for a receiver
				}
				if v != 7 {
					p.Fail("value", "received %d", v)
				}
			},
			func(p *sched.Proc) { c.Send(7) },
		}
	})
	for _, want := range []string{"sema <nil>", "sema context canceled", "chan <nil>", "chan context canceled"} {
		if outcomes[want] == 0 {
			t.Errorf("outcome %q never explored: %v", want, outcomes)
		}
	}
}
