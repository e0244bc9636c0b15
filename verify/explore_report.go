package verify

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// ExploreReport is what one Explore call did.
type ExploreReport struct {
	Subject string
	Seed    uint64
	Phases  []ExplorePhase
	// Totals over the phases.
	Executions int
	Steps      int64
	Elapsed    time.Duration
	// Exhausted: the exhaustive search ran every schedule within its
	// preemption bound (for its configuration).
	Exhausted bool
	// Shared counts the executions in which the critical section was
	// shared: two readers at once, or two holders of a k-exclusion lock.
	// A reader/writer lock whose count stays 0 never lets readers overlap.
	Shared int
	// Failure is the first failing execution, nil if none.
	Failure *ExploreFailure
}

// ExplorePhase is one strategy's share of an Explore call.
type ExplorePhase struct {
	Strategy   string // "random", "pct(d=3)", "dfs(P=2)", "replay"
	Goroutines int
	Passages   int
	Executions int
	Steps      int64
	Elapsed    time.Duration
	Exhausted  bool   // dfs: every schedule within the bound was run
	Bound      int    // dfs: the largest preemption bound whose schedules were all run (-1: none)
	Pruned     int    // dfs: executions the reduction cut short, every way on covered elsewhere
	Stopped    string // why it ended early: "budget", "limit", "failure"; "" if it ran to the end
	Crashes    int    // crash phase: goroutines that crashed, over its executions
}

// ExploreFailure describes a failing execution.
type ExploreFailure struct {
	Kind     sched.FailKind
	Message  string
	Strategy string // with the execution's number within its phase
	Token    string // ExploreReplay(Token) replays the execution
	Trace    string // the whole interleaving, numbered
	Events   int    // events before the failure
}

// String summarises the report in one line.
func (r *ExploreReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d executions, %d steps in %v", r.Subject, r.Executions, r.Steps,
		r.Elapsed.Round(time.Millisecond))
	if s := r.Elapsed.Seconds(); s > 0 {
		fmt.Fprintf(&b, " (%.0f executions/s, %.0f steps/s)", float64(r.Executions)/s, float64(r.Steps)/s)
	}
	b.WriteString(";")
	for _, p := range r.Phases {
		fmt.Fprintf(&b, " %s %dx%d: %d", p.Strategy, p.Goroutines, p.Passages, p.Executions)
		if p.Pruned > 0 {
			fmt.Fprintf(&b, " (%d cut short)", p.Pruned)
		}
		if p.Crashes > 0 {
			fmt.Fprintf(&b, " (%d crashed)", p.Crashes)
		}
		switch {
		case p.Exhausted:
			b.WriteString(" (exhausted)")
		case p.Stopped != "":
			fmt.Fprintf(&b, " (%s", p.Stopped)
			if p.Bound >= 0 {
				fmt.Fprintf(&b, "; exhausted P<=%d", p.Bound)
			}
			b.WriteString(")")
		}
		b.WriteString(";")
	}
	if r.Shared > 0 {
		fmt.Fprintf(&b, " shared in %d;", r.Shared)
	}
	fmt.Fprintf(&b, " seed %d; ", r.Seed)
	if r.Failure != nil {
		fmt.Fprintf(&b, "FAILED: %s", r.Failure.Kind)
	} else {
		b.WriteString("ok")
	}
	return b.String()
}

// report turns a failing execution into the report's Failure and a t.Errorf.
func (e *explorer) report(res *sched.Result, strategy, token string) {
	e.t.Helper()
	f := res.Failure
	if f == nil { // the execution completed without touching a register
		f = &sched.Failure{Kind: ExploreNotInstrumented, G: -1, Msg: notInstrumented, Events: len(res.Events)}
	}
	ef := &ExploreFailure{Kind: f.Kind, Message: f.Msg, Strategy: strategy, Token: token,
		Trace: sched.FormatTrace(res.Events[:f.Events], 0), Events: f.Events}
	e.rep.Failure = ef
	var b strings.Builder
	// The first line says what was violated, by whom, and how to replay it.
	head, rest, _ := strings.Cut(f.Msg, "\n")
	fmt.Fprintf(&b, "verify.Explore %s: %s: %s; replay: verify.ExploreReplay(%q)\n", e.s, f.Kind, head, token)
	if rest != "" {
		b.WriteString(rest + "\n")
	}
	fmt.Fprintf(&b, "strategy: %s (seed %d)\n", strategy, e.rep.Seed)
	if f.Events == 0 {
		b.WriteString("interleaving: (no events)\n")
	} else {
		fmt.Fprintf(&b, "interleaving (%d events, up to the failure):\n", f.Events)
		b.WriteString(sched.FormatTrace(res.Events[:f.Events], e.cfg.tail))
	}
	e.t.Errorf("%s", b.String())
}

const notInstrumented = "the lock made no access through instrumented registers: " +
	"the lock is not instrumented: run with -tags lockgen_check"
