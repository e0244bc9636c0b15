package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Aborts (Options.Abort): a process may give up any wait that has abort
// code, at the wait's head, by an option of its own beside the wait's:
//
//	do
//	:: (cond) -> break                  the wait ends
//	:: atomic { g_abt[lg_me] -> … }     it gives up (g_abt: this passage may)
//	   …the abort code…; goto lg_end   (Fail) or goto lg_cs (Succeed)
//	od
//
// An await that blocks on one read becomes such a loop; a busy loop gets
// the option at its head, and its exit test (an else before) becomes the
// negated condition, since an else would never be taken beside an option
// that is always open. Leaving between the reads of one check is leaving
// before it, which the option covers: reads change nothing others see.

// checkAbort refuses what the abort lowering does not model.
func (l *lower) checkAbort() error {
	o := l.o
	if !o.Abort {
		if o.AbortFinitely {
			return fmt.Errorf("finitely many aborts without aborts")
		}
		return nil
	}
	switch {
	case !l.a.Abortable():
		return fmt.Errorf("aborts requested, but no wait of %s has abort code", l.a.Name)
	case o.Fold:
		return fmt.Errorf("aborts are modelled without folding (Options.Fold)")
	case o.Crashes > 0:
		return fmt.Errorf("aborts and crashes are not modelled together")
	case o.AbortFinitely && !l.patience():
		return fmt.Errorf("finitely many aborts is an assumption of the liveness claims: choose one")
	case o.Checks&(StrongFIFO|BoundedWaiting|WriterPriority|FIFE|Quiescence) != 0:
		return fmt.Errorf("with aborts the model checks mutual exclusion, deadlock, FIFO among the processes that do not give up, and the liveness claims for them; not strong FIFO, bounded waiting, writer priority, FIFE or quiescence")
	}
	return nil
}

// patience reports whether each passage chooses whether it may give up
// (the liveness claims speak of those that may not).
func (l *lower) patience() bool {
	return l.o.Abort && l.o.Checks&(Starvation|DeadlockFreedom) != 0
}

// aborts reports whether a process at wait s may give up here.
func (l *lower) aborts(s ir.Stmt) bool {
	_, ok := ir.AbortOf(s)
	return ok && l.o.Abort && l.op == l.curAcquire
}

// abortOption writes the option that gives up wait s: the decision (a step
// of its own, with the ghosts' bookkeeping) and then the abort code, which
// never falls through (ir.Check).
func (l *lower) abortOption(s ir.Stmt) {
	if !l.aborts(s) {
		return
	}
	abort, _ := ir.AbortOf(s)
	guard := "true"
	if l.patience() {
		guard = "g_abt[lg_me]"
	}
	saved := l.mark
	l.mark = marker(l.op, s.Label(), "give up waiting")
	l.emit(":: " + atomicGuard(guard, strings.Join(l.abortGhosts(), "; "), "") + ";")
	l.mark = saved
	l.ind++
	l.stmts(abort)
	l.ind--
}

// abortGhosts is the bookkeeping of a process that gives up: it no longer
// holds a place in the FIFO order, so those behind it may pass it.
func (l *lower) abortGhosts() []string {
	var out []string
	if l.o.Checks&FIFO != 0 {
		out = append(out, "g_dw = g_dw & ~(1 << lg_me)")
		for j := 0; j < l.n; j++ {
			out = append(out, fmt.Sprintf("g_ahead[%d] = g_ahead[%d] & ~(1 << lg_me)", j, j))
		}
	}
	return out
}

// abortBegin is the choice a passage makes at its start: whether it may
// give up (patience).
func (l *lower) abortBegin() string {
	if !l.patience() {
		return ""
	}
	return "if :: g_abt[lg_me] = 1 :: skip fi"
}

// abortEnd is the bookkeeping of a passage that ends, entering or giving
// up: no longer trying, and the patience choice cleared.
func (l *lower) abortEnd(entered bool) []string {
	if !l.patience() {
		return nil
	}
	if entered {
		return []string{"g_abt[lg_me] = 0"}
	}
	return []string{"g_trying[lg_me] = 0", "g_abt[lg_me] = 0"}
}

// trying is the liveness claims' "process i is trying" (and may not give
// up, with patience).
func (l *lower) trying(i int) string {
	if l.patience() {
		return fmt.Sprintf("(g_trying[%d] && !g_abt[%d])", i, i)
	}
	return fmt.Sprintf("g_trying[%d]", i)
}

// abortAssumption is the premise the liveness claims take under
// AbortFinitely: from some point on, no passage may give up. "" when the
// claim holds unconditionally.
func (l *lower) abortAssumption() string {
	if !l.o.AbortFinitely {
		return ""
	}
	var none []string
	for i := 0; i < l.n; i++ {
		none = append(none, fmt.Sprintf("!g_abt[%d]", i))
	}
	return "(<> [] (" + strings.Join(none, " && ") + ")) -> "
}
