// Package natstransport carries lockgen's distributed locks over NATS
// (see package transport for the contract). Process i of the lock named
// name receives on subject lockgen.<name>.<i>; each endpoint publishes on
// its own connection, and NATS delivers one connection's messages to a
// subscriber in the order they were published, which gives the FIFO
// channels between each pair that the locks need.
//
// NATS core delivers at most once: a message published while its
// receiver is disconnected is lost, and a distributed lock that loses a
// message is broken. So an endpoint does not reconnect: losing its
// connection fails it (Receive closes, Err says why), and the lock built
// on it fails its operations instead of waiting for ever. For the same
// reason a process must not send before the others subscribe: WaitPeers
// returns once every peer's endpoint answers. A peer that dies or hangs
// is silent: WatchPeers fails the endpoint once one has not answered for
// a timeout.
package natstransport

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/lockgen/lockgen/transport/internal/mailbox"
)

// Endpoint is process self's endpoint of a lock's n processes.
type Endpoint struct {
	nc      *nats.Conn
	name    string
	self, n int
	box     *mailbox.Mailbox

	mu  sync.Mutex
	err error
}

// ErrClosed is Err after Close.
var ErrClosed = errors.New("natstransport: endpoint closed")

// Connect dials the NATS server at url and returns process self's
// endpoint (0 <= self < n) of the lock called name. opts are passed to
// nats.Connect; reconnection is turned off (see the package comment).
func Connect(url, name string, self, n int, opts ...nats.Option) (*Endpoint, error) {
	if name == "" || strings.ContainsAny(name, ".*> \t\r\n") {
		return nil, fmt.Errorf("natstransport: lock name %q: want a non-empty NATS subject token (no '.', '*', '>' or spaces)", name)
	}
	if n < 1 || self < 0 || self >= n {
		return nil, fmt.Errorf("natstransport: process %d of %d: want 0 <= self < n", self, n)
	}
	e := &Endpoint{name: name, self: self, n: n, box: mailbox.New()}
	opts = append(opts, nats.NoReconnect(),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err == nil {
				err = errors.New("disconnected")
			}
			e.fail(fmt.Errorf("natstransport: process %d lost its connection: %w", self, err))
		}),
		nats.ClosedHandler(func(*nats.Conn) {
			e.fail(fmt.Errorf("natstransport: process %d's connection closed", self))
		}))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		e.box.Close()
		return nil, fmt.Errorf("natstransport: %w", err)
	}
	e.nc = nc
	if _, err := nc.Subscribe(e.subject(self), e.receive); err != nil {
		nc.Close()
		return nil, fmt.Errorf("natstransport: %w", err)
	}
	if _, err := nc.Subscribe(e.subject(self)+".ready", func(m *nats.Msg) { m.Respond(nil) }); err != nil {
		nc.Close()
		return nil, fmt.Errorf("natstransport: %w", err)
	}
	// The server has the subscriptions once it answers a flush.
	if err := nc.Flush(); err != nil {
		nc.Close()
		return nil, fmt.Errorf("natstransport: %w", err)
	}
	return e, nil
}

func (e *Endpoint) subject(i int) string { return "lockgen." + e.name + "." + strconv.Itoa(i) }

// WaitPeers returns once every other process's endpoint has subscribed
// (it answers a request on its subject), or with ctx's error.
func (e *Endpoint) WaitPeers(ctx context.Context) error {
	for j := range e.n {
		if j == e.self {
			continue
		}
		for {
			rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			_, err := e.nc.RequestWithContext(rctx, e.subject(j)+".ready", nil)
			cancel()
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return fmt.Errorf("natstransport: waiting for process %d: %w", j, ctx.Err())
			}
			if errors.Is(err, nats.ErrConnectionClosed) {
				return fmt.Errorf("natstransport: waiting for process %d: %w", j, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nil
}

// WatchPeers checks every interval that each other process still
// answers (as WaitPeers does); a peer silent for timeout fails the
// endpoint, so that the lock on it reports the lost contact (Done, Err)
// instead of waiting for ever for a token or a reply the silent process
// would have sent. It returns at once; the watch ends with the endpoint.
func (e *Endpoint) WatchPeers(interval, timeout time.Duration) {
	go func() {
		last := make([]time.Time, e.n)
		for j := range last {
			last[j] = time.Now()
		}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for range tick.C {
			if e.Err() != nil {
				return
			}
			for j := range e.n {
				if j == e.self {
					continue
				}
				if _, err := e.nc.Request(e.subject(j)+".ready", nil, min(interval, timeout)); err == nil {
					last[j] = time.Now()
				} else if silent := time.Since(last[j]); silent > timeout {
					e.fail(fmt.Errorf("natstransport: process %d has not answered for %v", j, silent.Round(time.Millisecond)))
					return
				}
			}
		}
	}()
}

// Send publishes msg to process to.
func (e *Endpoint) Send(to int, msg []int64) error {
	if to < 0 || to >= e.n {
		return fmt.Errorf("natstransport: no process %d of %d", to, e.n)
	}
	if err := e.Err(); err != nil {
		return err
	}
	data := make([]byte, 0, 4*len(msg))
	for _, w := range msg {
		data = binary.AppendVarint(data, w)
	}
	return e.nc.Publish(e.subject(to), data)
}

// receive decodes a message; a malformed one fails the endpoint (a lock
// cannot skip a message).
func (e *Endpoint) receive(m *nats.Msg) {
	var msg []int64
	for data := m.Data; len(data) > 0; {
		w, k := binary.Varint(data)
		if k <= 0 {
			e.fail(fmt.Errorf("natstransport: process %d received a malformed message on %s", e.self, m.Subject))
			return
		}
		msg = append(msg, w)
		data = data[k:]
	}
	e.box.Put(msg)
}

// Receive returns the channel this process's messages arrive on; it is
// closed when the endpoint fails or is closed.
func (e *Endpoint) Receive() <-chan []int64 { return e.box.Out() }

// Err says why the endpoint stopped (nil while it works).
func (e *Endpoint) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *Endpoint) fail(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
	go e.box.Close() // not from a NATS callback: Close waits for the pump
}

// Close closes the endpoint and its connection.
func (e *Endpoint) Close() error {
	e.mu.Lock()
	if e.err == nil {
		e.err = ErrClosed
	}
	e.mu.Unlock()
	e.nc.Close()
	e.box.Close()
	return nil
}
