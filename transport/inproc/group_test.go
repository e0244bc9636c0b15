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
