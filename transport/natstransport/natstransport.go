// Package natstransport carries lockgen's distributed locks over NATS
// and keeps their group in NATS JetStream's key-value store (see package
// transport for the contract, and lockgen's docs/distributed.md, "Epoch
// protocol", for the group). Process i of the lock named name receives on
// subject lockgen.<name>.<i>; each endpoint publishes on its own
// connection, and NATS delivers one connection's messages to a subscriber
// in the order they were published, which gives the FIFO channels between
// each pair that the locks need.
//
// An Endpoint is a netrt Group: the lock's constructor joins with it. It
// then renews the process's lease in the bucket lockgen_<name> every
// quarter of the lease, watches one other member (its predecessor by id),
// removes a member whose lease has run out and proposes the next epoch,
// and hands the lock each epoch that has it as a member. The server must
// run JetStream (nats-server -js; the embedded server of the tests and
// examples keeps it in memory).
//
// NATS core delivers at most once: a message published while its
// receiver is disconnected is lost, and a distributed lock that loses a
// message is broken. So an endpoint does not reconnect: losing its
// connection fails it (Receive closes, Err says why), and its process
// leaves the group by its lease. Every message carries the sender's and
// the receiver's incarnations and a sequence number; with a key (Key),
// also an HMAC-SHA256 over them and the words, so that a forged, replayed
// or malformed message is dropped and counted (Stats), never fatal.
package natstransport

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lockgen/lockgen/transport/internal/mailbox"
)

// Endpoint is process self's endpoint of a lock's n processes.
type Endpoint struct {
	nc      *nats.Conn
	kv      jetstream.KeyValue
	name    string
	self, n int
	o       options
	inc     int64 // this incarnation
	box     *mailbox.Mailbox
	views   *mailbox.Mailbox
	stop    chan struct{} // closed when the endpoint fails: its loops end
	newView chan struct{} // a new view: the watch may have a new predecessor
	loops   sync.WaitGroup

	mu         sync.Mutex
	err        error
	joined     bool
	leaving    bool      // Leave has begun: no more renewals
	rev        uint64    // the member key's revision at the last renewal
	leaseUntil time.Time // the lease's end
	lease      *time.Timer
	member     bool          // a view has had it as a member
	last       int64         // the last view's epoch
	incs       map[int]int64 // the newest view's members' incarnations
	ring       []int         // the newest view's member ids, increasing
	seen       map[int64]seenEpoch
	seqOut     map[[2]int64]int64 // (to, its incarnation) → last sequence number sent
	seqIn      map[[2]int64]int64 // (from, its incarnation) → last received

	stats stats
}

// seenEpoch is when the endpoint first saw an epoch, and its lock-delay.
type seenEpoch struct {
	at    time.Time
	delay time.Duration
}

// ErrClosed is Err after Close.
var ErrClosed = errors.New("natstransport: endpoint closed")

// Option configures an endpoint.
type Option func(*options)

type options struct {
	key      []byte
	lease    time.Duration
	replicas int
	nats     []nats.Option
}

// Key authenticates every message and every epoch record with an
// HMAC-SHA256 under key, which every member of the lock must share (and
// nobody else know): then only members' messages get in.
func Key(key []byte) Option { return func(o *options) { o.key = append([]byte(nil), key...) } }

// Lease sets the lease (default 2 s): a member that has not renewed for
// it stops, and the others remove it a tenth of it later. Every member
// of a lock must use the same lease.
func Lease(d time.Duration) Option { return func(o *options) { o.lease = d } }

// Replicas sets how many servers of a NATS cluster keep the group's
// bucket when this endpoint creates it (default 1; 3 in a cluster).
func Replicas(r int) Option { return func(o *options) { o.replicas = r } }

// NATSOptions passes options to nats.Connect; reconnection stays off (see
// the package comment).
func NATSOptions(opts ...nats.Option) Option {
	return func(o *options) { o.nats = append(o.nats, opts...) }
}

// DefaultLease is the lease without the Lease option.
const DefaultLease = 2 * time.Second

// Connect dials the NATS server at url and returns process self's
// endpoint (0 <= self < n) of the lock called name, its bucket opened or
// made. The lock's constructor joins the group with it.
func Connect(url, name string, self, n int, opts ...Option) (*Endpoint, error) {
	if name == "" || strings.ContainsAny(name, ".*> \t\r\n") {
		return nil, fmt.Errorf("natstransport: lock name %q: want a non-empty NATS subject token (no '.', '*', '>' or spaces)", name)
	}
	if n < 1 || self < 0 || self >= n {
		return nil, fmt.Errorf("natstransport: process %d of %d: want 0 <= self < n", self, n)
	}
	e := &Endpoint{name: name, self: self, n: n, box: mailbox.New(), views: mailbox.New(), stop: make(chan struct{}), newView: make(chan struct{}, 1),
		incs: map[int]int64{}, seen: map[int64]seenEpoch{}, seqOut: map[[2]int64]int64{}, seqIn: map[[2]int64]int64{}}
	e.o = options{lease: DefaultLease, replicas: 1}
	for _, o := range opts {
		o(&e.o)
	}
	if e.o.lease < 40*time.Millisecond {
		return nil, fmt.Errorf("natstransport: lease %v: want at least 40ms", e.o.lease)
	}
	e.inc = incarnation()
	nopts := append(e.o.nats, nats.NoReconnect(),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err == nil {
				err = errors.New("disconnected")
			}
			e.fail(fmt.Errorf("natstransport: process %d lost its connection: %w", self, err))
		}),
		nats.ClosedHandler(func(*nats.Conn) {
			e.fail(fmt.Errorf("natstransport: process %d's connection closed", self))
		}),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrSlowConsumer) {
				e.fail(fmt.Errorf("natstransport: process %d dropped messages (a slow consumer): %w", self, err))
			}
		}))
	nc, err := nats.Connect(url, nopts...)
	if err != nil {
		e.box.Close()
		e.views.Close()
		return nil, fmt.Errorf("natstransport: %w", err)
	}
	e.nc = nc
	if err := e.open(); err != nil {
		e.fail(err)
		nc.Close()
		return nil, err
	}
	return e, nil
}

// open subscribes to the process's subject and opens (or makes) the
// group's bucket.
func (e *Endpoint) open() error {
	if _, err := e.nc.Subscribe(e.subject(e.self), e.receive); err != nil {
		return fmt.Errorf("natstransport: %w", err)
	}
	// The server has the subscription once it answers a flush.
	if err := e.nc.Flush(); err != nil {
		return fmt.Errorf("natstransport: %w", err)
	}
	js, err := jetstream.New(e.nc)
	if err != nil {
		return fmt.Errorf("natstransport: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	bucket := "lockgen_" + e.name
	kv, err := js.KeyValue(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, History: 1,
			Storage: jetstream.MemoryStorage, Replicas: e.o.replicas,
			Description: "lockgen: the group of the distributed lock " + e.name})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, bucket)
		}
	}
	if err != nil {
		return fmt.Errorf("natstransport: the group's bucket %s (does the server run JetStream?): %w", bucket, err)
	}
	e.kv = kv
	return nil
}

func (e *Endpoint) subject(i int) string { return "lockgen." + e.name + "." + strconv.Itoa(i) }

// incarnation draws a random 62-bit incarnation, never 0.
func incarnation() int64 {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			panic(err)
		}
		if v := int64(binary.LittleEndian.Uint64(b[:]) >> 2); v != 0 {
			return v
		}
	}
}

// Receive returns the channel this process's messages arrive on; it is
// closed when the endpoint fails or is closed.
func (e *Endpoint) Receive() <-chan []int64 { return e.box.Out() }

// Err says why the endpoint stopped (nil while it works). Once the
// process has joined, an endpoint whose lease has run out has stopped,
// even before its timer says so.
func (e *Endpoint) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil && e.joined && time.Now().After(e.leaseUntil) {
		return fmt.Errorf("natstransport: process %d's lease expired", e.self)
	}
	return e.err
}

// fail stops the endpoint for good: Receive and Views close, the loops
// end, the connection closes.
func (e *Endpoint) fail(err error) {
	e.mu.Lock()
	if e.err != nil {
		e.mu.Unlock()
		return
	}
	e.err = err
	close(e.stop)
	if e.lease != nil {
		e.lease.Stop()
	}
	e.mu.Unlock()
	// Not from a NATS callback: closing waits for the callbacks and the
	// mailboxes' pumps.
	go func() {
		e.box.Close()
		e.views.Close()
		if e.nc != nil {
			e.nc.Close()
		}
	}()
}

// Close stops the endpoint as a crash would: it does not leave the group
// (the lock's Close does), so the others remove the process when its
// lease runs out.
func (e *Endpoint) Close() error {
	e.fail(ErrClosed)
	e.loops.Wait()
	return nil
}

// Stats counts an endpoint's messages.
type Stats struct {
	Sent, Delivered int64
	// Dropped by the receiver: Malformed (not decodable, or not this
	// wire's), Forged (a MAC that does not verify under the key), Replayed
	// (a sequence number already seen), Stale (for another incarnation of
	// this process); Unaddressed: sends to a process that is no member.
	Malformed, Forged, Replayed, Stale, Unaddressed int64
	// Gaps are sequence numbers skipped: a lost message (with a key, the
	// endpoint fails on one).
	Gaps int64
}

type stats struct {
	sent, delivered, malformed, forged, replayed, stale, unaddressed, gaps atomic.Int64
}

// Stats returns the endpoint's counts so far.
func (e *Endpoint) Stats() Stats {
	s := &e.stats
	return Stats{Sent: s.sent.Load(), Delivered: s.delivered.Load(), Malformed: s.malformed.Load(), Forged: s.forged.Load(),
		Replayed: s.replayed.Load(), Stale: s.stale.Load(), Unaddressed: s.unaddressed.Load(), Gaps: s.gaps.Load()}
}

// Dropped is how many messages the receiver dropped.
func (s Stats) Dropped() int64 { return s.Malformed + s.Forged + s.Replayed + s.Stale }

// Incarnation is this endpoint's incarnation: a random number drawn when
// it was made, which its member key and its messages carry.
func (e *Endpoint) Incarnation() int64 { return e.inc }
