// Package bench compares generated locks with the standard library in one
// run: Lock+Unlock of an empty critical section (a counter increment),
// uncontended and with 8 and 64 goroutines on the machine's Ps.
//
//	go test -run '^$' -bench . -benchmem ./bench/
//
// ns/op is wall time per passage over all goroutines (a throughput
// measure); divide by the sync.Mutex row of the same run for the ratio.
package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockgen/lockgen/bench/locks"
)

// subject is one lock: make returns a fresh lock's per-goroutine Locker
// factory (a handle, an id, or the lock itself).
type subject struct {
	name string
	make func() func(g int) sync.Locker
}

// idLock adapts Lock(id)/Unlock(id) to sync.Locker for one id.
type idLock struct {
	l interface {
		Lock(int)
		Unlock(int)
	}
	id int
}

func (x idLock) Lock()   { x.l.Lock(x.id) }
func (x idLock) Unlock() { x.l.Unlock(x.id) }

func shared(l sync.Locker) func() func(int) sync.Locker {
	return func() func(int) sync.Locker { return func(int) sync.Locker { return l } }
}

// subjects lists the baselines first, then every lock of locks.toml.
func subjects() []subject {
	return []subject{
		{"sync.Mutex", func() func(int) sync.Locker { var m sync.Mutex; return shared(&m)() }},
		{"sync.RWMutex.Lock", func() func(int) sync.Locker { var m sync.RWMutex; return shared(&m)() }},
		{"Ticket", func() func(int) sync.Locker { return shared(locks.NewTicket())() }},
		{"MCS", func() func(int) sync.Locker {
			l := locks.NewMCS()
			return func(int) sync.Locker { return l.NewHandle() }
		}},
		{"DT1", func() func(int) sync.Locker {
			l := locks.NewDT1()
			return func(int) sync.Locker { return l.NewHandle() }
		}},
		{"Filter", func() func(int) sync.Locker {
			l := locks.NewFilter()
			return func(g int) sync.Locker { return idLock{l, g} }
		}},
		{"Bakery", func() func(int) sync.Locker {
			l := locks.NewBakery()
			return func(g int) sync.Locker { return idLock{l, g} }
		}},
		{"RWFair.Lock", func() func(int) sync.Locker { return shared(locks.NewRWFair())() }},
	}
}

// Goroutine counts: uncontended, then 8 and 64 goroutines.
var goroutines = []int{1, 8, 64}

func BenchmarkLockUnlock(b *testing.B) {
	for _, s := range subjects() {
		for _, g := range goroutines {
			b.Run(fmt.Sprintf("%s/goroutines=%d", s.name, g), func(b *testing.B) { run(b, s, g) })
		}
	}
}

// run measures b.N passages shared among g goroutines.
func run(b *testing.B, s subject, g int) {
	of := s.make()
	counter := 0 // touched only inside the critical section
	b.ReportAllocs()
	if g == 1 {
		l := of(0)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			l.Lock()
			counter++
			l.Unlock()
		}
		return
	}
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((g + procs - 1) / procs)
	var ids atomic.Int32
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		l := of(int(ids.Add(1) - 1))
		for pb.Next() {
			l.Lock()
			counter++
			l.Unlock()
		}
	})
}

// TestSubjectsMatchSpec keeps the table in step with locks.toml.
func TestSubjectsMatchSpec(t *testing.T) {
	// Every generated lock type has a row; the constructors above would not
	// compile otherwise, so check the other direction: each row works.
	for _, s := range subjects() {
		of := s.make()
		for g := 0; g < 64; g++ {
			l := of(g)
			l.Lock()
			l.Unlock()
		}
	}
}
