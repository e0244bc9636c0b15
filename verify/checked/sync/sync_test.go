package sync_test

import (
	"context"
	stdsync "sync"
	stdatomic "sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify/checked/sync"
)

// These run in both builds: in the lockgen_check build outside any
// controlled execution, where the checked types must behave as the real
// ones.

func TestSema(t *testing.T) {
	s := sync.NewSema(1)
	s.Acquire()
	if s.TryAcquire() {
		t.Fatal("TryAcquire took a second permit of one")
	}
	if s.AcquireTimeout(time.Millisecond) {
		t.Fatal("AcquireTimeout got a permit nobody released")
	}
	done := make(chan bool)
	go func() { done <- s.AcquireTimeout(10 * time.Second) }()
	time.Sleep(time.Millisecond)
	s.Release()
	if !<-done {
		t.Fatal("the waiter did not get the released permit")
	}
	s.Release()
	if !s.TryAcquire() {
		t.Fatal("TryAcquire found no permit after a Release")
	}
}

// TestSemaHoldsK: never more than k holders, and every goroutine finishes,
// with timeouts racing the releases.
func TestSemaHoldsK(t *testing.T) {
	const k = 2
	s := sync.NewSema(k)
	var inside, most stdatomic.Int32
	var wg stdsync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				if !s.AcquireTimeout(time.Duration(i%3) * time.Microsecond) {
					s.Acquire()
				}
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				inside.Add(-1)
				s.Release()
			}
		}()
	}
	wg.Wait()
	if m := most.Load(); m > k || m < 1 {
		t.Fatalf("%d holders at once, want at most %d", m, k)
	}
}

func TestChan(t *testing.T) {
	c := sync.NewChan[int](0)
	go c.Send(7)
	if v, ok := c.Recv(); v != 7 || !ok {
		t.Fatalf("Recv = %d, %v", v, ok)
	}
	if c.TrySend(1) {
		t.Fatal("TrySend on an unbuffered channel with no receiver succeeded")
	}
	if _, _, got := c.RecvTimeout(time.Millisecond); got {
		t.Fatal("RecvTimeout got a value nobody sent")
	}
	b := sync.NewChan[int](2)
	b.Send(1)
	b.Send(2)
	if b.TrySend(3) || b.Len() != 2 {
		t.Fatal("a full buffer took a third value")
	}
	b.Close()
	if v, ok := b.Recv(); v != 1 || !ok {
		t.Fatalf("after Close, Recv = %d, %v, want the buffered 1", v, ok)
	}
	b.Recv()
	if _, ok := b.Recv(); ok {
		t.Fatal("a drained closed channel gave a value")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("send on a closed channel did not panic")
		}
	}()
	b.Send(4)
}

// TestChanStress: many senders and receivers over a small buffer lose
// and duplicate nothing.
func TestChanStress(t *testing.T) {
	c := sync.NewChan[int](1)
	const n, g = 2000, 4
	var sum stdatomic.Int64
	var wg stdsync.WaitGroup
	for i := 0; i < g; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 1; j <= n; j++ {
				c.Send(j)
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < n; j++ {
				v, _ := c.Recv()
				sum.Add(int64(v))
			}
		}()
	}
	wg.Wait()
	if want := int64(g * n * (n + 1) / 2); sum.Load() != want {
		t.Fatalf("received sum %d, want %d", sum.Load(), want)
	}
}

func TestParker(t *testing.T) {
	var p sync.Parker
	p.Unpark()
	p.Park() // the token was kept
	if p.ParkTimeout(time.Millisecond) {
		t.Fatal("a second token appeared")
	}
}

func TestMutexCondWaitGroupOnce(t *testing.T) {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var wg sync.WaitGroup
	var once sync.Once
	ready, inits := false, 0
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { inits++ })
			mu.Lock()
			for !ready {
				cond.Wait()
			}
			mu.Unlock()
		}()
	}
	time.Sleep(time.Millisecond)
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	if inits != 1 {
		t.Fatalf("Once ran %d times", inits)
	}
	var rw sync.RWMutex
	rw.RLock()
	if !rw.TryRLock() || rw.TryLock() {
		t.Fatal("readers must share and exclude a writer")
	}
	rw.RUnlock()
	rw.RUnlock()
	if !rw.TryLock() {
		t.Fatal("a free RWMutex refused a writer")
	}
	rw.Unlock()
}

// The context forms behave as their standard counterparts: a semaphore
// acquire that gives up with ctx.Err() (as x/sync/semaphore's Acquire),
// a receive that gives up as a select on the channel and ctx.Done() does.
func TestContextForms(t *testing.T) {
	ctx := context.Background()
	done, cancel := context.WithCancel(ctx)
	cancel()

	s := sync.NewSema(1)
	if err := s.AcquireContext(ctx); err != nil {
		t.Fatalf("AcquireContext with a free permit: %v", err)
	}
	if err := s.AcquireContext(done); err != context.Canceled {
		t.Fatalf("AcquireContext on a cancelled context and no permit: %v, want context.Canceled", err)
	}
	wait, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	got := make(chan error)
	go func() { got <- s.AcquireContext(wait) }()
	time.Sleep(time.Millisecond)
	s.Release()
	if err := <-got; err != nil {
		t.Fatalf("the waiter did not get the released permit: %v", err)
	}
	if s.TryAcquire() {
		t.Fatal("a permit was handed out twice")
	}

	// The same receives on a checked Chan and on a Go channel.
	c, std := sync.NewChan[int](1), make(chan int, 1)
	recvStd := func(ctx context.Context) (int, bool, error) {
		select {
		case v, ok := <-std:
			return v, ok, nil
		case <-ctx.Done():
			return 0, false, ctx.Err()
		}
	}
	for i, step := range []struct {
		send  bool
		ctx   context.Context
		close bool
	}{
		// (A value ready and ctx done: a select picks either at random;
		// RecvContext takes the value.)
		{send: true, ctx: ctx}, {ctx: done}, {send: true, ctx: ctx}, {close: true, ctx: ctx},
	} {
		if step.send {
			c.Send(i)
			std <- i
		}
		if step.close {
			c.Close()
			close(std)
		}
		v1, ok1, err1 := c.RecvContext(step.ctx)
		v2, ok2, err2 := recvStd(step.ctx)
		if v1 != v2 || ok1 != ok2 || err1 != err2 {
			t.Errorf("step %d: RecvContext = %v, %v, %v; the select = %v, %v, %v", i, v1, ok1, err1, v2, ok2, err2)
		}
	}

	var p sync.Parker
	if err := p.ParkContext(done); err != context.Canceled {
		t.Fatalf("ParkContext on a cancelled context: %v", err)
	}
	p.Unpark()
	if err := p.ParkContext(done); err != nil && err != context.Canceled {
		t.Fatalf("ParkContext: %v", err)
	}
}
