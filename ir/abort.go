package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Abort: a process that gives up waiting (an abortable mutex, Raynal &
// Taubenfeld 2022, section 7, "Abortable mutex"; a try lock with timeout,
// Scott & Scherer 2001) leaves one of its waits and runs that wait's abort
// code, the paper's, which ends the acquire with Fail, or with Succeed
// where the lock can still come to it (CLH-try's abort swaps its
// predecessor's status and may find it available). A wait without abort
// code cannot be abandoned: a process there keeps waiting. Where it may
// leave is the wait's head: before any check of an await, before any
// iteration of a busy loop. The Go backend lowers it for LockContext
// (backend/golang/context.go: after a failed check, when the context is
// done); the Promela backend lets a process take it at any of those
// points, any number of times (promela.Options.Abort).

// AbortOf returns the abort code of a wait: an Await or a busy loop that
// may be abandoned. ok is false for any other statement.
func AbortOf(s Stmt) (abort Code, ok bool) {
	switch s := s.(type) {
	case Await:
		return s.Abort, s.Abort != nil
	case While:
		return s.Abort, s.Busy && s.Abort != nil
	case Repeat:
		return s.Abort, s.Busy && s.Abort != nil
	}
	return nil, false
}

// WithAbort returns the wait s with abort code abort (nil: none). It
// panics on a statement that is not a wait.
func WithAbort(s Stmt, abort Code) Stmt {
	switch w := s.(type) {
	case Await:
		w.Abort = abort
		return w
	case While:
		w.Abort = abort
		return w
	case Repeat:
		w.Abort = abort
		return w
	}
	panic(fmt.Sprintf("ir: abort code on %T, which is not a wait", s))
}

// AbortPoint is a wait that may be abandoned, with its abort code.
type AbortPoint struct {
	Op    string // the operation (Acquire, RAcquire)
	Wait  Stmt
	Abort Code
}

// AbortPoints lists the waits of the acquires that may be abandoned, in
// program order.
func (a *Algorithm) AbortPoints() []AbortPoint {
	var out []AbortPoint
	for _, op := range []NamedCode{{"Acquire", a.Acquire}, {"RAcquire", a.RAcquire}} {
		WalkStmts(op.Code, func(s Stmt) {
			if abort, ok := AbortOf(s); ok {
				out = append(out, AbortPoint{Op: op.Name, Wait: s, Abort: abort})
			}
		})
	}
	return out
}

// Abortable reports whether some wait of the algorithm may be abandoned.
func (a *Algorithm) Abortable() bool { return len(a.AbortPoints()) > 0 }

// WalkAll is WalkStmts that also descends into the abort code of waits,
// after the wait itself: every statement a process may run.
func WalkAll(code Code, fn func(Stmt)) {
	WalkStmts(code, func(s Stmt) {
		fn(s)
		if abort, ok := AbortOf(s); ok {
			WalkAll(abort, fn)
		}
	})
}

// Cost is what an abort costs: the shared accesses its abort code makes on
// its longest way, and whether it loops or waits (then its own accesses
// do not bound it).
type Cost struct {
	Steps int      // shared accesses on the longest way through, loops counted once
	Loops []string // labels of the loops it runs (bounded by their bounds, not counted)
	Waits []string // labels of the waits it makes: it may wait for other processes
}

// Bounded reports whether the abort finishes in a number of its own steps
// that no other process can stretch: it makes no wait.
func (c Cost) Bounded() bool { return len(c.Waits) == 0 }

func (c Cost) String() string {
	switch {
	case len(c.Waits) > 0:
		return "unbounded: it waits at " + labelList(c.Waits) + " for other processes"
	case len(c.Loops) > 0:
		return fmt.Sprintf("bounded: %s per iteration of its loop at %s, and no wait", plural(c.Steps, "shared access"), labelList(c.Loops))
	case c.Steps == 0:
		return "nothing: it leaves at once"
	}
	return "bounded: " + plural(c.Steps, "shared access")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ses", n, what)
}

// labelList names lines once each, in order.
func labelList(ls []string) string {
	var out []string
	for _, l := range ls {
		if l == "" {
			l = "an unlabelled line"
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, ", ")
}

// AbortCost measures abort code.
func AbortCost(abort Code) Cost {
	var c Cost
	c.Steps = costOf(abort, &c)
	return c
}

// costOf is the accesses of the longest way through code, noting loops
// and waits in c.
func costOf(code Code, c *Cost) int {
	n := 0
	for _, s := range code {
		n += accesses(s)
		switch s := s.(type) {
		case If:
			n += max(costOf(s.Then, c), costOf(s.Else, c))
		case While:
			c.Loops = append(c.Loops, s.Label())
			if s.Busy {
				c.Waits = append(c.Waits, s.Label())
			}
			n += costOf(s.Body, c)
		case Repeat:
			c.Loops = append(c.Loops, s.Label())
			if s.Busy {
				c.Waits = append(c.Waits, s.Label())
			}
			n += costOf(s.Body, c)
		case For:
			c.Loops = append(c.Loops, s.Label())
			n += costOf(s.Body, c)
		case Await:
			c.Waits = append(c.Waits, s.Label())
		}
	}
	return n
}

// accesses counts the shared accesses a statement makes itself (its own
// expressions and its write), not those of nested statements.
func accesses(s Stmt) int {
	n := 0
	for _, e := range StmtExprs(s) {
		n += len(Loads(e))
	}
	if WrittenLoc(s) != nil {
		n++
	}
	return n
}

// terminates reports whether code never falls through its end: every way
// through it ends in Succeed or Fail (or in a loop it never leaves).
func terminates(code Code) bool {
	if len(code) == 0 {
		return false
	}
	switch s := code[len(code)-1].(type) {
	case Succeed, Fail:
		return true
	case If:
		return terminates(s.Then) && terminates(s.Else)
	case While:
		b, ok := s.Cond.(BoolConst)
		return ok && b.V
	}
	return false
}
