//go:build !lockgen_check

package lockrt

import (
	"sync"
	"testing"
)

// wgParker is the parker's earlier form, on sync.WaitGroup's semaphore,
// kept here as the benchmarks' comparison.
type wgParker struct{ wg sync.WaitGroup }

func (p *wgParker) arm()    { p.wg.Add(1) }
func (p *wgParker) unpark() { p.wg.Done() }
func (p *wgParker) park()   { p.wg.Wait() }

// pingPong hands a token back and forth between two goroutines b.N times:
// each handoff wakes the other goroutine and sleeps, the cost a FIFO lock
// pays to pass itself to a sleeping waiter.
func pingPong(b *testing.B, arm [2]func(), unpark [2]func(), park [2]func()) {
	done := make(chan struct{})
	arm[1]()
	go func() {
		defer close(done)
		for i := 0; i < b.N; i++ {
			park[1]()
			arm[1]()
			unpark[0]()
		}
		park[1]()
	}()
	for i := 0; i < b.N; i++ {
		arm[0]()
		unpark[1]()
		park[0]()
	}
	unpark[1]()
	<-done
}

// BenchmarkParkerHandoff compares the parker (a channel of one) with the
// WaitGroup form it replaced: go test -run '^$' -bench ParkerHandoff
// -count 10 ./backend/golang/lockrt/ | benchstat -.
func BenchmarkParkerHandoff(b *testing.B) {
	b.Run("chan", func(b *testing.B) {
		var p [2]parker
		pingPong(b, [2]func(){p[0].arm, p[1].arm},
			[2]func(){func() { p[0].unpark("") }, func() { p[1].unpark("") }},
			[2]func(){func() { p[0].park("") }, func() { p[1].park("") }})
	})
	b.Run("waitgroup", func(b *testing.B) {
		var p [2]wgParker
		pingPong(b, [2]func(){p[0].arm, p[1].arm},
			[2]func(){p[0].unpark, p[1].unpark},
			[2]func(){p[0].park, p[1].park})
	})
}

// TestParkerTokens: an unpark before the park is kept, and a disarmed
// parker leaves no token behind for its next use.
func TestParkerTokens(t *testing.T) {
	var p parker
	p.arm()
	p.unpark("")
	p.park("") // returns at once: the token was waiting
	p.arm()
	p.disarm()
	p.arm()
	// No token may be waiting now: a park would return without a wake.
	// (Looked at directly: a goroutine that has not parked yet proves
	// nothing.)
	select {
	case <-p.ch:
		t.Fatal("a token was left behind: the next park returns without an unpark")
	default:
	}
	woke := make(chan struct{})
	go func() { p.park(""); close(woke) }()
	p.unpark("")
	<-woke
}

// TestReadyWaitersAllocatesUpFront: after readyWaiters, a wait's arm and
// a whole park/unpark round allocate nothing (a constructed lock's waits
// are allocation-free); without it, the first arm allocates.
func TestReadyWaitersAllocatesUpFront(t *testing.T) {
	cold, next := make([]waiter, 20), 0
	if n := testing.AllocsPerRun(10, func() { cold[next].p.arm(); next++ }); n == 0 {
		t.Fatal("the first arm of a fresh waiter allocated nothing: this test can no longer tell")
	}
	ws := make([]waiter, 4)
	readyWaiters(ws)
	n := testing.AllocsPerRun(100, func() {
		for i := range ws {
			ws[i].p.arm()
			ws[i].p.unpark("")
			ws[i].p.park("")
		}
	})
	if n != 0 {
		t.Errorf("a round on ready waiters allocated %.1f times", n)
	}
}

// BenchmarkPause times one pause, the unit of the adaptive policy's spin
// budget (spinBudget), to set against BenchmarkParkerHandoff/chan, whose
// every iteration is two wake-ups: go test -run '^$' -bench
// 'Pause|ParkerHandoff/chan' -count 5 ./backend/golang/lockrt/.
func BenchmarkPause(b *testing.B) {
	for i := 0; i < b.N; i++ {
		pause("")
	}
}
