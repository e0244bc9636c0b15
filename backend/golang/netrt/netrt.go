package netrt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Transport carries one process's messages (see lockgen's package
// transport for the contract): Send delivers msg to process to, in order
// after the earlier messages to the same process, without blocking for
// long; Receive is the channel this process's messages arrive on, closed
// when the transport closes or loses contact.
type Transport interface {
	Send(to int, msg []int64) error
	Receive() <-chan []int64
}

// Group is what a Transport adds when it keeps the group's membership
// (lockgen's transport/natstransport does): failure detection, leases,
// and the epochs in which the algorithm runs (lockgen's
// docs/distributed.md, "Epoch protocol"). A lock over a Transport that
// is not a Group runs one epoch, numbered 0, of all n processes: the
// crash-free path.
type Group interface {
	// Join makes the process a member: it announces its id and n (as
	// given to New) and the algorithm, and returns once the process is
	// a member, or with the error that refuses it (another n or
	// algorithm in the group, a live process with the same id).
	Join(self, n int, algorithm string) error
	// Views returns the channel the group's views arrive on, each a
	// newer epoch that has this process as a member: [epoch, the
	// lock-delay in nanoseconds from the view's arrival, the members'
	// ids in increasing order...].
	Views() <-chan []int64
	// Leave leaves the group. Clean: the process holds nothing, the
	// others go on at once. Not clean: it may still be inside, so the
	// others wait out its lease.
	Leave(clean bool) error
	// NewEpoch asks for the next epoch with the same members: the
	// current one has used up its fencing tokens.
	NewEpoch() error
}

var (
	// ErrClosed is the error of a lock whose transport closed without
	// saying why.
	ErrClosed = errors.New("lockgen: the lock's transport closed")
	// ErrLockClosed is the error of a lock after its Close.
	ErrLockClosed = errors.New("lockgen: the lock was closed")
	// ErrEpochChanged is the error of a request in flight when the
	// group's membership changed: the epoch it was made in is over and
	// nothing is held. Ask again (Lock does, and every request of a lock
	// made with RetryAcrossEpochs).
	ErrEpochChanged = errors.New("lockgen: the group changed while the request was in flight; nothing is held")
	// ErrInPassage is the error of a request made while the process is
	// already in a passage: a distributed lock is held by its process,
	// not by a goroutine (share it between goroutines with a sync.Mutex).
	ErrInPassage = errors.New("lockgen: the process is already in a passage (a distributed lock is held by its process, not by a goroutine)")
)

// Option changes how a lock behaves; pass it to the lock's constructor.
type Option func(*netOptions)

type netOptions struct {
	retry bool
}

// RetryAcrossEpochs makes a request that was in flight when the group
// changed ask again in the next epoch instead of returning
// ErrEpochChanged (Lock and RLock always do).
func RetryAcrossEpochs() Option { return func(o *netOptions) { o.retry = true } }

// netAlg is the generated part of a lock: the lowered algorithm.
type netAlg interface {
	// reset makes the algorithm's state its initial one for process self
	// of n (the epoch's index and member count).
	reset()
	// enabled reports whether await id's condition holds.
	enabled(id int) bool
	// handle runs the handler of a message (kind, arguments); an error
	// means the message is malformed and the handler has not run.
	handle(kind int64, args []int64) error
	// acquire and release run the acquire and release routines of a
	// writer (write) or a reader; they return the error of an await that
	// gave up.
	acquire(write bool) error
	release(write bool) error
	// releaseWaits reports whether a release routine has an await: then
	// the caller does not wait for it (the paper's application goes on
	// while its process finishes the release).
	releaseWaits(write bool) bool
	// begin runs the algorithm's start: the messages the process puts on
	// the network before it runs anything else (Le Lann's token).
	begin()
}

// netOut is a message in the outbox.
type netOut struct {
	to  int
	msg []int64
}

// The words every message starts with: [kind, the sender's index in the
// epoch, the epoch, the sender's fencing clock], then the arguments.
const (
	netHeader = 4
	// netReady is the runtime's READY: the sender has switched to the
	// message's epoch and holds nothing from an earlier one.
	netReady int64 = -1
	// netKeep bounds the messages kept for a later epoch.
	netKeep = 1 << 16
	// netEpochShift places the epoch in a fencing token: the epoch times
	// 2²², plus the token clock within the epoch (a group's epochs count
	// milliseconds: 41 bits last until 2094). Over a transport without a
	// group the clock has all 63 bits.
	netEpochShift = 22
	netClockMask  = 1<<netEpochShift - 1
)

// netEpoch is what a lock's current epoch admits.
type netEpoch int8

const (
	netOpen    netEpoch = iota // passages run
	netClosing                 // a newer view arrived: the epoch is over
	netOpening                 // switched: waits for every READY and the lock-delay
)

// netProc is one process's runtime. mu is the process's own mutual
// exclusion: a handler run, and a routine between two awaits, are atomic
// steps, as the definitions assume.
type netProc struct {
	mu   sync.Mutex
	cond sync.Cond
	typ  string // the lock's type, for messages
	id   int    // the process's id, as given to New
	size int    // the group's n, as given to New
	// self and n are the algorithm's: the process's index among the
	// epoch's members and their number; members maps an index to an id.
	self, n int
	members []int
	tr      Transport
	grp     Group // nil: one epoch of all processes
	alg     netAlg
	opts    netOptions
	slot    chan struct{} // one passage at a time, its leftovers included
	user    bool          // a caller's passage is in progress (Lock to Unlock)
	busy    int           // routines running: the epoch cannot end under them
	out     []netOut
	waitAt  int  // the await the routine stands at (0: none)
	resume  bool // a handler enabled it: it runs before the next message
	trying  bool // TryLock: an await that does not hold gives up
	fence   int64
	held    int8  // 0, netRead or netWrite: the passage in progress
	heldIn  int64 // the epoch the passage was granted in
	pass    int64
	err     error
	done    chan struct{}

	epoch  int64    // the current epoch (-1 before the first view)
	state  netEpoch // what it admits
	opened chan struct{}
	next   []int64   // the newest view not switched to yet
	nextAt time.Time // when it arrived
	ready  []bool    // READY of the current epoch, by index
	nReady int
	late   bool      // the epoch's lock-delay has not passed
	kept   [][]int64 // messages of later epochs
	// dropped counts the messages dropped: of an epoch that is over,
	// malformed, or beyond netKeep.
	dropped int64
}

const (
	netRead  int8 = 1
	netWrite int8 = 2
)

// errWouldWait ends a TryLock's acquire at an await that does not hold.
var errWouldWait = errors.New("lockgen: would wait")

// start makes p process self of n over tr, running alg (the algorithm
// called algorithm, for a lock of type typ), joins the group if tr keeps
// one, and starts the dispatcher.
func (p *netProc) start(self, n int, tr Transport, alg netAlg, typ, algorithm string, opts []Option) error {
	if n < 1 || self < 0 || self >= n {
		return fmt.Errorf("lockgen: process %d of %d: want 0 <= self < n", self, n)
	}
	if tr == nil {
		return errors.New("lockgen: nil transport")
	}
	p.typ, p.id, p.size, p.tr, p.alg = typ, self, n, tr, alg
	for _, o := range opts {
		o(&p.opts)
	}
	p.cond.L = &p.mu
	p.slot = make(chan struct{}, 1)
	p.done = make(chan struct{})
	p.opened = make(chan struct{})
	p.grp, _ = tr.(Group)
	if p.grp != nil {
		p.epoch, p.state = -1, netClosing
		if err := p.grp.Join(self, n, algorithm); err != nil {
			return err
		}
	} else {
		// The crash-free path: epoch 0 of every process, open at once.
		p.mu.Lock()
		p.next = make([]int64, 2+n)
		for i := range n {
			p.next[2+i] = int64(i)
		}
		p.nextAt = time.Now()
		p.switchEpoch()
		err := p.err
		p.mu.Unlock()
		if err != nil {
			return err
		}
	}
	go p.dispatch()
	return nil
}

// made panics unless p was made by its constructor: the zero value has
// no transport and would wait for ever.
func (p *netProc) made(method string) {
	if p.slot == nil {
		typ, _, _ := strings.Cut(method, ".")
		panic("lockgen: " + method + " on a " + typ + " not made by New" + typ)
	}
}

// send queues a message to the process at index to of the epoch; flush
// sends the queue. Both run with mu held, so one process's messages
// leave in the order its steps sent them.
func (p *netProc) send(to, kind int64, args ...int64) {
	msg := make([]int64, 0, netHeader+len(args))
	msg = append(msg, kind, int64(p.self), p.epoch, p.fence)
	p.out = append(p.out, netOut{int(to), append(msg, args...)})
}

func (p *netProc) flush() {
	for i, o := range p.out {
		switch {
		case p.err != nil:
		case o.to < 0 || o.to >= p.n:
			p.fail(fmt.Errorf("lockgen: a message to process %d of %d: the algorithm's state is corrupt (a member sent what the algorithm cannot send)", o.to, p.n))
		default:
			if err := p.tr.Send(p.members[o.to], o.msg); err != nil {
				p.fail(fmt.Errorf("lockgen: sending to process %d: %w", p.members[o.to], err))
			}
		}
		p.out[i] = netOut{}
	}
	p.out = p.out[:0]
}

// fail breaks the lock for good: every wait ends with err. A lock in a
// group leaves it: cleanly if no passage holds it.
func (p *netProc) fail(err error) {
	if p.err != nil {
		return
	}
	p.err = err
	close(p.done)
	p.cond.Broadcast()
	if p.grp != nil && err != ErrLockClosed {
		go p.grp.Leave(p.held == 0)
	}
}

// await is a routine's wait for await id: it ends its atomic step (the
// outbox leaves, a handler that enabled the routine may go on) and sleeps
// until a handler makes the condition hold, or the epoch ends.
func (p *netProc) await(id int) error {
	if p.alg.enabled(id) {
		return nil
	}
	if p.trying {
		return errWouldWait
	}
	p.endStep()
	p.waitAt = id
	for !p.alg.enabled(id) && p.err == nil && p.state == netOpen {
		p.cond.Wait()
	}
	p.waitAt = 0
	switch {
	case p.err != nil:
		return p.err
	case p.state != netOpen:
		return ErrEpochChanged
	}
	return nil
}

// endStep ends a routine's atomic step: its messages leave, and the
// dispatcher, if it waits for the routine to run first, goes on.
func (p *netProc) endStep() {
	p.flush()
	if p.resume {
		p.resume = false
		p.cond.Broadcast()
	}
}

// dispatch hands the messages and the group's views to the process as
// they arrive.
func (p *netProc) dispatch() {
	recv := p.tr.Receive()
	var views <-chan []int64
	if p.grp != nil {
		views = p.grp.Views()
	}
	for recv != nil {
		select {
		case m, ok := <-recv:
			if !ok {
				recv = nil
				break
			}
			p.mu.Lock()
			p.deliver(m)
			p.mu.Unlock()
		case v, ok := <-views:
			if !ok {
				views = nil
				break
			}
			p.mu.Lock()
			p.view(v)
			p.mu.Unlock()
		}
	}
	err := ErrClosed
	if e := p.trErr(); e != nil {
		err = fmt.Errorf("lockgen: the lock's transport closed: %w", e)
	}
	p.mu.Lock()
	p.fail(err)
	p.mu.Unlock()
}

// trErr is the transport's error, if it says.
func (p *netProc) trErr() error {
	if e, ok := p.tr.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// deliver takes a message in: one of the current epoch is handled, one of
// a later epoch kept until the process switches to it, any other dropped.
func (p *netProc) deliver(m []int64) {
	switch {
	case p.err != nil:
	case len(m) < netHeader:
		p.dropped++
	case m[2] < p.epoch || m[2] == p.epoch && p.state == netClosing:
		p.dropped++
	case m[2] > p.epoch:
		if len(p.kept) < netKeep {
			p.kept = append(p.kept, m)
		} else {
			p.dropped++
		}
	default:
		p.handle(m)
	}
}

// handle runs a message of the current epoch. A routine that the handler
// enables runs its next step before the next message is handled: the
// definitions assume it (without it dCREW loses its token).
func (p *netProc) handle(m []int64) {
	if m[0] == netReady {
		if j := m[1]; j >= 0 && j < int64(p.n) && !p.ready[j] {
			p.ready[j] = true
			p.nReady++
			p.open()
		}
		return
	}
	fence := p.fence
	p.fence = max(p.fence, m[3]) // before the handler: what it sends carries it
	if err := p.handler(m); err != nil {
		p.fence = fence // a malformed message: nothing ran
		p.dropped++
		return
	}
	p.flush()
	if p.waitAt != 0 && p.alg.enabled(p.waitAt) { // control resume-later: if false {
		p.resume = true
		p.cond.Broadcast()
		for p.resume && p.err == nil {
			p.cond.Wait()
		}
	}
}

// handler runs the algorithm's handler of m. A message that makes it
// panic (an index out of range: only a broken or forged sender's) fails
// the lock rather than the program.
func (p *netProc) handler(m []int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.fail(fmt.Errorf("lockgen: a message the algorithm cannot take, %v: %v", m, r))
		}
	}()
	return p.alg.handle(m[0], m[netHeader:])
}

// view takes a newer view in: the current epoch is over. The process
// switches once no passage holds the lock and no routine runs.
func (p *netProc) view(v []int64) {
	if p.err != nil || len(v) < 3 || v[0] <= p.epoch || p.next != nil && v[0] <= p.next[0] {
		return
	}
	p.next, p.nextAt = v, time.Now()
	p.state = netClosing
	p.cond.Broadcast() // awaits give up
	p.switchIfIdle()
}

// switchIfIdle switches to the pending view if nothing of the ended
// epoch runs.
func (p *netProc) switchIfIdle() {
	if p.next != nil && p.busy == 0 && p.held == 0 && p.err == nil { // control no-drain: if p.next != nil && p.busy == 0 && p.err == nil {
		p.switchEpoch()
	}
}

// switchEpoch starts the pending view's epoch: the algorithm's state
// from its initial values, the fencing clock at the epoch's base, the
// algorithm's start, READY to every other member, then the messages kept
// for the epoch.
func (p *netProc) switchEpoch() {
	v, at := p.next, p.nextAt
	p.next = nil
	epoch, delay := v[0], time.Duration(v[1])
	self := -1
	members := make([]int, len(v)-2)
	for i, id := range v[2:] {
		members[i] = int(id)
		if int(id) == p.id {
			self = i
		}
	}
	if self < 0 {
		p.fail(fmt.Errorf("lockgen: process %d: a view of epoch %d without it", p.id, epoch))
		return
	}
	p.epoch, p.members, p.self, p.n = epoch, members, self, len(members)
	p.fence = epoch << netEpochShift // control epoch-free-fence: p.fence = 0
	clear(p.out)
	p.out = p.out[:0]
	p.alg.reset()
	if p.grp == nil {
		// The crash-free path: nobody to wait for.
		p.state = netOpen
		p.alg.begin()
		p.flush()
		return
	}
	p.state = netOpening
	p.ready = make([]bool, p.n)
	p.ready[self], p.nReady = true, 1
	p.late = true
	if wait := delay - time.Since(at); wait > 0 {
		time.AfterFunc(wait, func() {
			p.mu.Lock()
			if p.epoch == epoch {
				p.late = false
				p.open()
			}
			p.mu.Unlock()
		})
	} else {
		p.late = false
	}
	p.alg.begin()
	for j := range p.n {
		if j != self {
			p.send(int64(j), netReady)
		}
	}
	p.flush()
	kept := p.kept
	p.kept = nil
	for _, m := range kept {
		if m[2] > epoch {
			p.kept = append(p.kept, m)
		} else {
			p.deliver(m)
		}
	}
	p.open()
}

// open opens the current epoch once every member has sent READY and its
// lock-delay has passed: waiting passages start.
func (p *netProc) open() {
	if p.state == netOpening && !p.late && p.nReady == p.n && p.err == nil { // control no-barrier: if p.state == netOpening && p.err == nil {
		p.state = netOpen
		close(p.opened)
		p.opened = make(chan struct{}) // the next epoch's
		p.cond.Broadcast()
	}
}

// waitOpen waits until the current epoch admits passages.
func (p *netProc) waitOpen(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.state != netOpen && p.err == nil {
		opened := p.opened
		p.mu.Unlock()
		select {
		case <-opened:
		case <-p.done:
		case <-ctx.Done():
			p.mu.Lock()
			return ctx.Err()
		}
		p.mu.Lock()
	}
	return p.err
}

// enter takes the lock for a writer (write) or a reader: one passage at a
// time per process, then the acquire routine in an open epoch. When ctx
// ends first the passage is abandoned: a request already sent cannot be
// recalled, so the process enters when its turn comes and leaves at
// once. A request in flight when the epoch ends returns ErrEpochChanged,
// or asks again if retry (or the lock's RetryAcrossEpochs) says so.
func (p *netProc) enter(ctx context.Context, write, retry bool, method string) error {
	p.made(method)
	p.mu.Lock()
	if p.user {
		p.mu.Unlock()
		return ErrInPassage
	}
	p.user = true
	p.mu.Unlock()
	select {
	case p.slot <- struct{}{}:
	case <-ctx.Done():
		p.endUser()
		return ctx.Err()
	case <-p.done:
		p.endUser()
		return p.Err()
	}
	for {
		err := p.waitOpen(ctx)
		if err == nil {
			err = p.run(ctx, write)
			if err == errAbandoned {
				p.endUser()
				return ctx.Err()
			}
		}
		if err == nil {
			return nil
		}
		if err == ErrEpochChanged && (retry || p.opts.retry) && ctx.Err() == nil {
			continue
		}
		<-p.slot
		p.endUser()
		return err
	}
}

// errAbandoned: ctx ended while the acquire ran; its passage goes on in
// the background with the slot.
var errAbandoned = errors.New("lockgen: abandoned")

// run runs the acquire routine, in the background when ctx can end.
func (p *netProc) run(ctx context.Context, write bool) error {
	if ctx.Done() == nil {
		return p.acquire(write)
	}
	errc := make(chan error, 1)
	go func() { errc <- p.acquire(write) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		go func() {
			if err := <-errc; err == nil {
				p.mu.Lock()
				p.held = 0
				p.busy++
				p.mu.Unlock()
				p.release(write)
				return
			}
			<-p.slot
		}()
		return errAbandoned
	}
}

func (p *netProc) endUser() {
	p.mu.Lock()
	p.user = false
	p.mu.Unlock()
}

// acquire runs the acquire routine in an open epoch and, if it completes
// while the process still has its lease, grants the passage with its
// fencing token.
func (p *netProc) acquire(write bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.state != netOpen {
		return ErrEpochChanged
	}
	p.busy++
	err := p.alg.acquire(write)
	p.endStep()
	p.busy--
	if err == nil {
		err = p.grant(write)
	}
	if err != nil {
		p.switchIfIdle()
	}
	return err
}

// grant makes the passage the process's, with its fencing token: a
// writer's is one above the clock.
func (p *netProc) grant(write bool) error {
	if p.checkLease(); p.err != nil {
		return p.err
	}
	if write {
		if p.grp != nil && p.fence&netClockMask == netClockMask {
			// The epoch's tokens are used up: the next epoch's go on.
			p.state = netClosing
			p.cond.Broadcast()
			go func() {
				if err := p.grp.NewEpoch(); err != nil {
					p.mu.Lock()
					p.fail(fmt.Errorf("lockgen: asking for a new epoch: %w", err))
					p.mu.Unlock()
				}
			}()
			return ErrEpochChanged
		}
		p.fence++
		p.held = netWrite
	} else {
		p.held = netRead
	}
	p.heldIn, p.pass = p.epoch, p.fence
	return nil
}

// tryEnter enters only if the acquire routine runs to its end without
// waiting in an open epoch; otherwise nothing happened: its state is
// restored by the caller (restore) and its messages are dropped unsent.
func (p *netProc) tryEnter(write bool, save func() func(), method string) bool {
	p.made(method)
	p.mu.Lock()
	if p.user {
		p.mu.Unlock()
		return false
	}
	select {
	case p.slot <- struct{}{}:
	default:
		p.mu.Unlock()
		return false
	}
	if p.err != nil || p.state != netOpen {
		p.mu.Unlock()
		<-p.slot
		return false
	}
	restore, queued := save(), len(p.out)
	p.trying = true
	err := p.alg.acquire(write)
	p.trying = false
	if err != nil {
		restore()
		clear(p.out[queued:])
		p.out = p.out[:queued]
		p.mu.Unlock()
		<-p.slot
		return false
	}
	p.endStep()
	if err := p.grant(write); err != nil {
		p.mu.Unlock()
		<-p.slot
		return false
	}
	p.user = true
	p.mu.Unlock()
	return true
}

// leave ends the passage in progress: it runs the release routine (one
// with an await finishes in the background, and the process's next
// passage waits for it), unless the epoch the passage was granted in is
// over (a new one starts from the initial state). It returns the lock's
// failure if the lock failed during the passage: the passage may not
// have been alone since.
func (p *netProc) leave(write bool, method string) error {
	p.made(method)
	want := netRead
	if write {
		want = netWrite
	}
	p.mu.Lock()
	if p.held != want {
		p.mu.Unlock()
		panic("lockgen: " + method + " of a lock this process does not hold that way")
	}
	p.held = 0
	p.user = false
	p.checkLease()
	if err := p.err; err != nil {
		p.mu.Unlock()
		<-p.slot
		return fmt.Errorf("lockgen: %s: the lock failed during the passage: %w", method, err)
	}
	if p.heldIn != p.epoch || p.state != netOpen {
		p.switchIfIdle()
		p.mu.Unlock()
		<-p.slot
		return nil
	}
	p.busy++
	background := p.alg.releaseWaits(write)
	p.mu.Unlock()
	if background {
		go p.release(write)
		return nil
	}
	p.release(write)
	return nil
}

// release runs the release routine (busy counts it) and frees the
// process's passage slot.
func (p *netProc) release(write bool) {
	p.mu.Lock()
	if p.err == nil && p.state == netOpen {
		p.alg.release(write)
		p.endStep()
	}
	p.busy--
	p.switchIfIdle()
	p.mu.Unlock()
	<-p.slot
}

// close leaves the group cleanly and fails the lock with ErrLockClosed;
// it refuses while the process is in a passage.
func (p *netProc) close(method string) error {
	p.made(method)
	p.mu.Lock()
	if p.user || p.held != 0 {
		p.mu.Unlock()
		return fmt.Errorf("lockgen: %s: the process is in a passage: Unlock first", method)
	}
	p.fail(ErrLockClosed)
	p.mu.Unlock()
	if p.grp != nil {
		return p.grp.Leave(true)
	}
	return nil
}

// Fence returns the fencing token of the passage in progress: every
// grant's token is at least that of the last writer before it, and a
// writer's is greater than every token granted before it; a later
// epoch's tokens are greater than an earlier one's (the epoch is the
// token's high 41 bits). Pass it to the resource the lock protects,
// which rejects a smaller token than it has seen.
func (p *netProc) Fence() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pass
}

// Done is closed when the lock fails for good (its transport closed or
// failed, its lease ran out, it was removed from its group, or Close);
// Err then says why. A lock not made by its constructor has failed.
func (p *netProc) Done() <-chan struct{} {
	if p.done == nil {
		return netFailed
	}
	return p.done
}

// Err is why the lock failed, nil while it works.
func (p *netProc) Err() error {
	if p.done == nil {
		return errNotMade
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checkLease()
	return p.err
}

// checkLease fails the lock if its group's transport has failed (its
// lease ran out) before the dispatcher has heard of it: a passage is lost
// from the moment the lease is, not from when the news arrives.
func (p *netProc) checkLease() {
	if p.grp != nil && p.err == nil {
		if err := p.trErr(); err != nil {
			p.fail(fmt.Errorf("lockgen: the lock's transport failed: %w", err))
		}
	}
}

// errNotMade and netFailed are Err and Done of a lock not made by its
// constructor (the zero value).
var (
	errNotMade = errors.New("lockgen: a lock not made by its constructor")
	netFailed  = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
)

// netBool is a boolean message argument as a word.
func netBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
