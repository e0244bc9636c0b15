package ir

import "strings"

// Message passing. An algorithm that declares Messages is a message-passing
// algorithm (the distributed family): processes share nothing; each keeps
// its state in Process-scoped locals and talks to the others by Send. Its
// operations (Acquire, Release, RAcquire, RRelease) are the paper's request
// and release routines, whose Await waits on the process's own state, and
// its Handlers are the paper's event handler: the code a process runs when
// a message arrives. A step is one handler run (the receipt of one message
// and everything the handler does, sends included) or one stretch of a
// routine between its waits; the backends keep those atomic and interleave
// nothing else.

// Message declares one message type and its parameters, in order.
type Message struct {
	Name string
	// Params are Step-scoped in the handler, Type Int or Bool. A
	// parameter with Len (n elements, ints) is an array: Suzuki–Kasami's
	// token carries its queue and its LN array; its Send argument names a
	// Process array local, whole, and the handler reads its elements.
	Params []Local
	Doc    string
}

// Width is how many words message m takes at parameters p: one per scalar
// parameter, Len(p) per array.
func (m *Message) Width(p Params) int { return m.Offset(len(m.Params), p) }

// Offset is where parameter i starts among m's words at parameters p.
func (m *Message) Offset(i int, p Params) int {
	off := 0
	for _, prm := range m.Params[:i] {
		if prm.Len != nil {
			off += prm.Len(p)
		} else {
			off++
		}
	}
	return off
}

// Handler is what a process runs on receiving a message of type Msg: the
// message's parameters are locals of the handler (see Message.Params).
type Handler struct {
	Msg  string
	Code Code
}

// Send sends message Msg with Args (one per parameter, in order) to the
// process whose identity To evaluates to. Channels are reliable; whether
// they keep order is the network's choice, not the algorithm's.
type Send struct {
	At
	To   Expr
	Msg  string
	Args []Expr
}

// Join marks where a request joins the order an algorithm's FCFS claim
// speaks of (Algorithm.Joins), after the statement labelled Label, when
// When holds (nil: always). Two kinds of order:
//
//   - a list, the waiting list of the token algorithms: the request of
//     Who (Self, or a handler's parameter) joins behind process Behind
//     (nil: at the head, handed the idle token). A request behind one that
//     is not in the list yet waits in its segment, and joins with it, in
//     order, when that one does;
//   - a key (Key set): Who takes its place by Key (Ricart–Agrawala's
//     sequence number and id).
//
// The FCFS check requires that a process entering has joined, and that no
// conflicting request ahead of it in the order still waits.
type Join struct {
	Label  string
	When   Expr
	Who    Expr
	Behind Expr
	Key    Expr
}

// Bodies returns the start (named "start", when there is one), the
// operations (Ops) and then the handlers, each named "on MSG": all the
// code of a message-passing algorithm, in the order the backends and
// listings present it.
func (a *Algorithm) Bodies() []NamedCode {
	var out []NamedCode
	if a.Start != nil {
		out = append(out, NamedCode{"start", a.Start})
	}
	out = append(out, a.Ops()...)
	for _, h := range a.Handlers {
		out = append(out, NamedCode{"on " + h.Msg, h.Code})
	}
	return out
}

// MessagePassing reports whether a is a message-passing algorithm.
func (a *Algorithm) MessagePassing() bool { return len(a.Messages) > 0 }

// Message returns the message declaration named name, or nil.
func (a *Algorithm) Message(name string) *Message {
	for i := range a.Messages {
		if a.Messages[i].Name == name {
			return &a.Messages[i]
		}
	}
	return nil
}

// Handler returns the handler of message name, or nil.
func (a *Algorithm) Handler(name string) *Handler {
	for i := range a.Handlers {
		if a.Handlers[i].Msg == name {
			return &a.Handlers[i]
		}
	}
	return nil
}

// checkMessages checks a message-passing algorithm's declarations and
// handlers: no shared memory, one handler per message, parameters typed.
func (c *checker) checkMessages() {
	a := c.a
	if len(a.Shared) > 0 || len(a.Records) > 0 || len(a.Procs) > 0 {
		c.errf("", "a message-passing algorithm shares no memory (declare its state as Process locals)")
	}
	for _, l := range a.Locals {
		if l.Len != nil && (l.Scope != Process || !onePerProcess(l)) {
			c.errf("", "local %s: an array of a message-passing algorithm is process state with one element per process (Len = n)", l.Name)
		}
		if l.InitSelf == nil {
			continue
		}
		c.expect(l.InitSelf, l.Type, map[string]Type{})
		if _, err := EvalConst(l.InitSelf, Params{N: 2, K: 1}, 0); err != nil {
			c.errf("", "local %s: initial value: %v", l.Name, err)
		}
	}
	seen := map[string]bool{}
	for _, m := range a.Messages {
		if m.Name == "" || seen[m.Name] {
			c.errf("", "message %q declared twice or unnamed", m.Name)
		}
		seen[m.Name] = true
		for _, p := range m.Params {
			if p.Type != TInt && p.Type != TBool {
				c.errf("", "message %s: parameter %s is %s (int or bool only)", m.Name, p.Name, p.Type)
			}
			if p.Len != nil && (p.Type != TInt || !onePerProcess(p)) {
				c.errf("", "message %s: array parameter %s has one int per process (Len = n)", m.Name, p.Name)
			}
			if a.LocalVar(p.Name) != nil {
				c.errf("", "message %s: parameter %s shadows a local", m.Name, p.Name)
			}
		}
		if a.Handler(m.Name) == nil {
			c.errf("", "message %s has no handler", m.Name)
		}
	}
	for _, h := range a.Handlers {
		m := a.Message(h.Msg)
		if m == nil {
			c.errf("", "handler of undeclared message %q", h.Msg)
			continue
		}
		env := map[string]Type{}
		for _, p := range m.Params {
			env[p.Name] = p.Type
		}
		c.op = "on " + h.Msg
		WalkStmts(h.Code, func(s Stmt) {
			if _, ok := s.(Await); ok {
				c.errf(s.Label(), "a handler runs to completion: no await")
			}
		})
		c.code(h.Code, env, false, false)
	}
	if a.Start != nil {
		c.op = "start"
		WalkStmts(a.Start, func(s Stmt) {
			if _, ok := s.(Await); ok {
				c.errf(s.Label(), "the start runs to completion: no await")
			}
		})
		c.code(a.Start, map[string]Type{}, false, false)
	}
	for _, j := range a.Joins {
		if !c.hasLabel(j.Label) {
			c.errf("", "join at line %s: no such line", j.Label)
		}
	}
	for _, op := range a.Ops() {
		c.op = op.Name
		WalkStmts(op.Code, func(s Stmt) {
			if f, ok := s.(For); ok {
				WalkStmts(f.Body, func(in Stmt) {
					if _, ok := in.(Await); ok {
						c.errf(in.Label(), "an await inside a for loop: a routine's loop runs within one step")
					}
				})
			}
		})
	}
	c.op = ""
}

// onePerProcess reports whether array l has one element per process
// (Len = n), as a message-passing algorithm's arrays have.
func onePerProcess(l Local) bool { return l.Len(Params{N: 2}) == 2 && l.Len(Params{N: 5}) == 5 }

// checkSend type-checks a Send against its message's declaration.
func (c *checker) checkSend(l string, s Send, env map[string]Type) {
	c.expectAt(l, s.To, TInt, env)
	m := c.a.Message(s.Msg)
	if m == nil {
		c.errf(l, "send of undeclared message %q", s.Msg)
		return
	}
	if len(s.Args) != len(m.Params) {
		c.errf(l, "send %s: %d arguments, the message has %d", s.Msg, len(s.Args), len(m.Params))
		return
	}
	for i, arg := range s.Args {
		if m.Params[i].Len == nil {
			c.expectAt(l, arg, m.Params[i].Type, env)
			continue
		}
		ref, ok := arg.(LocalRef)
		if v := c.a.LocalVar(ref.Name); !ok || ref.Index != nil || v == nil || v.Len == nil || v.Type != TInt {
			c.errf(l, "send %s: parameter %s is an array: its argument names a process's int array, whole", s.Msg, m.Params[i].Name)
		}
	}
}

// hasLabel reports whether some routine or handler has a line labelled l.
func (c *checker) hasLabel(l string) bool {
	for k := range c.labels {
		if _, lbl, ok := strings.Cut(k, ":"); ok && lbl == l {
			return true
		}
	}
	return false
}
