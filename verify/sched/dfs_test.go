package sched_test

import (
	"fmt"
	"testing"

	"github.com/lockgen/lockgen/verify/internal/testlocks"
	"github.com/lockgen/lockgen/verify/sched"
)

// noteBodies runs passages of l by n goroutines, marking entry and exit
// with harness events (which the reduction orders, as verify's harness
// needs) and failing on two inside.
func noteBodies(n, passages int, l interface {
	Lock(int)
	Unlock(int)
}) []func(*sched.Proc) {
	in := 0
	bs := make([]func(*sched.Proc), n)
	for i := range bs {
		bs[i] = func(p *sched.Proc) {
			for range passages {
				p.Note(0, "acquire")
				l.Lock(i)
				p.Note(0, "enter")
				if in++; in > 1 {
					p.Fail("mutual exclusion", "g%d entered with %d inside", i, in-1)
				}
				p.Pause(0, "in CS")
				in--
				p.Note(0, "exit")
				l.Unlock(i)
			}
		}
	}
	return bs
}

// porPrograms are small programs whose every schedule within the bound
// completes: locks on registers, a Parker hand-over, plain registers.
// cheap: few enough schedules to run under every reduction control.
var porPrograms = []struct {
	name  string
	bound int
	cheap bool
	make  func() []func(*sched.Proc)
}{
	{"peterson 2x2", 2, true, func() []func(*sched.Proc) { return noteBodies(2, 2, &testlocks.Peterson{}) }},
	{"ticket 2x2", 2, false, func() []func(*sched.Proc) { return noteBodies(2, 2, &testlocks.Ticket{}) }},
	{"mcs 2x1", 2, true, func() []func(*sched.Proc) { return noteBodies(2, 1, &testlocks.MCS{}) }},
	{"tas 3x1", 2, true, func() []func(*sched.Proc) { return noteBodies(3, 1, &testlocks.TAS{}) }},
	{"ticket 3x1", 1, false, func() []func(*sched.Proc) { return noteBodies(3, 1, &testlocks.Ticket{}) }},
	{"handshake", 3, true, func() []func(*sched.Proc) { return handshake(true) }},
	{"registers 3x3", 2, true, func() []func(*sched.Proc) {
		regs := make([]sched.IntReg, 2)
		return bodies(3, func(p *sched.Proc) {
			regs[p.ID()%2].Load("L")
			regs[(p.ID()+1)%2].FetchAdd("A", 1)
			regs[0].Load("M")
		})
	}},
}

// classes runs every schedule of make within bound, reduced or not, and
// returns the class of each completed execution, the executions run and
// those the reduction cut short.
func classes(t *testing.T, make func() []func(*sched.Proc), bound int, reduce bool) (map[string]bool, int, int) {
	t.Helper()
	d := sched.NewDFS(bound)
	d.Reduce = reduce
	r := &sched.Recorder{Chooser: d}
	seen := map[string]bool{}
	for d.Next() {
		res := sched.Run(sched.Config{Chooser: r}, make())
		if res.Failure != nil {
			t.Fatalf("schedule %d: %v\n%s", d.Executions(), res.Failure, sched.FormatTrace(res.Events, 40))
		}
		class := r.Class()
		if !res.Pruned {
			seen[class] = true
		}
	}
	if !d.Exhausted() {
		t.Fatal("the search did not end")
	}
	return seen, d.Executions(), d.Pruned()
}

// missing lists the classes of want that got lacks.
func missing(want, got map[string]bool) []string {
	var out []string
	for c := range want {
		if !got[c] {
			out = append(out, c)
		}
	}
	return out
}

// TestDFSReductionCoversEveryClass: the reduced search reaches every
// class of schedules (Recorder.Class) the full search reaches within the
// same preemption bound, and runs fewer executions.
func TestDFSReductionCoversEveryClass(t *testing.T) {
	for _, prog := range porPrograms {
		t.Run(prog.name, func(t *testing.T) {
			full, nf, _ := classes(t, prog.make, prog.bound, false)
			red, nr, pruned := classes(t, prog.make, prog.bound, true)
			if m := missing(full, red); len(m) > 0 {
				t.Fatalf("the reduced search missed %d of %d classes, e.g. %s", len(m), len(full), m[0])
			}
			if nr >= nf {
				t.Errorf("the reduced search ran %d executions, the full one %d", nr, nf)
			}
			t.Logf("bound %d: %d executions, %d classes; reduced: %d executions (%d cut short), %d classes",
				prog.bound, nf, len(full), nr, pruned, len(red))
		})
	}
}

// TestDFSReductionControls: the comparison bites. A search that takes
// every pair of steps for independent misses classes, and so do plain
// sleep sets under the preemption bound (every explored sibling asleep,
// as without a bound): the bound's own rule (DFS.admit) is what keeps
// them sound.
func TestDFSReductionControls(t *testing.T) {
	for _, control := range []string{"independent", "unbounded-sleep"} {
		t.Run(control, func(t *testing.T) {
			restore := sched.SetReductionControl(control)
			defer restore()
			caught := []string{}
			for _, prog := range porPrograms {
				if !prog.cheap {
					continue
				}
				full, _, _ := classes(t, prog.make, prog.bound, false)
				red, _, _ := classes(t, prog.make, prog.bound, true)
				if m := missing(full, red); len(m) > 0 {
					caught = append(caught, fmt.Sprintf("%s (%d of %d)", prog.name, len(m), len(full)))
				}
			}
			if len(caught) == 0 {
				t.Fatalf("control %s missed no class of any program: the comparison does not bite", control)
			}
			t.Logf("control %s missed classes of %v", control, caught)
		})
	}
}
