//go:build !lockgen_check

package sync

import (
	"context"
	"sync"
	"time"
)

// monitor guards a primitive's state. In a normal build it is a mutex.
type monitor struct {
	word int64 // used by the lockgen_check build only
	mu   sync.Mutex
}

func (m *monitor) enter(op)         { m.mu.Lock() }
func (m *monitor) leave(int64)      { m.mu.Unlock() }
func (m *monitor) leaveWrote(int64) { m.mu.Unlock() }

// op names what an operation does to the state, for the lockgen_check
// build's traces.
type op uint8

const (
	opRead op = iota
	opWrite
	opTry
)

// parker is one waiter's wake-up: a one-token semaphore.
type parker struct {
	once sync.Once
	ch   chan struct{}
}

func (p *parker) c() chan struct{} {
	p.once.Do(func() { p.ch = make(chan struct{}, 1) })
	return p.ch
}

func (p *parker) park() { <-p.c() }

func (p *parker) parkTimeout(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.c():
		return true
	case <-t.C:
		return false
	}
}

func (p *parker) parkContext(ctx context.Context) bool {
	select {
	case <-p.c():
		return true
	case <-ctx.Done():
		return false
	}
}

func (p *parker) unpark() {
	select {
	case p.c() <- struct{}{}:
	default:
	}
}
