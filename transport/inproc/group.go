package inproc

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lockgen/lockgen/transport/internal/mailbox"
)

// ErrCrashed is the error of an endpoint a test crashed (Crash, Restart).
var ErrCrashed = errors.New("inproc: the process crashed")

// ErrLeaseLost is the error of an endpoint Isolate cut off, once its
// lease (Options.LockDelay) has run out.
var ErrLeaseLost = errors.New("inproc: the process lost contact with its group and its lease ran out")

// errLeft is the error of an endpoint whose process left its group.
var errLeft = errors.New("inproc: the process left its group")

// Member is an endpoint that keeps a group (the generated locks' Group):
// the network itself plays the membership service, so that a test can
// crash, cut off (pause past the lease), restart and remove processes in
// one program and see the
// survivors go on in a new epoch (lockgen's docs/distributed.md, "Epoch
// protocol"). Every join, leave and crash is a new epoch whose view goes
// to every member; a crash's or a cut's view carries Options.LockDelay. What the
// network cannot do is stop a crashed process's goroutines: a test must
// keep them away from what the lock protects itself.
type Member struct {
	*Endpoint
	views  *mailbox.Mailbox
	joined bool
}

// group is the network's membership: the live members by id, and the
// epoch.
type group struct {
	algorithm string
	epoch     int64
	members   map[int]*Member
	all       []*Member // every Member made, to close their views
	view      []int64   // the current epoch's
	plant     string    // Options.plant
}

// The bugs a test can plant in a group (Options.plant), each breaking
// one claim of docs/distributed.md's failure model: the negative
// controls of the fault checks (faults_controls_test.go).
const (
	// plantRestartInPlace: a crash goes unnoticed and the process that
	// comes back with its id takes its old incarnation's place in the
	// running epoch, from that epoch's initial state, instead of joining
	// as a new incarnation in a new epoch.
	plantRestartInPlace = "restart-in-place"
	// plantNoLockDelay: the survivors of a crash or a cut go on at once,
	// without waiting out the lost process's lease (Chubby's lock-delay).
	plantNoLockDelay = "no-lock-delay"
	// plantEpochOverflow: the group numbers its epochs past what a fencing
	// token holds (2^41 epochs at netrt's 22-bit shift), so that a new
	// epoch's tokens fall below the last one's.
	plantEpochOverflow = "epoch-overflow"
)

// Member returns process i's member: its newest incarnation.
func (nw *Network) Member(i int) *Member {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, m := range nw.group.all {
		if m.Endpoint == nw.ends[i] {
			return m
		}
	}
	return nw.newMember(nw.ends[i])
}

func (nw *Network) newMember(e *Endpoint) *Member {
	m := &Member{Endpoint: e, views: mailbox.New()}
	nw.group.all = append(nw.group.all, m)
	return m
}

// Crash stops process i's newest incarnation for good, as kill -9
// would: its Receive channel closes (its lock fails with ErrCrashed), it
// sends and receives nothing more, and the group goes on without it
// after Options.LockDelay.
func (nw *Network) Crash(i int) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.crash(i)
}

func (nw *Network) crash(i int) {
	e := nw.ends[i]
	if e.dead != nil || nw.closed {
		return
	}
	e.dead = ErrCrashed
	e.box.Close()
	if nw.group.plant == plantRestartInPlace {
		return // the group does not notice
	}
	if m := nw.group.members[i]; m != nil && m.Endpoint == e {
		nw.group.remove(m, nw.opts.LockDelay)
	}
}

// Isolate cuts process i's newest incarnation off, as a pause past its
// lease (SIGSTOP, a long collection) or a partition would: it goes on
// running, but what it sends and what is sent to it is lost; its lease
// runs out Options.LockDelay later (Err is ErrLeaseLost, its Receive
// channel closes), and the group goes on without it after as long.
func (nw *Network) Isolate(i int) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	e := nw.ends[i]
	if e.dead != nil || nw.closed || e.cut.Load() {
		return
	}
	e.cut.Store(true)
	e.cutAt = time.Now()
	time.AfterFunc(nw.opts.LockDelay, func() {
		nw.mu.Lock()
		defer nw.mu.Unlock()
		if e.dead == nil && !nw.closed {
			e.dead = ErrLeaseLost
			e.box.Close()
		}
	})
	if m := nw.group.members[i]; m != nil && m.Endpoint == e {
		nw.group.remove(m, nw.opts.LockDelay)
	}
}

// Restart crashes process i's newest incarnation (if it still runs) and
// returns a new one, which joins when a lock is made on it.
func (nw *Network) Restart(i int) *Member {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.crash(i)
	e := &Endpoint{nw: nw, id: i, box: mailbox.New()}
	nw.ends[i] = e
	return nw.newMember(e)
}

// Join makes m's process a member (netrt's Group): it refuses another n,
// another algorithm than the group's, an id a live member holds, and an
// endpoint that crashed or left.
func (m *Member) Join(self, n int, algorithm string) error {
	nw := m.nw
	nw.mu.Lock()
	defer nw.mu.Unlock()
	g := &nw.group
	switch {
	case nw.closed:
		return ErrClosed
	case m.dead != nil:
		return m.dead
	case m.joined:
		return fmt.Errorf("inproc: process %d has joined already", m.id)
	case self != m.id || n != len(nw.ends):
		return fmt.Errorf("inproc: process %d of %d joins on endpoint %d of %d", self, n, m.id, len(nw.ends))
	case g.algorithm != "" && algorithm != g.algorithm:
		return fmt.Errorf("inproc: process %d: the group runs %s, not %s", self, g.algorithm, algorithm)
	case g.members[self] != nil && g.plant == plantRestartInPlace && g.members[self].dead != nil:
		// The old incarnation's place in the running epoch, unannounced.
		g.members[self] = m
		m.joined = true
		m.views.Put(slices.Clone(g.view))
		return nil
	case g.members[self] != nil:
		return fmt.Errorf("inproc: process %d is already a member", self)
	}
	g.algorithm = algorithm
	if g.members == nil {
		g.members = map[int]*Member{}
	}
	g.members[self] = m
	m.joined = true
	g.change(0)
	return nil
}

// Views returns the channel m's views arrive on.
func (m *Member) Views() <-chan []int64 { return m.views.Out() }

// Leave removes m's process from the group: the others go on at once if
// clean, after Options.LockDelay if not. The endpoint stops.
func (m *Member) Leave(clean bool) error {
	nw := m.nw
	nw.mu.Lock()
	defer nw.mu.Unlock()
	if m.dead != nil || nw.closed {
		return nil
	}
	m.dead = errLeft
	m.box.Close()
	if nw.group.members[m.id] == m {
		delay := nw.opts.LockDelay
		if clean {
			delay = 0
		}
		nw.group.remove(m, delay)
	}
	return nil
}

// NewEpoch starts the next epoch with the same members (netrt's Group).
func (m *Member) NewEpoch() error {
	nw := m.nw
	nw.mu.Lock()
	defer nw.mu.Unlock()
	if m.dead != nil || nw.closed {
		return ErrClosed
	}
	nw.group.change(0)
	return nil
}

// remove takes m out and starts the next epoch; nw.mu is held.
func (g *group) remove(m *Member, delay time.Duration) {
	delete(g.members, m.id)
	m.views.Close()
	if g.plant == plantNoLockDelay {
		delay = 0
	}
	g.change(delay)
}

// change starts the next epoch: its view goes to every member.
func (g *group) change(delay time.Duration) {
	if g.plant == plantEpochOverflow && g.epoch == 0 {
		g.epoch = 1<<41 - 8 // a few epochs before the tokens wrap
	}
	g.epoch++
	ids := make([]int, 0, len(g.members))
	for id := range g.members {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	view := []int64{g.epoch, int64(delay)}
	for _, id := range ids {
		view = append(view, int64(id))
	}
	g.view = view
	for _, id := range ids {
		g.members[id].views.Put(slices.Clone(view))
	}
}

// close closes every member's views; nw.mu is held.
func (g *group) close() {
	for _, m := range g.all {
		m.views.Close()
	}
}
