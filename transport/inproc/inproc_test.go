package inproc

import (
	"sync"
	"testing"
	"time"
)

// Each pair's messages arrive in order, with and without delays, while
// every endpoint sends to every other at once.
func TestFIFOPerPair(t *testing.T) {
	for _, opts := range []Options{{}, {Delay: func() time.Duration { return time.Duration(time.Now().UnixNano()%50) * time.Microsecond }}} {
		const n, per = 4, 300
		nw := New(n, opts)
		var wg sync.WaitGroup
		for from := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range per {
					for to := range n {
						if err := nw.Endpoint(from).Send(to, []int64{int64(from), int64(k)}); err != nil {
							t.Error(err)
							return
						}
					}
				}
			}()
		}
		for to := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				next := make([]int64, n)
				for range n * per {
					m := <-nw.Endpoint(to).Receive()
					if m[1] != next[m[0]] {
						t.Errorf("endpoint %d: from %d got #%d, want #%d", to, m[0], m[1], next[m[0]])
						return
					}
					next[m[0]]++
				}
			}()
		}
		wg.Wait()
		if s, d := nw.Stats(); s != n*n*per || d != s {
			t.Errorf("sent %d, delivered %d, want %d", s, d, n*n*per)
		}
		nw.Close()
	}
}

// Reorder does reorder, and Loss does lose: the negative controls the
// locks' tests use must really break the contract.
func TestInjectedFaults(t *testing.T) {
	nw := New(2, Options{Reorder: true, Delay: func() time.Duration { return time.Duration(time.Now().UnixNano()%200) * time.Microsecond }})
	const per = 200
	for k := range per {
		nw.Endpoint(0).Send(1, []int64{int64(k)})
	}
	swapped := false
	last := int64(-1)
	for range per {
		m := <-nw.Endpoint(1).Receive()
		swapped = swapped || m[0] < last
		last = m[0]
	}
	nw.Close()
	if !swapped {
		t.Error("Reorder delivered every message in order")
	}
	lossy := New(2, Options{Loss: 0.5, Seed: 7})
	for k := range per {
		lossy.Endpoint(0).Send(1, []int64{int64(k)})
	}
	time.Sleep(10 * time.Millisecond)
	if _, d := lossy.Stats(); d == 0 || d == per {
		t.Errorf("Loss 0.5 delivered %d of %d", d, per)
	}
	lossy.Close()
}

// Close closes every Receive channel and fails later sends.
func TestClose(t *testing.T) {
	nw := New(3, Options{})
	nw.Endpoint(0).Send(1, []int64{1})
	nw.Close()
	nw.Close() // twice is fine
	for i := range 3 {
		for range nw.Endpoint(i).Receive() {
		}
		if nw.Endpoint(i).Err() != ErrClosed {
			t.Errorf("endpoint %d: Err = %v", i, nw.Endpoint(i).Err())
		}
	}
	if err := nw.Endpoint(0).Send(1, nil); err != ErrClosed {
		t.Errorf("Send after Close: %v", err)
	}
	if err := nw.Endpoint(0).Send(9, nil); err == nil {
		t.Error("Send to a missing endpoint succeeded")
	}
}
