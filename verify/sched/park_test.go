package sched_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/lockgen/lockgen/verify/sched"
)

// word is a minimal instrumented register for the Parker tests.
type word struct{ v int64 }

func (w *word) load(l string) int64 {
	sched.Access(l, sched.OpLoad, unsafe.Pointer(w))
	v := atomic.LoadInt64(&w.v)
	sched.ResultInt(v, false)
	return v
}

func (w *word) store(l string, v int64) {
	sched.Access(l, sched.OpStore, unsafe.Pointer(w))
	atomic.StoreInt64(&w.v, v)
	sched.ResultInt(v, true)
}

// handshake is a flag one goroutine waits for and another sets, with the
// waiter announcing itself (waiting) so the setter knows to wake it. With
// announceFirst the waiter announces, then checks (correct); without, it
// checks, then announces (the classic lost wake-up).
func handshake(announceFirst bool) []func(*sched.Proc) {
	var flag, waiting word
	var pk sched.Parker
	return []func(*sched.Proc){
		func(p *sched.Proc) {
			if announceFirst {
				waiting.store("announce", 1)
				if flag.load("check") == 0 {
					pk.Park("sleep")
				}
				return
			}
			if flag.load("check") == 0 {
				waiting.store("announce", 1)
				pk.Park("sleep")
			}
		},
		func(p *sched.Proc) {
			flag.store("set", 1)
			if waiting.load("look") == 1 {
				pk.Unpark("wake")
			}
		},
	}
}

// dfs runs every schedule of make() up to the preemption bound and returns
// the first failure and how many schedules ran.
func dfs(bound int, make func() []func(*sched.Proc), each func(*sched.Result)) (*sched.Result, int) {
	d := sched.NewDFS(bound)
	n := 0
	for d.Next() {
		n++
		res := sched.Run(sched.Config{Chooser: d}, make())
		if each != nil {
			each(res)
		}
		if res.Failure != nil {
			return res, n
		}
	}
	return nil, n
}

func TestParkerLostWakeUpIsADeadlock(t *testing.T) {
	if res, n := dfs(2, func() []func(*sched.Proc) { return handshake(true) }, nil); res != nil {
		t.Fatalf("the correct handshake failed after %d schedules: %v\n%s", n, res.Failure, sched.FormatTrace(res.Events, 0))
	}
	res, n := dfs(2, func() []func(*sched.Proc) { return handshake(false) }, nil)
	if res == nil {
		t.Fatalf("DFS ran %d schedules of the check-then-announce handshake without finding its lost wake-up", n)
	}
	if res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("found %v, want a deadlock", res.Failure)
	}
	for _, want := range []string{"parked at [sleep] on p1", "park   p1: asleep"} {
		if !strings.Contains(res.Failure.Msg+sched.FormatTrace(res.Events, 0), want) {
			t.Errorf("report lacks %q:\n%s\n%s", want, res.Failure.Msg, sched.FormatTrace(res.Events, 0))
		}
	}
}

func TestParkerTokenWaitsForPark(t *testing.T) {
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) {
		var pk sched.Parker
		pk.Unpark("early")
		pk.Unpark("again") // tokens do not accumulate...
		pk.Park("takes it")
		if pk.ParkTimeout("nothing left", time.Hour) { // ...so this one times out
			p.Fail("token", "a second token was kept")
		}
	}})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
}

func TestParkTimeoutExploresBothOutcomes(t *testing.T) {
	got := map[bool]int{}
	res, _ := dfs(2, func() []func(*sched.Proc) {
		var pk sched.Parker
		var ok atomic.Bool
		return []func(*sched.Proc){
			func(p *sched.Proc) { ok.Store(pk.ParkTimeout("wait", time.Hour)); got[ok.Load()]++ },
			func(p *sched.Proc) { pk.Unpark("wake") },
		}
	}, nil)
	if res != nil {
		t.Fatal(res.Failure)
	}
	if got[true] == 0 || got[false] == 0 {
		t.Fatalf("outcomes of ParkTimeout: %v, want both", got)
	}
}

func TestParkerOutsideExecutions(t *testing.T) {
	var pk sched.Parker
	for range 200 {
		done := make(chan struct{})
		go func() { pk.Park("real"); close(done) }()
		select {
		case <-done:
			t.Fatal("Park returned without a token")
		case <-time.After(100 * time.Microsecond):
		}
		pk.Unpark("real")
		<-done
	}
	if pk.ParkTimeout("real", time.Millisecond) {
		t.Fatal("ParkTimeout got a token nobody deposited")
	}
}

// TestParkedIgnoresWrites: a goroutine that waited on a register earlier
// and then parked is let go by an Unpark only, not by a write to that
// register (found by the waiting layer's controls: a stale wait set made
// a parked waiter runnable, and its Park returned without the token).
func TestParkedIgnoresWrites(t *testing.T) {
	var r word
	var pk sched.Parker
	res := sched.Run(sched.Config{Chooser: sched.NewReplay(nil)}, []func(*sched.Proc){
		func(p *sched.Proc) {
			r.load("read")
			sched.Wait("wait") // blocks until the write to r
			pk.Park("sleep")   // must stay asleep through the next write
		},
		func(p *sched.Proc) {
			r.store("first write", 1)
			r.store("second write", 2)
		},
	})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("got %v, want the parked goroutine left asleep (a deadlock)\n%s", res.Failure, sched.FormatTrace(res.Events, 0))
	}
}
