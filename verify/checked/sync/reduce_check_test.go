//go:build lockgen_check

package sync_test

import (
	"testing"

	"github.com/lockgen/lockgen/verify/checked/sync"
	"github.com/lockgen/lockgen/verify/sched"
)

// classesOf runs every schedule of bodies within bound, reduced or not
// (sched.DFS.Reduce), and returns the classes of the completed ones
// (sched.Recorder.Class) and the executions run.
func classesOf(t *testing.T, bound int, reduce bool, bodies func() []func(*sched.Proc)) (map[string]bool, int) {
	t.Helper()
	d := sched.NewDFS(bound)
	d.Reduce = reduce
	r := &sched.Recorder{Chooser: d}
	seen := map[string]bool{}
	for d.Next() {
		res := sched.Run(sched.Config{Chooser: r}, bodies())
		if res.Failure != nil {
			t.Fatalf("schedule %d: %v\n%s", d.Executions(), res.Failure, sched.FormatTrace(res.Events, 30))
		}
		if c := r.Class(); !res.Pruned {
			seen[c] = true
		}
	}
	return seen, d.Executions()
}

// TestReductionOverPrimitives: the scheduler's reduction reaches every
// class of schedules of programs on the checked primitives that the full
// search reaches (they wait on Parkers, and their state is a counted
// word: what the reduction must order).
func TestReductionOverPrimitives(t *testing.T) {
	for _, prog := range []struct {
		name   string
		bodies func() []func(*sched.Proc)
	}{
		{"mutex", func() []func(*sched.Proc) {
			var mu sync.Mutex
			body := func(p *sched.Proc) {
				for range 2 {
					mu.Lock()
					p.Note(0, "inside")
					mu.Unlock()
				}
			}
			return []func(*sched.Proc){body, body}
		}},
		{"rwmutex", func() []func(*sched.Proc) {
			var rw sync.RWMutex
			return []func(*sched.Proc){
				func(p *sched.Proc) { rw.RLock(); p.Note(0, "reads"); rw.RUnlock() },
				func(p *sched.Proc) { rw.RLock(); p.Note(0, "reads"); rw.RUnlock() },
				func(p *sched.Proc) { rw.Lock(); p.Note(0, "writes"); rw.Unlock() },
			}
		}},
		{"cond and chan", func() []func(*sched.Proc) {
			c := sync.NewChan[int](0)
			var mu sync.Mutex
			cond := sync.NewCond(&mu)
			done := false // guarded by mu
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
		}},
		{"waitgroup and once", func() []func(*sched.Proc) {
			var wg sync.WaitGroup
			var once sync.Once
			wg.Add(2)
			work := func(p *sched.Proc) { once.Do(func() { p.Note(0, "once") }); wg.Done() }
			return []func(*sched.Proc){work, work, func(p *sched.Proc) { wg.Wait() }}
		}},
	} {
		t.Run(prog.name, func(t *testing.T) {
			full, nf := classesOf(t, 2, false, prog.bodies)
			red, nr := classesOf(t, 2, true, prog.bodies)
			for c := range full {
				if !red[c] {
					t.Fatalf("the reduced search missed class %s (%d of the full search's %d classes reached)", c, len(red), len(full))
				}
			}
			t.Logf("%d executions, %d classes; reduced: %d executions", nf, len(full), nr)
		})
	}
}
