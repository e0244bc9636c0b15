// Package inproc is the in-process transport of lockgen's distributed
// locks: n endpoints in one program, delivering in order between each pair
// (see package transport for the contract). Options inject what tests
// need: random delays, reordering (which breaks the FIFO contract, to show
// a lock needs it) and loss. Its endpoints take the locks' crash-free
// path; Member (group.go) adds a group, so that tests can crash, restart
// and remove processes in one program.
package inproc

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockgen/lockgen/transport/internal/mailbox"
)

// Options change how a Network delivers.
type Options struct {
	// Delay, when set, is each message's transit time; messages between a
	// pair still arrive in order unless Reorder is set.
	Delay func() time.Duration
	// Reorder lets messages between a pair overtake each other (each is
	// delivered after its own Delay): a broken network, for tests.
	Reorder bool
	// Loss is the probability that a message is silently dropped: a broken
	// network, for tests.
	Loss float64
	// Seed seeds Loss's draws (0: a fixed default).
	Seed uint64
	// LockDelay is how long a Member group's survivors wait, in the view
	// that removes a crashed process, before they grant (the lease the
	// crashed process might still think it has), and the lease of a
	// process Isolate cuts off.
	LockDelay time.Duration

	// plant is a bug planted on purpose, for the negative controls of the
	// fault checks (set only by this package's tests: export_test.go).
	plant string
}

// ErrClosed is returned by Send on a closed network, and by Err.
var ErrClosed = errors.New("inproc: network closed")

// Network connects n endpoints.
type Network struct {
	opts  Options
	ends  []*Endpoint
	links map[[2]int]*link

	mu     sync.Mutex
	rng    *rand.Rand
	closed bool
	group  group         // Member's
	stop   chan struct{} // closed by Close: delayed deliveries give up
	wg     sync.WaitGroup

	sent, delivered atomic.Int64
}

// New returns a network of n endpoints.
func New(n int, opts Options) *Network {
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	nw := &Network{opts: opts, links: map[[2]int]*link{}, stop: make(chan struct{}),
		rng: rand.New(rand.NewPCG(seed, 0x696e70726f63)), group: group{plant: opts.plant}}
	for i := range n {
		nw.ends = append(nw.ends, &Endpoint{nw: nw, id: i, box: mailbox.New()})
	}
	return nw
}

// Endpoint returns process i's endpoint.
func (nw *Network) Endpoint(i int) *Endpoint { return nw.ends[i] }

// N is the number of endpoints.
func (nw *Network) N() int { return len(nw.ends) }

// Stats returns the messages sent and delivered so far.
func (nw *Network) Stats() (sent, delivered int64) {
	return nw.sent.Load(), nw.delivered.Load()
}

// Close shuts the network down: every endpoint's Receive channel closes
// (messages still in flight are dropped) and Send fails with ErrClosed.
func (nw *Network) Close() {
	nw.mu.Lock()
	if nw.closed {
		nw.mu.Unlock()
		return
	}
	nw.closed = true
	close(nw.stop)
	for _, l := range nw.links {
		close(l.stop)
	}
	nw.mu.Unlock()
	nw.wg.Wait()
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, e := range nw.ends {
		e.box.Close()
	}
	nw.group.close()
}

// Endpoint is one process's side of a Network; it implements the
// generated locks' Transport.
type Endpoint struct {
	nw   *Network
	id   int
	box  *mailbox.Mailbox
	dead error // set (under nw.mu) when a test crashed it or it left its group
	// cutAt is when Isolate cut it off (zero: never); its lease ends
	// Options.LockDelay later. Set under nw.mu.
	cutAt time.Time
	cut   atomic.Bool // cut off: nothing reaches it
}

// Send delivers msg to endpoint to.
func (e *Endpoint) Send(to int, msg []int64) error {
	nw := e.nw
	if to < 0 || to >= len(nw.ends) {
		return fmt.Errorf("inproc: no endpoint %d of %d", to, len(nw.ends))
	}
	nw.mu.Lock()
	defer nw.mu.Unlock()
	if nw.closed {
		return ErrClosed
	}
	if e.dead != nil {
		return e.dead
	}
	nw.sent.Add(1)
	if e.cut.Load() {
		return nil // lost: nobody hears a process cut off
	}
	if nw.opts.Loss > 0 && nw.rng.Float64() < nw.opts.Loss {
		return nil
	}
	switch {
	case nw.opts.Delay == nil:
		nw.ends[to].deliver(msg)
	case nw.opts.Reorder:
		d := nw.opts.Delay()
		nw.wg.Add(1)
		go func() {
			defer nw.wg.Done()
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				nw.current(to).deliver(msg)
			case <-nw.stop:
			}
		}()
	default:
		nw.link(e.id, to).push(msg, time.Now().Add(nw.opts.Delay()))
	}
	return nil
}

// Receive returns the channel this endpoint's messages arrive on; it is
// closed when the network is.
func (e *Endpoint) Receive() <-chan []int64 { return e.box.Out() }

// Err is ErrClosed once the network is closed, ErrCrashed once a test
// crashed the endpoint, ErrLeaseLost once the lease of an endpoint
// Isolate cut off has run out, nil before.
func (e *Endpoint) Err() error {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	switch {
	case e.nw.closed:
		return ErrClosed
	case e.dead != nil:
		return e.dead
	case !e.cutAt.IsZero() && time.Since(e.cutAt) >= e.nw.opts.LockDelay:
		return ErrLeaseLost
	}
	return nil
}

// current returns process to's endpoint: its newest incarnation.
func (nw *Network) current(to int) *Endpoint {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	return nw.ends[to]
}

func (e *Endpoint) deliver(msg []int64) {
	if e.cut.Load() {
		return // lost: the process is cut off
	}
	// Counted first: a receiver that has taken every message must find
	// them all counted (the count never lags what was received).
	e.nw.delivered.Add(1)
	e.box.Put(msg)
}

// link delivers one pair's messages in order, each no earlier than its
// due time.
type link struct {
	mu    sync.Mutex
	queue []timed
	last  time.Time
	wake  chan struct{}
	stop  chan struct{}
}

type timed struct {
	msg []int64
	due time.Time
}

// link returns the link from → to, starting it; nw.mu is held.
func (nw *Network) link(from, to int) *link {
	key := [2]int{from, to}
	if l, ok := nw.links[key]; ok {
		return l
	}
	l := &link{wake: make(chan struct{}, 1), stop: make(chan struct{})}
	nw.links[key] = l
	nw.wg.Add(1)
	go func() {
		defer nw.wg.Done()
		l.run(func() *Endpoint { return nw.current(to) })
	}()
	return l
}

func (l *link) push(msg []int64, due time.Time) {
	l.mu.Lock()
	if due.Before(l.last) {
		due = l.last // FIFO: never before the message ahead of it
	}
	l.last = due
	l.queue = append(l.queue, timed{msg, due})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *link) run(dst func() *Endpoint) {
	for {
		l.mu.Lock()
		var head *timed
		if len(l.queue) > 0 {
			head = &l.queue[0]
		}
		l.mu.Unlock()
		if head == nil {
			select {
			case <-l.wake:
				continue
			case <-l.stop:
				return
			}
		}
		t := time.NewTimer(time.Until(head.due))
		select {
		case <-t.C:
			l.mu.Lock()
			msg := l.queue[0].msg
			l.queue = l.queue[1:]
			l.mu.Unlock()
			dst().deliver(msg)
		case <-l.stop:
			t.Stop()
			return
		}
	}
}
