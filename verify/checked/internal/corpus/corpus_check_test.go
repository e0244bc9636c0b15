//go:build lockgen_check

package corpus

import (
	"fmt"
	"testing"

	"github.com/lockgen/lockgen/verify/sched"
)

// The exploration each program gets: bounded exhaustive, then random and
// PCT schedules.
const (
	dfsBound     = 2    // preemptions
	dfsLimit     = 5000 // schedules
	randomRuns   = 300
	pctRuns      = 300
	pctDepth     = 3
	pctStepsHint = 60
)

// runScheduled runs one instance of p under the controlled scheduler with
// chooser c; it reports what went wrong, or "".
func runScheduled(p Program, c sched.Chooser) (string, *sched.Result) {
	in := p.New()
	var bodies []func(*sched.Proc)
	for _, body := range in.Bodies {
		bodies = append(bodies, func(*sched.Proc) { body() })
	}
	res := sched.Run(sched.Config{Chooser: c}, bodies)
	if res.Failure != nil {
		return res.Failure.Error(), res
	}
	if in.Check != nil {
		in.Check(in)
	}
	return in.Failure(), res
}

// explore runs p's schedules until one goes wrong; it returns what went
// wrong with the schedule's strategy and trace, or "" with the number of
// schedules run.
func explore(p Program) (failure string, schedules int) {
	d := sched.NewDFS(dfsBound)
	for d.Next() && d.Executions() <= dfsLimit {
		schedules++
		if msg, res := runScheduled(p, d); msg != "" {
			return fmt.Sprintf("dfs schedule %d: %s\n%s", d.Executions(), msg, sched.FormatTrace(res.Events, 30)), schedules
		}
	}
	n := len(p.New().Bodies)
	for i := range randomRuns {
		schedules++
		r := sched.NewRandom(sched.Seed(1, i))
		if msg, res := runScheduled(p, r); msg != "" {
			return fmt.Sprintf("%s: %s\n%s", r.Token(), msg, sched.FormatTrace(res.Events, 30)), schedules
		}
	}
	for i := range pctRuns {
		schedules++
		c := sched.NewPCT(sched.Seed(2, i), n, pctDepth, pctStepsHint)
		if msg, res := runScheduled(p, c); msg != "" {
			return fmt.Sprintf("%s: %s\n%s", c.Token(), msg, sched.FormatTrace(res.Events, 30)), schedules
		}
	}
	return "", schedules
}

// TestCorrectProgramsExplore: no schedule of a correct program goes wrong
// on the checked primitives (the real ones run it: corpus_test.go).
func TestCorrectProgramsExplore(t *testing.T) {
	for _, p := range correct() {
		t.Run(p.Name, func(t *testing.T) {
			if msg, _ := explore(p); msg != "" {
				t.Fatalf("a correct program failed under the scheduler:\n%s", msg)
			}
		})
	}
}

// TestControlsCaught: exploring each control finds its bug.
func TestControlsCaught(t *testing.T) {
	for _, p := range controls() {
		t.Run(p.Name, func(t *testing.T) {
			msg, n := explore(p)
			if msg == "" {
				t.Fatalf("%d schedules, none caught the planted bug: %s", n, p.Bug)
			}
			t.Logf("caught: %s", firstLine(msg))
		})
	}
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
