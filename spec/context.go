package spec

import "github.com/lockgen/lockgen/templates"

// context checks context = true (LockContext): the algorithm's waiting
// processes must be able to give up (templates.Entry.WhyNoAbort says why
// not), and the Go backend lowers the abort code of an acquire only:
// RLockContext, a reader's, is still to come, so a reader/writer lock is
// refused rather than generated without the RLockContext asked for.
// Message-passing locks always have LockContext (distributed.go).
func (l *lockChecker) context(e *templates.Entry, lk *Lock) {
	c, st := l.boolean("context")
	if st != set || !c || e == nil {
		return
	}
	if !e.Abortable() {
		l.errorf("context", "context = true is not supported by %s: %s", e.Name, e.WhyNoAbort())
		return
	}
	if lk.Mode.Readers() {
		l.errorf("context", "context = true is not supported yet for reader/writer locks: RLockContext (a reader's abort) is not lowered to Go yet; "+
			"%s's waiting writers and readers can give up (lockgen explain %s)", e.Name, e.Name)
		return
	}
	lk.Context = true
}
