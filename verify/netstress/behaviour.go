package netstress

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockgen/lockgen/transport/inproc"
)

// Behaviour checks what a user relies on beyond exclusion, on two
// processes over an in-order network: a LockContext that times out
// leaves the lock usable (its abandoned passage enters and leaves by
// itself); TryLock succeeds without a message where the process already
// has the lock's token and otherwise fails without sending anything;
// Unlock without Lock panics; a closed transport fails the lock (Done
// closes, LockContext returns the transport's error).
func Behaviour(t *testing.T, s Subject) {
	t.Helper()
	s.defaults()
	s.N = 2
	start := func(opts inproc.Options) (*inproc.Network, []Lock) {
		t.Helper()
		nw := inproc.New(2, opts)
		var ls []Lock
		for i := range 2 {
			l, err := s.New(i, 2, nw.Endpoint(i))
			if err != nil {
				t.Fatal(err)
			}
			ls = append(ls, l)
		}
		return nw, ls
	}

	t.Run("cancel", func(t *testing.T) {
		nw, ls := start(s.Network)
		defer nw.Close()
		ls[1].Lock()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if err := ls[0].LockContext(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("LockContext while the other process writes: %v, want the deadline", err)
		}
		ls[1].Unlock()
		done := make(chan struct{})
		go func() { ls[0].Lock(); ls[0].Unlock(); ls[1].Lock(); ls[1].Unlock(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("after an abandoned LockContext the lock no longer passes between the processes")
		}
	})

	t.Run("trylock", func(t *testing.T) {
		nw, ls := start(inproc.Options{})
		defer nw.Close()
		type tryLocker interface{ TryLock() bool }
		var tries []tryLocker
		for _, l := range ls {
			if tl, ok := l.(tryLocker); ok {
				tries = append(tries, tl)
			}
		}
		if len(tries) != len(ls) {
			t.Skip("the lock has no TryLock")
		}
		took := -1
		for i, l := range tries {
			before, _ := nw.Stats()
			if l.TryLock() {
				took = i
				break
			}
			if after, _ := nw.Stats(); after != before {
				t.Errorf("process %d: a failed TryLock sent %d messages", i, after-before)
			}
		}
		if took < 0 {
			t.Fatal("no process could TryLock a lock nobody holds")
		}
		other := tries[1-took]
		before, _ := nw.Stats()
		if other.TryLock() {
			t.Fatal("TryLock succeeded while the other process holds the lock")
		}
		if after, _ := nw.Stats(); after != before {
			t.Errorf("a failed TryLock sent %d messages", after-before)
		}
		ls[took].Unlock()
		ls[1-took].Lock() // the failed try left nothing behind
		ls[1-took].Unlock()
	})

	t.Run("misuse", func(t *testing.T) {
		nw, ls := start(inproc.Options{})
		defer nw.Close()
		defer func() {
			if recover() == nil {
				t.Error("Unlock of an unlocked lock did not panic")
			}
		}()
		ls[0].Unlock()
	})

	t.Run("lost transport", func(t *testing.T) {
		nw, ls := start(inproc.Options{})
		ls[0].Lock()
		nw.Close()
		select {
		case <-ls[1].Done():
		case <-time.After(5 * time.Second):
			t.Fatal("Done not closed after the transport closed")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ls[1].LockContext(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) || !errors.Is(ls[1].Err(), inproc.ErrClosed) {
			t.Errorf("LockContext on a lock whose transport closed: %v (Err %v), want the transport's error", err, ls[1].Err())
		}
	})
}
