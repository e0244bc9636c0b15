// Package bench compares generated locks with the standard library in one
// run: a passage through an empty critical section (a counter increment),
// uncontended and with 8 and 64 goroutines on the machine's Ps.
//
//	go test -run '^$' -bench . -benchmem ./bench/
//
// BenchmarkLockUnlock runs every generated mutex next to sync.Mutex;
// BenchmarkWaitPolicy, MCS under each waiting policy next to sync.Mutex;
// BenchmarkRLockRUnlock, the read side of the reader/writer lock under its
// three preferences next to sync.RWMutex; BenchmarkKExclusion, a
// 2-exclusion lock next to a golang.org/x/sync/semaphore.Weighted of
// capacity 2.
//
// ns/op is wall time per passage over all goroutines (a throughput
// measure); divide by the baseline's row of the same run for the ratio.
package bench

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/semaphore"

	"github.com/lockgen/lockgen/bench/locks"
	"github.com/lockgen/lockgen/spec"
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

// shared: every goroutine uses the lock itself.
func shared(newLock func() sync.Locker) func() func(int) sync.Locker {
	return func() func(int) sync.Locker { l := newLock(); return func(int) sync.Locker { return l } }
}

// handles: each goroutine takes its own handle.
func handles(newLock func() func() sync.Locker) func() func(int) sync.Locker {
	return func() func(int) sync.Locker { h := newLock(); return func(int) sync.Locker { return h() } }
}

type idLocker interface {
	Lock(int)
	Unlock(int)
}

// ids: goroutine g is process g.
func ids(newLock func() idLocker) func() func(int) sync.Locker {
	return func() func(int) sync.Locker {
		l := newLock()
		return func(g int) sync.Locker { return idLock{l, g} }
	}
}

// subjects lists the baselines first, then every lock of locks/locks.toml.
func subjects() []subject {
	return []subject{
		{"sync.Mutex", shared(func() sync.Locker { return new(sync.Mutex) })},
		{"sync.RWMutex.Lock", shared(func() sync.Locker { return new(sync.RWMutex) })},
		{"Ticket", shared(func() sync.Locker { return locks.NewTicket() })},
		{"MCS", handles(func() func() sync.Locker { l := locks.NewMCS(); return func() sync.Locker { return l.NewHandle() } })},
		{"DT1", handles(func() func() sync.Locker { l := locks.NewDT1(); return func() sync.Locker { return l.NewHandle() } })},
		{"DT2", ids(func() idLocker { return locks.NewDT2() })},
		{"CLH", handles(func() func() sync.Locker { l := locks.NewCLH(); return func() sync.Locker { return l.NewHandle() } })},
		{"Anderson", shared(func() sync.Locker { return locks.NewAnderson() })},
		{"GraunkeThakkar", ids(func() idLocker { return locks.NewGraunkeThakkar() })},
		{"TAS", shared(func() sync.Locker { return locks.NewTAS() })},
		{"TTAS", shared(func() sync.Locker { return locks.NewTTAS() })},
		{"ReplaceAdd", shared(func() sync.Locker { return locks.NewReplaceAdd() })},
		{"Morris", shared(func() sync.Locker { return locks.NewMorris() })},
		{"Filter", ids(func() idLocker { return locks.NewFilter() })},
		{"Bakery", ids(func() idLocker { return locks.NewBakery() })},
		{"BlackWhiteBakery", ids(func() idLocker { return locks.NewBlackWhiteBakery() })},
		{"HehnerShyamasundar", ids(func() idLocker { return locks.NewHehnerShyamasundar() })},
		{"Kessels", ids(func() idLocker { return locks.NewKessels() })},
		{"LamportFast", ids(func() idLocker { return locks.NewLamportFast() })},
		{"Dijkstra", ids(func() idLocker { return locks.NewDijkstra() })},
		{"Knuth", ids(func() idLocker { return locks.NewKnuth() })},
		{"DeBruijn", ids(func() idLocker { return locks.NewDeBruijn() })},
		{"EisenbergMcGuire", ids(func() idLocker { return locks.NewEisenbergMcGuire() })},
		{"Burns", ids(func() idLocker { return locks.NewBurns() })},
		{"Anonymous", handles(func() func() sync.Locker {
			l := locks.NewAnonymous()
			return func() sync.Locker { return l.NewHandle() }
		})},
		{"RWFair.Lock", shared(func() sync.Locker { return locks.NewRWFair() })},
	}
}

// waitSubjects: MCS under every waiting policy (MCS itself has the
// default, spin-then-park).
func waitSubjects() []subject {
	return []subject{
		{"sync.Mutex", shared(func() sync.Locker { return new(sync.Mutex) })},
		{"MCS", handles(func() func() sync.Locker { l := locks.NewMCS(); return func() sync.Locker { return l.NewHandle() } })},
		{"MCSPark", handles(func() func() sync.Locker { l := locks.NewMCSPark(); return func() sync.Locker { return l.NewHandle() } })},
		{"MCSSpin", handles(func() func() sync.Locker { l := locks.NewMCSSpin(); return func() sync.Locker { return l.NewHandle() } })},
		{"MCSYield", handles(func() func() sync.Locker {
			l := locks.NewMCSYield()
			return func() sync.Locker { return l.NewHandle() }
		})},
		{"MCSSpinThenYield", handles(func() func() sync.Locker {
			l := locks.NewMCSSpinThenYield()
			return func() sync.Locker { return l.NewHandle() }
		})},
	}
}

// readLocker is the read side of a reader/writer lock as a sync.Locker.
type readLocker struct{ l rLocker }

func (r readLocker) Lock()   { r.l.RLock() }
func (r readLocker) Unlock() { r.l.RUnlock() }

type rLocker interface {
	RLock()
	RUnlock()
}

// readSubjects: read passages of the reader/writer locks.
func readSubjects() []subject {
	read := func(newLock func() rLocker) func() func(int) sync.Locker {
		return shared(func() sync.Locker { return readLocker{newLock()} })
	}
	return []subject{
		{"sync.RWMutex.RLock", read(func() rLocker { return new(sync.RWMutex) })},
		{"RWFair.RLock", read(func() rLocker { return locks.NewRWFair() })},
		{"RWReader.RLock", read(func() rLocker { return locks.NewRWReader() })},
		{"RWWriter.RLock", read(func() rLocker { return locks.NewRWWriter() })},
	}
}

// weighted is a semaphore.Weighted of capacity k taken one unit at a time.
type weighted struct{ s *semaphore.Weighted }

func (w weighted) Lock() {
	if err := w.s.Acquire(context.Background(), 1); err != nil {
		panic(err)
	}
}
func (w weighted) Unlock() { w.s.Release(1) }

// kSubjects: 2-exclusion.
func kSubjects() []subject {
	return []subject{
		{"semaphore.Weighted(2)", shared(func() sync.Locker { return weighted{semaphore.NewWeighted(2)} })},
		{"ReplaceAddK2", shared(func() sync.Locker { return locks.NewReplaceAddK2() })},
	}
}

// Goroutine counts: uncontended, then 8 and 64 goroutines.
var goroutines = []int{1, 8, 64}

func BenchmarkLockUnlock(b *testing.B)   { runAll(b, subjects()) }
func BenchmarkWaitPolicy(b *testing.B)   { runAll(b, waitSubjects()) }
func BenchmarkRLockRUnlock(b *testing.B) { runAll(b, readSubjects()) }
func BenchmarkKExclusion(b *testing.B)   { runAll(b, kSubjects()) }

func runAll(b *testing.B, subjects []subject) {
	for _, s := range subjects {
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

// TestSubjectsMatchSpec keeps the table in step with locks/locks.toml:
// every lock of the spec has a row, and every row locks and unlocks for
// 64 goroutines.
func TestSubjectsMatchSpec(t *testing.T) {
	f, err := spec.ParseFile("locks/locks.toml")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	all := slices.Concat(subjects(), waitSubjects(), readSubjects(), kSubjects())
	for _, s := range all {
		rows[strings.TrimSuffix(strings.TrimSuffix(s.name, ".Lock"), ".RLock")] = true
		of := s.make()
		for g := 0; g < 64; g++ {
			l := of(g)
			l.Lock()
			l.Unlock()
		}
	}
	for _, l := range f.Locks {
		if !rows[l.Name] {
			t.Errorf("lock %s of locks.toml has no benchmark row", l.Name)
		}
	}
}
