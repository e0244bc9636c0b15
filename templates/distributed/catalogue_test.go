package distributed

import (
	"testing"

	"github.com/lockgen/lockgen/ir"
)

func TestDefinitionsCheck(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("empty catalogue")
	}
	for _, e := range All() {
		a := e.Def()
		if err := ir.Check(a); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		if !a.MessagePassing() {
			t.Errorf("%s: declares no messages", e.Name)
		}
		if a.Name != e.Name {
			t.Errorf("%s: definition named %q", e.Name, a.Name)
		}
		if e.Findings.NeedsFIFO && !e.AssumesFIFO {
			t.Errorf("%s: the checks need FIFO channels, which the entry does not assume: fix the definition, or say where the paper assumes them", e.Name)
		}
		if e.Restart == "" {
			t.Errorf("%s: does not say where a new epoch starts the algorithm (Restart)", e.Name)
		}
	}
}

// The checker rejects what a message-passing definition must not do.
func TestCheckRejects(t *testing.T) {
	base := func() *ir.Algorithm { return dcrew() }
	cases := map[string]func(a *ir.Algorithm){
		"await in a handler": func(a *ir.Algorithm) {
			a.Handlers[0].Code = append(a.Handlers[0].Code, ir.Await{Cond: ir.BoolConst{V: true}})
		},
		"send with too few arguments": func(a *ir.Algorithm) {
			a.Handlers[0].Code = append(a.Handlers[0].Code, ir.Send{To: ir.Self{}, Msg: "REQUEST"})
		},
		"undeclared message": func(a *ir.Algorithm) {
			a.Release = append(a.Release, ir.Send{To: ir.Self{}, Msg: "NOPE"})
		},
		"message without handler": func(a *ir.Algorithm) { a.Handlers = a.Handlers[:1] },
		"shared memory": func(a *ir.Algorithm) {
			a.Shared = append(a.Shared, ir.Shared{Name: "X", Type: ir.TInt})
		},
		"await in the start": func(a *ir.Algorithm) {
			a.Start = ir.Code{ir.Await{Cond: ir.BoolConst{V: true}}}
		},
		"ill-typed send in the start": func(a *ir.Algorithm) {
			a.Start = ir.Code{ir.Send{To: ir.BoolConst{V: true}, Msg: "TOKEN"}}
		},
	}
	for name, breakIt := range cases {
		a := base()
		breakIt(a)
		if err := ir.Check(a); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A start belongs to a message-passing algorithm: a shared-memory one
// with a start is rejected.
func TestCheckRejectsStartWithoutMessages(t *testing.T) {
	a := &ir.Algorithm{Name: "x", Acquire: ir.Code{}, Release: ir.Code{},
		Start: ir.Code{ir.Send{To: ir.Self{}, Msg: "TOKEN"}}}
	if err := ir.Check(a); err == nil {
		t.Error("a shared-memory algorithm with a start: accepted")
	}
}
