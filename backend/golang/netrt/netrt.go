package netrt

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// ErrClosed is the error of a lock whose transport closed without saying
// why.
var ErrClosed = errors.New("lockgen: the lock's transport closed")

// netAlg is the generated part of a lock: the lowered algorithm.
type netAlg interface {
	// enabled reports whether await id's condition holds.
	enabled(id int) bool
	// handle runs the handler of a message (kind, arguments); an error
	// means the message is malformed.
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

// netProc is one process's runtime. mu is the process's own mutual
// exclusion: a handler run, and a routine between two awaits, are atomic
// steps, as the definitions assume.
type netProc struct {
	mu     sync.Mutex
	cond   sync.Cond
	self   int
	n      int
	tr     Transport
	alg    netAlg
	slot   chan struct{} // one passage at a time per process
	out    []netOut
	waitAt int  // the await the routine stands at (0: none)
	resume bool // a handler enabled it: it runs before the next message
	trying bool // TryLock: an await that does not hold gives up
	fence  int64
	held   int8 // 0, netRead or netWrite: the passage in progress
	pass   int64
	err    error
	done   chan struct{}
}

const (
	netRead  int8 = 1
	netWrite int8 = 2
)

// errWouldWait ends a TryLock's acquire at an await that does not hold.
var errWouldWait = errors.New("lockgen: would wait")

// start makes p process self of n over tr, running alg, and starts its
// dispatcher.
func (p *netProc) start(self, n int, tr Transport, alg netAlg) error {
	if n < 1 || self < 0 || self >= n {
		return fmt.Errorf("lockgen: process %d of %d: want 0 <= self < n", self, n)
	}
	if tr == nil {
		return errors.New("lockgen: nil transport")
	}
	p.self, p.n, p.tr, p.alg = self, n, tr, alg
	p.cond.L = &p.mu
	p.slot = make(chan struct{}, 1)
	p.done = make(chan struct{})
	p.mu.Lock()
	alg.begin()
	p.flush()
	err := p.err
	p.mu.Unlock()
	if err != nil {
		return err
	}
	go p.dispatch()
	return nil
}

// send queues a message; flush sends the queue. Both run with mu held, so
// one process's messages leave in the order its steps sent them.
func (p *netProc) send(to, kind int64, args ...int64) {
	msg := make([]int64, 0, 3+len(args))
	msg = append(msg, kind, int64(p.self), p.fence)
	p.out = append(p.out, netOut{int(to), append(msg, args...)})
}

func (p *netProc) flush() {
	for i, o := range p.out {
		if p.err == nil {
			if err := p.tr.Send(o.to, o.msg); err != nil {
				p.fail(fmt.Errorf("lockgen: sending to process %d: %w", o.to, err))
			}
		}
		p.out[i] = netOut{}
	}
	p.out = p.out[:0]
}

// fail breaks the lock for good: every wait ends with err.
func (p *netProc) fail(err error) {
	if p.err != nil {
		return
	}
	p.err = err
	close(p.done)
	p.cond.Broadcast()
}

// await is a routine's wait for await id: it ends its atomic step (the
// outbox leaves, a handler that enabled the routine may go on) and sleeps
// until a handler makes the condition hold.
func (p *netProc) await(id int) error {
	if p.alg.enabled(id) {
		return nil
	}
	if p.trying {
		return errWouldWait
	}
	p.endStep()
	p.waitAt = id
	for !p.alg.enabled(id) && p.err == nil {
		p.cond.Wait()
	}
	p.waitAt = 0
	if !p.alg.enabled(id) {
		return p.err
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

// dispatch runs the handlers of the messages as they arrive. A routine
// that a handler enables runs its next step before the next message is
// handled: the definitions assume it (without it dCREW loses its token).
func (p *netProc) dispatch() {
	for m := range p.tr.Receive() {
		p.mu.Lock()
		if p.err == nil {
			if len(m) < 3 {
				p.fail(fmt.Errorf("lockgen: a message of %d words", len(m)))
			} else {
				p.fence = max(p.fence, m[2])
				if err := p.alg.handle(m[0], m[3:]); err != nil {
					p.fail(fmt.Errorf("lockgen: from process %d: %w", m[1], err))
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
		}
		p.mu.Unlock()
	}
	err := ErrClosed
	if e, ok := p.tr.(interface{ Err() error }); ok && e.Err() != nil {
		err = fmt.Errorf("lockgen: the lock's transport closed: %w", e.Err())
	}
	p.mu.Lock()
	p.fail(err)
	p.mu.Unlock()
}

// enter takes the lock for a writer (write) or a reader: one passage at a
// time per process, then the acquire routine. When ctx ends first the
// passage is abandoned: a request already sent cannot be recalled, so the
// process enters when its turn comes and leaves at once.
func (p *netProc) enter(ctx context.Context, write bool) error {
	select {
	case p.slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-p.done:
		return p.Err()
	}
	if ctx.Done() == nil {
		return p.entered(p.acquire(write), write)
	}
	errc := make(chan error, 1)
	go func() { errc <- p.acquire(write) }()
	select {
	case err := <-errc:
		return p.entered(err, write)
	case <-ctx.Done():
		go func() {
			if err := <-errc; err == nil {
				p.release(write)
				return
			}
			<-p.slot
		}()
		return ctx.Err()
	}
}

func (p *netProc) acquire(write bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	err := p.alg.acquire(write)
	p.endStep()
	return err
}

// entered finishes an acquire: the passage's fencing token, or the slot
// back on failure.
func (p *netProc) entered(err error, write bool) error {
	if err != nil {
		<-p.slot
		return err
	}
	p.mu.Lock()
	if write {
		p.fence++
		p.held = netWrite
	} else {
		p.held = netRead
	}
	p.pass = p.fence
	p.mu.Unlock()
	return nil
}

// tryEnter enters only if the acquire routine runs to its end without
// waiting; otherwise nothing happened: its state is restored by the
// caller (restore) and its messages are dropped unsent.
func (p *netProc) tryEnter(write bool, save func() func()) bool {
	select {
	case p.slot <- struct{}{}:
	default:
		return false
	}
	p.mu.Lock()
	if p.err != nil {
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
	p.mu.Unlock()
	return p.entered(nil, write) == nil
}

// leave runs the release routine of the passage in progress; one with an
// await finishes in the background, and the process's next passage waits
// for it.
func (p *netProc) leave(write bool, method string) {
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
	p.mu.Unlock()
	if p.alg.releaseWaits(write) {
		go p.release(write)
		return
	}
	p.release(write)
}

// release runs the release routine and frees the process's passage slot.
func (p *netProc) release(write bool) {
	p.mu.Lock()
	if p.err == nil {
		p.alg.release(write)
		p.endStep()
	}
	p.mu.Unlock()
	<-p.slot
}

// Fence returns the fencing token of the passage in progress: every
// grant's token is at least that of the last writer before it, and a
// writer's is greater than every token granted before it. Pass it to the
// resource the lock protects, which rejects a smaller token than it has
// seen from a writer.
func (p *netProc) Fence() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pass
}

// Done is closed when the lock fails for good (its transport closed or a
// send failed); Err then says why.
func (p *netProc) Done() <-chan struct{} { return p.done }

// Err is why the lock failed, nil while it works.
func (p *netProc) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// netBool is a boolean message argument as a word.
func netBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
