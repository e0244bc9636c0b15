package ir_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
)

func TestMessageLayout(t *testing.T) {
	m := ring().Message("token")
	if m == nil {
		t.Fatal("no message token")
	}
	p := ir.Params{N: 4}
	if got := m.Width(p); got != 5 {
		t.Errorf("Width = %d, want 5 (from, then ln's 4 words)", got)
	}
	if got := m.Offset(1, p); got != 1 {
		t.Errorf("Offset(ln) = %d, want 1", got)
	}
	if got := m.Offset(0, p); got != 0 {
		t.Errorf("Offset(from) = %d, want 0", got)
	}
}

func TestBodiesAndLookups(t *testing.T) {
	a := ring()
	if !a.MessagePassing() || queue().MessagePassing() {
		t.Error("MessagePassing is wrong")
	}
	var names []string
	for _, b := range a.Bodies() {
		names = append(names, b.Name)
	}
	if got := strings.Join(names, ", "); got != "start, Acquire, Release, on token" {
		t.Errorf("Bodies = %s", got)
	}
	a.Start = nil
	if got := a.Bodies()[0].Name; got != "Acquire" {
		t.Errorf("without a start, Bodies begins with %s", got)
	}
	if a.Handler("token") == nil || a.Handler("ack") != nil || a.Message("ack") != nil {
		t.Error("Handler/Message lookups are wrong")
	}
}
