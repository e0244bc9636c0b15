// Package netstress checks a generated distributed lock with real
// goroutines over the in-process transport (transport/inproc): n
// processes, each with goroutines taking the lock, under the race
// detector. It is to distributed locks what verify.Stress is to shared
// memory ones: the generated packages' tests call it.
package netstress

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/transport/inproc"
)

// Lock is a generated distributed lock (one process's). Most also have
// TryLock() bool (Behaviour checks it where they do).
type Lock interface {
	Lock()
	Unlock() error
	LockContext(context.Context) error
	Fence() int64
	Done() <-chan struct{}
	Err() error
	Close() error
}

// RWLock is a generated distributed reader/writer lock.
type RWLock interface {
	Lock
	RLock()
	RUnlock() error
	RLockContext(context.Context) error
}

// Transport is the generated locks' Transport (see package transport).
type Transport interface {
	Send(to int, msg []int64) error
	Receive() <-chan []int64
}

// Subject is a lock to check.
type Subject struct {
	// New returns process self's lock of n over its endpoint.
	New func(self, n int, tr Transport) (Lock, error)
	// Zero returns the lock type's zero value (Behaviour checks that it
	// panics rather than waits for ever); nil skips that check.
	Zero       func() Lock
	N          int            // processes; 0: 4
	Goroutines int            // per process; 0: 2
	Passages   int            // per goroutine; 0: 150
	Network    inproc.Options // zero: random delays up to 50µs, in order per pair
	// Connect, when set, replaces the in-process network: it returns the
	// n processes' endpoints over another transport (NATS) and a func
	// that closes them.
	Connect func(n int) ([]Transport, func(), error)
	Timeout time.Duration // 0: 60s for the whole run
	// OverlapWait is how long the overlap phase waits for every process
	// to hold the read lock at once; 0: 10s.
	OverlapWait time.Duration
}

func (s *Subject) defaults() {
	if s.N == 0 {
		s.N = 4
	}
	if s.Goroutines == 0 {
		s.Goroutines = 2
	}
	if s.Passages == 0 {
		s.Passages = 150
	}
	if s.Network.Delay == nil && !s.Network.Reorder {
		s.Network.Delay = func() time.Duration { return time.Duration(rand.IntN(50)) * time.Microsecond }
	}
	if s.Timeout == 0 {
		s.Timeout = 60 * time.Second
	}
	if s.OverlapWait == 0 {
		s.OverlapWait = 10 * time.Second
	}
}

// Report is what a run saw.
type Report struct {
	Reads, Writes int64
	MaxReaders    int64 // most readers seen in the critical section at once
	Messages      int64 // sent over the in-process network (-1 over another transport)
	Violations    []string
}

// Run runs s's processes until every goroutine has made its passages
// (reads and writes mixed when the lock is an RWLock; a process's
// goroutines take turns through a mutex of the process's own, since a
// distributed lock is held by its process) and checks, inside
// every critical section: a writer alone, readers only with readers; a
// plain counter only writers touch (the race detector sees two writers);
// fencing tokens (a reader's at least the last writer's, a writer's above
// every token granted before it). It fails t on a violation, a lock that
// fails, or a run that does not finish within the timeout.
func Run(t testing.TB, s Subject) Report {
	t.Helper()
	rep := run(s)
	for _, v := range rep.Violations {
		t.Error(v)
	}
	return rep
}

// Find is Run for a negative control: it returns what the run saw
// instead of failing a test, so a test can require a violation.
func Find(s Subject) Report { return run(s) }

type checker struct {
	readers, writers atomic.Int64
	plain            int64 // written by writers only
	mu               sync.Mutex
	lastWriter       int64 // the last writer's fencing token
	maxGranted       int64
	maxReaders       atomic.Int64
	reads, writes    atomic.Int64
	violations       []string
}

func (c *checker) violate(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.violations) < 16 {
		c.violations = append(c.violations, fmt.Sprintf(format, args...))
	}
}

// noteReaders records r readers in the critical section at once.
func (c *checker) noteReaders(r int64) {
	for m := c.maxReaders.Load(); r > m && !c.maxReaders.CompareAndSwap(m, r); m = c.maxReaders.Load() {
	}
}

func (c *checker) inside(proc int, write bool, fence int64) {
	if write {
		if w := c.writers.Add(1); w != 1 {
			c.violate("process %d writes beside another writer (%d writers)", proc, w)
		}
		if r := c.readers.Load(); r != 0 {
			c.violate("process %d writes beside %d readers", proc, r)
		}
		c.plain++
		c.writes.Add(1)
	} else {
		r := c.readers.Add(1)
		c.noteReaders(r)
		if w := c.writers.Load(); w != 0 {
			c.violate("process %d reads beside a writer", proc)
		}
		c.reads.Add(1)
	}
	c.mu.Lock()
	var stale string
	switch {
	case write && fence <= c.maxGranted:
		stale = fmt.Sprintf("process %d writes with fencing token %d, not above %d granted before", proc, fence, c.maxGranted)
	case !write && fence < c.lastWriter:
		stale = fmt.Sprintf("process %d reads with fencing token %d, below the last writer's %d", proc, fence, c.lastWriter)
	}
	if write {
		c.lastWriter = fence
	}
	c.maxGranted = max(c.maxGranted, fence)
	c.mu.Unlock()
	if stale != "" {
		c.violate("%s", stale)
	}
	// Stay a little: other processes' messages travel meanwhile, so
	// readers overlap and a wrong lock lets a writer in.
	for range 4 {
		runtime.Gosched()
	}
	if rand.IntN(8) == 0 {
		time.Sleep(20 * time.Microsecond)
	}
	if write {
		c.plain++
		c.writers.Add(-1)
	} else {
		_ = c.plain // a plain read: the race detector reports it against a writer's increment
		c.readers.Add(-1)
	}
}

func run(s Subject) Report {
	s.defaults()
	var eps []Transport
	sent := func() (int64, int64) { return -1, -1 }
	if s.Connect != nil {
		var stop func()
		var err error
		if eps, stop, err = s.Connect(s.N); err != nil {
			return Report{Violations: []string{fmt.Sprintf("connecting %d processes: %v", s.N, err)}}
		}
		defer stop()
	} else {
		nw := inproc.New(s.N, s.Network)
		defer nw.Close()
		for i := range s.N {
			eps = append(eps, nw.Endpoint(i))
		}
		sent = nw.Stats
	}
	locks := make([]Lock, s.N)
	for i := range s.N {
		l, err := s.New(i, s.N, eps[i])
		if err != nil {
			return Report{Violations: []string{fmt.Sprintf("process %d: %v", i, err)}}
		}
		locks[i] = l
	}
	c := &checker{}
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	var wg sync.WaitGroup
	finished := make(chan struct{})
	for i, l := range locks {
		rw, _ := l.(RWLock)
		var local sync.Mutex // the process's goroutines take turns
		for g := range s.Goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(i), uint64(g)))
				for range s.Passages {
					write := rw == nil || rng.IntN(3) == 0
					local.Lock()
					var err error
					if write {
						err = l.LockContext(ctx)
					} else {
						err = rw.RLockContext(ctx)
					}
					if err != nil {
						local.Unlock()
						if ctx.Err() == nil {
							c.violate("process %d: %v", i, err)
						}
						return
					}
					c.inside(i, write, l.Fence())
					if write {
						err = l.Unlock()
					} else {
						err = rw.RUnlock()
					}
					local.Unlock()
					if err != nil {
						c.violate("process %d: Unlock: %v", i, err)
					}
				}
			}()
		}
	}
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-ctx.Done():
		sent, delivered := sent()
		c.violate("no progress: the goroutines did not finish their passages in %v (%d reads, %d writes, %d messages sent, %d delivered): a lost token or a deadlock",
			s.Timeout, c.reads.Load(), c.writes.Load(), sent, delivered)
	}
	if ctx.Err() == nil {
		overlap(ctx, c, locks, s.OverlapWait)
	}
	for i, l := range locks {
		if err := l.Err(); err != nil {
			c.violate("process %d failed: %v", i, err)
		}
	}
	messages, _ := sent()
	c.mu.Lock()
	defer c.mu.Unlock()
	return Report{Reads: c.reads.Load(), Writes: c.writes.Load(), MaxReaders: c.maxReaders.Load(), Messages: messages, Violations: c.violations}
}

// overlap checks that readers share: every process takes the read lock
// and holds it until all of them do (or overlapWait passes), so a lock
// that serializes readers is caught however the timing of the random
// phase fell.
func overlap(ctx context.Context, c *checker, locks []Lock, overlapWait time.Duration) {
	var rws []RWLock
	for _, l := range locks {
		if rw, ok := l.(RWLock); ok {
			rws = append(rws, rw)
		}
	}
	if len(rws) != len(locks) {
		return
	}
	var holding atomic.Int64
	all := make(chan struct{})
	var wg sync.WaitGroup
	for i, rw := range rws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := rw.RLockContext(ctx); err != nil {
				c.violate("overlap phase: process %d: %v", i, err)
				return
			}
			cur := holding.Add(1)
			c.noteReaders(cur)
			if cur == int64(len(rws)) {
				close(all)
			}
			select {
			case <-all:
			case <-time.After(overlapWait):
				c.violate("readers do not share: at most %d of %d processes held the read lock at once in %v", c.maxReaders.Load(), len(rws), overlapWait)
			}
			holding.Add(-1)
			if err := rw.RUnlock(); err != nil {
				c.violate("overlap phase: process %d: RUnlock: %v", i, err)
			}
		}()
	}
	wg.Wait()
}
