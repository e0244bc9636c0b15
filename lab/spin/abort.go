package spin

import (
	"strings"

	"github.com/lockgen/lockgen/templates"
)

// The properties with aborts (promela.Options.Abort): the same checks,
// with every waiting process free to give up at any wait that has abort
// code, before any check, in any passage and any number of times, and to
// try again. Abort is opt-in: the plain properties' models are unchanged.
const (
	// AbortMutualExclusion: mutual exclusion (k holders, writers alone)
	// while processes give up and come back.
	AbortMutualExclusion Property = "abort-mutual-exclusion"
	// AbortDeadlock: no invalid end state: nobody stuck for ever in a wait
	// it cannot give up (a wait without abort code, or one inside abort
	// code, such as CLH-try's wait for its successor's handshake).
	AbortDeadlock Property = "abort-deadlock"
	// AbortFIFO: FIFO among the processes that do not give up: one that
	// gives up leaves the order at once.
	AbortFIFO Property = "abort-fifo"
	// AbortStarvation and AbortDeadlockFreedom: the claimed liveness for
	// the passages that do not give up (each passage chooses whether it
	// may; weak fairness makes one that may give up eventually), under
	// weak fairness. They are where a lost handoff shows: a release that
	// handed the lock to a waiter that gave up, leaving it held by nobody
	// and not free, starves every later passage, and a process that gave
	// up must still get in on a later passage that does not.
	AbortStarvation      Property = "abort-starvation-freedom"
	AbortDeadlockFreedom Property = "abort-deadlock-freedom"
	// AbortStarvationFinite and AbortDeadlockFreedomFinite are the same
	// claims in the runs where every process gives up finitely often
	// (promela.Options.AbortFinitely): the abortable-mutex literature's
	// assumption, checked for the entries whose liveness needs it
	// (templates.Entry.AbortFinitely).
	AbortStarvationFinite      Property = "abort-starvation-freedom-finite"
	AbortDeadlockFreedomFinite Property = "abort-deadlock-freedom-finite"
)

// abortBase maps each property with aborts to the property it extends.
var abortBase = map[Property]Property{
	AbortMutualExclusion: MutualExclusion,
	AbortDeadlock:        Deadlock,
	AbortFIFO:            FIFO,
	AbortStarvation:      Starvation,
	AbortDeadlockFreedom: DeadlockFreedom,

	AbortStarvationFinite:      Starvation,
	AbortDeadlockFreedomFinite: DeadlockFreedom,
}

// finiteAborts reports whether p assumes finitely many aborts.
func (p Property) finiteAborts() bool {
	return p == AbortStarvationFinite || p == AbortDeadlockFreedomFinite
}

// Base is the property p checks, with or without aborts.
func (p Property) Base() Property {
	if b, ok := abortBase[p]; ok {
		return b
	}
	return p
}

// Aborts reports whether p lets waiting processes give up.
func (p Property) Aborts() bool { _, ok := abortBase[p]; return ok }

// AbortProperties is what SPIN checks with aborts for an abortable entry:
// mutual exclusion, deadlock, the claimed liveness (assuming finitely
// many aborts where the entry says it needs that) and FIFO (not strong
// FIFO, bounded waiting, writer priority, FIFE or crash tolerance, which
// the model does not define with aborts). Nil for an entry that cannot
// abort.
func AbortProperties(e *templates.Entry, o templates.Options) []Property {
	if !e.Abortable() {
		return nil
	}
	props := e.PropsFor(o)
	ps := []Property{AbortMutualExclusion, AbortDeadlock}
	finite := e.AbortFinitely != ""
	switch {
	case strings.HasPrefix(props.Liveness, "starvation-free") && finite:
		ps = append(ps, AbortStarvationFinite)
	case strings.HasPrefix(props.Liveness, "starvation-free"):
		ps = append(ps, AbortStarvation)
	case strings.HasPrefix(props.Liveness, "deadlock-free") && finite:
		ps = append(ps, AbortDeadlockFreedomFinite)
	case strings.HasPrefix(props.Liveness, "deadlock-free"):
		ps = append(ps, AbortDeadlockFreedom)
	}
	if props.FIFOClaim() && props.Fairness != "strong FIFO" {
		ps = append(ps, AbortFIFO)
	}
	return ps
}
