package netstress

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/transport/inproc"
)

// Behaviour checks what a user relies on beyond exclusion, on two
// processes over an in-order network: a LockContext that times out
// leaves the lock usable (its abandoned passage enters and leaves by
// itself); TryLock succeeds without a message where the process already
// has the lock's token and otherwise fails without sending anything;
// Unlock without Lock panics, and so do Lock on the zero value and a
// second Lock while the process holds the lock (LockContext returns an
// error instead); Close refuses while the process holds the lock and
// then fails it; a closed transport fails the lock (Done closes,
// LockContext returns the transport's error, Unlock of the passage in
// progress reports it).
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
		mustPanic(t, "Unlock of an unlocked lock", func() { ls[0].Unlock() })
		ls[0].Lock()
		mustPanic(t, "a second Lock while the process holds the lock", ls[0].Lock)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ls[0].LockContext(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a second LockContext while the process holds the lock: %v, want an error at once", err)
		}
		if err := ls[0].Close(); err == nil {
			t.Error("Close while the process holds the lock: no error")
		}
		if err := ls[0].Unlock(); err != nil {
			t.Errorf("Unlock: %v", err)
		}
		if s.Zero != nil {
			zero := s.Zero()
			mustPanic(t, "Lock on the zero value", zero.Lock)
			if zero.Err() == nil {
				t.Error("the zero value's Err is nil")
			}
			select {
			case <-zero.Done():
			default:
				t.Error("the zero value's Done is not closed")
			}
		}
	})

	t.Run("close", func(t *testing.T) {
		nw, ls := start(inproc.Options{})
		defer nw.Close()
		ls[1].Lock()
		if err := ls[1].Unlock(); err != nil {
			t.Fatalf("Unlock: %v", err)
		}
		if err := ls[1].Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		select {
		case <-ls[1].Done():
		case <-time.After(5 * time.Second):
			t.Fatal("Done not closed after Close")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ls[1].LockContext(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("LockContext after Close: %v, want the lock's error", err)
		}
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
		<-ls[0].Done()
		if err := ls[0].Unlock(); !errors.Is(err, inproc.ErrClosed) {
			t.Errorf("Unlock of a passage during which the transport closed: %v, want the transport's error", err)
		}
	})
}

// mustPanic requires f to panic with a lockgen: message.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		switch r := recover().(type) {
		case nil:
			t.Errorf("%s did not panic", what)
		case string:
			if !strings.HasPrefix(r, "lockgen: ") {
				t.Errorf("%s panicked with %q, want a lockgen: message", what, r)
			}
		default:
			t.Errorf("%s panicked with %v, want a lockgen: message", what, r)
		}
	}()
	f()
}
