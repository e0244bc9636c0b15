// Package mailbox is the receiving side the transports share: an
// unbounded queue of messages, handed in order to one channel, so that a
// sender (a NATS callback, another process's Send) never blocks on a slow
// receiver.
package mailbox

import "sync"

// Mailbox queues messages for Out. Make one with New.
type Mailbox struct {
	mu     sync.Mutex
	queue  [][]int64
	closed bool
	wake   chan struct{}
	stop   chan struct{}
	out    chan []int64
	done   chan struct{}
}

// New returns a mailbox whose pump runs until Close.
func New() *Mailbox {
	m := &Mailbox{wake: make(chan struct{}, 1), stop: make(chan struct{}), out: make(chan []int64), done: make(chan struct{})}
	go m.pump()
	return m
}

// Put queues msg; after Close it is dropped.
func (m *Mailbox) Put(msg []int64) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.queue = append(m.queue, msg)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// Out is the channel the messages come out of, in the order they were
// put; it is closed by Close.
func (m *Mailbox) Out() <-chan []int64 { return m.out }

// Close stops the mailbox: Out closes (queued messages are dropped). It
// waits for the pump to stop, and may be called more than once.
func (m *Mailbox) Close() {
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.stop)
	}
	m.mu.Unlock()
	<-m.done
}

func (m *Mailbox) pump() {
	defer close(m.done)
	defer close(m.out)
	for {
		m.mu.Lock()
		var next []int64
		if len(m.queue) > 0 {
			next = m.queue[0]
			m.queue[0] = nil
			m.queue = m.queue[1:]
		}
		m.mu.Unlock()
		if next == nil {
			select {
			case <-m.wake:
				continue
			case <-m.stop:
				return
			}
		}
		select {
		case m.out <- next:
		case <-m.stop:
			return
		}
	}
}
