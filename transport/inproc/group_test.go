package inproc

import (
	"slices"
	"testing"
	"time"
)

// The group refuses what does not fit, and every join, crash and leave
// is a new epoch whose view reaches every member.
func TestGroup(t *testing.T) {
	nw := New(3, Options{LockDelay: 7 * time.Millisecond})
	defer nw.Close()
	view := func(m *Member) []int64 {
		t.Helper()
		select {
		case v := <-m.Views():
			return v
		case <-time.After(5 * time.Second):
			t.Fatal("no view")
			return nil
		}
	}
	m0, m1, m2 := nw.Member(0), nw.Member(1), nw.Member(2)
	if err := m0.Join(0, 3, "a"); err != nil {
		t.Fatal(err)
	}
	for name, join := range map[string]func() error{
		"a second join":      func() error { return m0.Join(0, 3, "a") },
		"another algorithm":  func() error { return m1.Join(1, 3, "b") },
		"another n":          func() error { return m1.Join(1, 4, "a") },
		"the wrong endpoint": func() error { return m1.Join(2, 3, "a") },
	} {
		if join() == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if got := view(m0); !slices.Equal(got, []int64{1, 0, 0}) {
		t.Errorf("first view %v", got)
	}
	if err := m1.Join(1, 3, "a"); err != nil {
		t.Fatal(err)
	}
	if err := m2.Join(2, 3, "a"); err != nil {
		t.Fatal(err)
	}
	view(m0)
	if got := view(m0); !slices.Equal(got, []int64{3, 0, 0, 1, 2}) {
		t.Errorf("view after three joins %v", got)
	}
	nw.Crash(1)
	if got := view(m0); !slices.Equal(got, []int64{4, int64(7 * time.Millisecond), 0, 2}) {
		t.Errorf("view after a crash %v", got)
	}
	if _, ok := <-m1.Receive(); ok {
		t.Error("the crashed endpoint still receives")
	}
	if m1.Send(0, []int64{1}) == nil || m1.Err() != ErrCrashed {
		t.Errorf("the crashed endpoint still sends (Err %v)", m1.Err())
	}
	r1 := nw.Restart(1)
	if err := r1.Join(1, 3, "a"); err != nil {
		t.Fatalf("a restarted process: %v", err)
	}
	if got := view(m0); !slices.Equal(got, []int64{5, 0, 0, 1, 2}) {
		t.Errorf("view after the restart %v", got)
	}
	if err := m2.Leave(true); err != nil {
		t.Fatal(err)
	}
	if got := view(m0); !slices.Equal(got, []int64{6, 0, 0, 1}) {
		t.Errorf("view after a clean leave %v", got)
	}
	if err := r1.Send(0, []int64{9}); err != nil {
		t.Fatal(err)
	}
	if m := <-m0.Receive(); !slices.Equal(m, []int64{9}) {
		t.Errorf("received %v", m)
	}
}

// A process cut off goes on running, but hears and is heard by nobody;
// the others go on without it after the lock-delay, and its lease runs
// out as long after the cut: its Err says so and its Receive closes.
func TestIsolate(t *testing.T) {
	const delay = 30 * time.Millisecond
	nw := New(2, Options{LockDelay: delay})
	defer nw.Close()
	m0, m1 := nw.Member(0), nw.Member(1)
	for i, m := range []*Member{m0, m1} {
		if err := m.Join(i, 2, "a"); err != nil {
			t.Fatal(err)
		}
	}
	<-m0.Views()
	<-m0.Views()
	cut := time.Now()
	nw.Isolate(1)
	if got := <-m0.Views(); !slices.Equal(got, []int64{3, int64(delay), 0}) {
		t.Errorf("view after the cut %v", got)
	}
	if err := m1.Send(0, []int64{1}); err != nil {
		t.Errorf("a process cut off cannot tell its messages are lost: %v", err)
	}
	if err := m0.Send(1, []int64{2}); err != nil {
		t.Fatal(err)
	}
	if err := m1.Err(); err != nil && time.Since(cut) < delay {
		t.Errorf("the lease ran out early: %v", err)
	}
	if _, ok := <-m1.Receive(); ok {
		t.Error("a process cut off received a message")
	}
	if time.Since(cut) < delay || m1.Err() != ErrLeaseLost {
		t.Errorf("Receive closed after %v of a %v lease; Err %v", time.Since(cut), delay, m1.Err())
	}
	select {
	case m := <-m0.Receive():
		t.Errorf("the others heard a process cut off: %v", m)
	default:
	}
}
