//go:build lockgen_check

package sync

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lockgen/lockgen/verify/checked/internal/label"
	"github.com/lockgen/lockgen/verify/sched"
)

// monitor guards a primitive's state. Each operation is one scheduling
// point (an access to word, which must stay the struct's first field);
// the real mutex makes the state safe outside controlled executions and
// is never held across a scheduling point. word counts the operations
// that changed the state: the scheduler takes a write that leaves its
// register's word as it was for a read (verify/sched's reduction lets two
// reads pass each other), and a primitive's state can change where a
// summary of it (a count of waiters) would not.
type monitor struct {
	word    int64
	mu      sync.Mutex
	pending op // the operation under way (guarded by mu)
}

type op uint8

const (
	opRead  op = iota // reads the state
	opWrite           // changes it
	opTry             // may change it (reported as a CAS)
)

func (m *monitor) enter(o op) {
	kind := sched.OpLoad
	switch o {
	case opWrite:
		kind = sched.OpSwap
	case opTry:
		kind = sched.OpCAS
	}
	sched.Access(label.Caller(), kind, unsafe.Pointer(&m.word))
	m.mu.Lock()
	m.pending = o
}

// leave ends an operation that left the state as v (reported as read).
func (m *monitor) leave(v int64) { m.done(v, false) }

// leaveWrote ends an operation that set the state to v.
func (m *monitor) leaveWrote(v int64) { m.done(v, true) }

func (m *monitor) done(v int64, wrote bool) {
	o := m.pending
	if wrote {
		atomic.AddInt64(&m.word, 1)
	}
	m.mu.Unlock()
	if o == opTry {
		sched.ResultBool(wrote, wrote)
		return
	}
	sched.ResultInt(v, wrote)
}

// parker is one waiter's wake-up: the scheduler's Parker, so that a
// goroutine waiting in a checked primitive is not runnable until woken.
type parker struct{ p sched.Parker }

func (p *parker) park()                            { p.p.Park(label.Caller()) }
func (p *parker) parkTimeout(d time.Duration) bool { return p.p.ParkTimeout(label.Caller(), d) }
func (p *parker) unpark()                          { p.p.Unpark(label.Caller()) }
func (p *parker) parkContext(ctx context.Context) bool {
	return p.p.ParkContext(label.Caller(), ctx)
}
