package lockcontext

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	clhtry "github.com/lockgen/lockgen/generated/clh-try"
	lamportfast "github.com/lockgen/lockgen/generated/lamport-fast"
	"github.com/lockgen/lockgen/generated/tas"
)

// chanMutex is the usual context-aware mutex written by hand: a one-slot
// channel, taken in a select with ctx.Done().
type chanMutex chan struct{}

func (m chanMutex) LockContext(ctx context.Context) error {
	select {
	case m <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (m chanMutex) Unlock() { <-m }

// acquirer is one goroutine's way into a lock: acquire with ctx, release.
type acquirer struct {
	lock   func(ctx context.Context) error
	unlock func()
}

// candidates are the locks compared; each makes one acquirer per
// goroutine (CLH-try's handles are per goroutine).
var candidates = []struct {
	name string
	make func() func() acquirer
}{
	{"sync.Mutex.Lock", func() func() acquirer {
		var m sync.Mutex
		return func() acquirer {
			return acquirer{func(context.Context) error { m.Lock(); return nil }, m.Unlock}
		}
	}},
	{"semaphore.Weighted(1).Acquire", func() func() acquirer {
		s := semaphore.NewWeighted(1)
		return func() acquirer {
			return acquirer{func(ctx context.Context) error { return s.Acquire(ctx, 1) }, func() { s.Release(1) }}
		}
	}},
	{"chan.select", func() func() acquirer {
		m := make(chanMutex, 1)
		return func() acquirer { return acquirer{m.LockContext, m.Unlock} }
	}},
	{"TASContext.LockContext", func() func() acquirer {
		l := tas.NewTASContext()
		return func() acquirer { return acquirer{l.LockContext, l.Unlock} }
	}},
	{"TASContext.Lock", func() func() acquirer {
		l := tas.NewTASContext()
		return func() acquirer {
			return acquirer{func(context.Context) error { l.Lock(); return nil }, l.Unlock}
		}
	}},
	{"CLHTry.Lock", func() func() acquirer {
		l := clhtry.NewCLHTry()
		return func() acquirer {
			h := l.NewHandle()
			return acquirer{func(context.Context) error { h.Lock(); return nil }, h.Unlock}
		}
	}},
	{"CLHTry.LockContext", func() func() acquirer {
		l := clhtry.NewCLHTry()
		return func() acquirer {
			h := l.NewHandle()
			return acquirer{h.LockContext, h.Unlock}
		}
	}},
	{"LamportFastContext.Lock", func() func() acquirer {
		l := lamportfast.NewLamportFastContext()
		ids := lamportIDs()
		return func() acquirer {
			id := ids()
			return acquirer{
				func(context.Context) error { l.Lock(id); return nil },
				func() { l.Unlock(id) },
			}
		}
	}},
	{"LamportFastContext.LockContext", func() func() acquirer {
		l := lamportfast.NewLamportFastContext()
		ids := lamportIDs()
		return func() acquirer {
			id := ids()
			return acquirer{
				func(ctx context.Context) error { return l.LockContext(ctx, id) },
				func() { l.Unlock(id) },
			}
		}
	}},
}

// lamportIDs hands out Lamport's process ids, one per goroutine: the
// spec's procs = 4, so at most 4 goroutines at once.
func lamportIDs() func() int {
	var mu sync.Mutex
	next := 0
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		id := next % 4
		next++
		return id
	}
}

// BenchmarkUncontended: one goroutine, a context that is never done.
func BenchmarkUncontended(b *testing.B) {
	ctx := context.Background()
	for _, c := range candidates {
		b.Run(c.name, func(b *testing.B) {
			a := c.make()()
			for b.Loop() {
				if err := a.lock(ctx); err != nil {
					b.Fatal(err)
				}
				a.unlock()
			}
		})
	}
}

// BenchmarkContended: GOMAXPROCS goroutines (at most 4, Lamport's procs)
// passing through a short critical section, each with a deadline far
// ahead (a context that can be done, as a request's is).
func BenchmarkContended(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	procs := min(runtime.GOMAXPROCS(0), 4)
	for _, c := range candidates {
		b.Run(c.name, func(b *testing.B) {
			newAcquirer := c.make()
			var shared int
			var wg sync.WaitGroup
			per := b.N / procs
			b.ResetTimer()
			for range procs {
				a := newAcquirer()
				wg.Go(func() {
					for range per {
						if err := a.lock(ctx); err != nil {
							b.Error(err)
							return
						}
						shared++
						a.unlock()
					}
				})
			}
			wg.Wait()
			if shared != per*procs {
				b.Fatalf("critical sections: %d, want %d", shared, per*procs)
			}
		})
	}
}
