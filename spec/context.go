package spec

import "github.com/lockgen/lockgen/templates"

// context checks context = true (LockContext): the algorithm's waiting
// processes must be able to give up (templates.Entry.WhyNoAbort says why
// not), and until the Go backend lowers the abort code of shared-memory
// algorithms (issue 48's second phase) the key is refused even for those
// that can, rather than generating a lock without the LockContext asked
// for. Message-passing locks always have LockContext (distributed.go).
func (l *lockChecker) context(e *templates.Entry, lk *Lock) {
	c, st := l.boolean("context")
	if st != set || !c || e == nil {
		return
	}
	if !e.Abortable() {
		l.errorf("context", "context = true is not supported by %s: %s", e.Name, e.WhyNoAbort())
		return
	}
	l.errorf("context", "context = true: LockContext is not generated yet for shared-memory locks; %s's waiting processes can give up "+
		"(its abort code is defined and model-checked: lockgen explain %s), but lowering it to Go is still to come", e.Name, e.Name)
}
