package mailbox

import (
	"testing"
	"time"
)

func TestInOrderAndUnbounded(t *testing.T) {
	m := New()
	for i := range 10000 { // nobody receives yet: Put must not block
		m.Put([]int64{int64(i)})
	}
	for i := range 10000 {
		if got := <-m.Out(); got[0] != int64(i) {
			t.Fatalf("message %d came out as %d", i, got[0])
		}
	}
	m.Close()
	m.Close()
	select {
	case _, ok := <-m.Out():
		if ok {
			t.Fatal("a message after Close")
		}
	case <-time.After(time.Second):
		t.Fatal("Out not closed")
	}
	m.Put([]int64{1}) // dropped, no panic
}
