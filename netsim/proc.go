// Package netsim runs message-passing algorithms (ir.Algorithm with
// Messages) by interpreting their definitions: Proc is one process's
// state and step semantics, Run a discrete-event simulation of n of them
// over a network with random delays, measuring messages per entry and
// checking the lock's invariant at every event.
package netsim

import (
	"fmt"

	"github.com/lockgen/lockgen/ir"
)

// Msg is one message in flight.
type Msg struct {
	From, To int
	Name     string
	Args     []int64
}

func (m Msg) String() string { return fmt.Sprintf("%s%v %d→%d", m.Name, m.Args, m.From, m.To) }

// Proc is one process of a message-passing algorithm: its locals, and the
// routine it is running, if any, stopped at an await.
type Proc struct {
	ID   int
	alg  *ir.Algorithm
	par  ir.Params
	vars map[string]int64
	arrs map[string][]int64 // local arrays: one element per process
	// stack is the routine in progress, innermost frame last; empty when
	// the process runs no routine.
	stack []frame
	op    string
	// Out collects the messages the process sent since the caller last
	// took them.
	Out []Msg
}

type frame struct {
	code ir.Code
	pc   int
}

// NewProc returns process id of a in its initial state.
func NewProc(a *ir.Algorithm, p ir.Params, id int) *Proc {
	pr := &Proc{ID: id, alg: a, par: p, vars: map[string]int64{}, arrs: map[string][]int64{}}
	for i := range a.Locals {
		l := &a.Locals[i]
		v, err := l.InitialValue(p, id)
		if err != nil {
			panic(fmt.Sprintf("netsim: %s: %v", a.Name, err))
		}
		if l.Len != nil {
			arr := make([]int64, l.Len(p))
			for j := range arr {
				arr[j] = v
			}
			pr.arrs[l.Name] = arr
			continue
		}
		pr.vars[l.Name] = v
	}
	return pr
}

// Begin runs the algorithm's start (ir.Algorithm.Start), if it has one:
// the messages the process puts on the network before anything happens.
func (p *Proc) Begin() { p.run(p.alg.Start, map[string]int64{}) }

// Busy reports whether the process is in a routine (running or waiting).
func (p *Proc) Busy() bool { return len(p.stack) > 0 }

// Op is the routine in progress ("" if none).
func (p *Proc) Op() string { return p.op }

// Start begins routine op ("Acquire", "RAcquire", "Release", "RRelease")
// and runs it as far as it goes: it reports whether the routine finished.
func (p *Proc) Start(op string) bool {
	if p.Busy() {
		panic(fmt.Sprintf("netsim: process %d starts %s inside %s", p.ID, op, p.op))
	}
	var code ir.Code
	for _, c := range p.alg.Ops() {
		if c.Name == op {
			code = c.Code
		}
	}
	if code == nil {
		panic("netsim: no routine " + op)
	}
	p.op = op
	p.stack = []frame{{code: code}}
	return p.Resume()
}

// Resume runs the routine in progress until it finishes (true) or stops
// at an await whose condition does not hold (false).
func (p *Proc) Resume() bool {
	for len(p.stack) > 0 {
		f := &p.stack[len(p.stack)-1]
		if f.pc == len(f.code) {
			p.stack = p.stack[:len(p.stack)-1]
			continue
		}
		s := f.code[f.pc]
		if aw, ok := s.(ir.Await); ok && !p.truth(aw.Cond, nil) {
			return false
		}
		f.pc++
		if body := p.exec(s, nil); body != nil {
			p.stack = append(p.stack, frame{code: body})
		}
	}
	p.op = ""
	return true
}

// Waiting reports whether the routine in progress stands at an await
// that now holds (a handler has just enabled it).
func (p *Proc) Waiting() (label string, enabled bool) {
	if !p.Busy() {
		return "", false
	}
	f := p.stack[len(p.stack)-1]
	if f.pc < len(f.code) {
		if aw, ok := f.code[f.pc].(ir.Await); ok {
			return aw.Label(), p.truth(aw.Cond, nil)
		}
	}
	return "", false
}

// Deliver runs the handler of m to completion.
func (p *Proc) Deliver(m Msg) {
	h := p.alg.Handler(m.Name)
	decl := p.alg.Message(m.Name)
	env := make(map[string]int64, len(decl.Params))
	for i, prm := range decl.Params {
		off := decl.Offset(i, p.par)
		if prm.Len == nil {
			env[prm.Name] = m.Args[off]
			continue
		}
		// An array parameter reads as a local array for the handler's run
		// (ir.Check: no parameter shadows a local).
		p.arrs[prm.Name] = m.Args[off : off+prm.Len(p.par)]
		defer delete(p.arrs, prm.Name)
	}
	p.run(h.Code, env)
}

// run executes straight-line handler code (handlers have no awaits).
func (p *Proc) run(code ir.Code, env map[string]int64) {
	for _, s := range code {
		if body := p.exec(s, env); body != nil {
			p.run(body, env)
		}
	}
}

// exec performs one statement; for an If it returns the branch to run.
func (p *Proc) exec(s ir.Stmt, env map[string]int64) ir.Code {
	switch s := s.(type) {
	case ir.Set:
		v := p.eval(s.Val, env)
		if s.Index != nil {
			p.arrs[s.Dst][p.index(s.Dst, s.Index, env)] = v
			break
		}
		p.vars[s.Dst] = v
	case ir.For:
		// A routine's loop has no await (ir.Check): it runs within the step.
		inner := make(map[string]int64, len(env)+1)
		for k, v := range env {
			inner[k] = v
		}
		for v, to := p.eval(s.From, env), p.eval(s.To, env); v <= to; v++ {
			if s.SkipSelf && v == int64(p.ID) {
				continue
			}
			inner[s.Var] = v
			p.run(s.Body, inner)
		}
	case ir.Send:
		var args []int64
		for _, a := range s.Args {
			if ref, ok := a.(ir.LocalRef); ok && ref.Index == nil && p.arrs[ref.Name] != nil {
				args = append(args, p.arrs[ref.Name]...) // an array, whole
				continue
			}
			args = append(args, p.eval(a, env))
		}
		to := p.eval(s.To, env)
		if to < 0 || int(to) >= p.par.N {
			panic(fmt.Sprintf("netsim: process %d line %s sends %s to %d", p.ID, s.Label(), s.Msg, to))
		}
		p.Out = append(p.Out, Msg{From: p.ID, To: int(to), Name: s.Msg, Args: args})
	case ir.If:
		if p.truth(s.Cond, env) {
			return s.Then
		}
		return s.Else
	case ir.Await:
		// checked by Resume
	default:
		panic(fmt.Sprintf("netsim: statement %T (line %s) in a message-passing algorithm", s, s.Label()))
	}
	return nil
}

// index evaluates an index into local array name, which must be in range.
func (p *Proc) index(name string, idx ir.Expr, env map[string]int64) int64 {
	i := p.eval(idx, env)
	if i < 0 || int(i) >= len(p.arrs[name]) {
		panic(fmt.Sprintf("netsim: process %d: %s[%d] out of range", p.ID, name, i))
	}
	return i
}

func (p *Proc) truth(e ir.Expr, env map[string]int64) bool { return p.eval(e, env) != 0 }

func (p *Proc) eval(e ir.Expr, env map[string]int64) int64 {
	switch e := e.(type) {
	case ir.Const:
		return e.V
	case ir.BoolConst:
		return ir.BoolValue(e.V)
	case ir.Param:
		return p.par.Get(e.Name)
	case ir.Self:
		return int64(p.ID)
	case ir.LocalRef:
		if v, ok := env[e.Name]; ok {
			return v
		}
		if e.Index != nil {
			return p.arrs[e.Name][p.index(e.Name, e.Index, env)]
		}
		return p.vars[e.Name]
	case ir.Not:
		return ir.BoolValue(!p.truth(e.X, env))
	case ir.Quant:
		return ir.BoolValue(p.quant(e, env))
	case ir.Bin:
		x := p.eval(e.X, env)
		switch e.Op {
		case ir.And:
			return ir.BoolValue(x != 0 && p.truth(e.Y, env))
		case ir.Or:
			return ir.BoolValue(x != 0 || p.truth(e.Y, env))
		}
		if v, ok := e.Op.Apply(x, p.eval(e.Y, env)); ok {
			return v
		}
		panic(fmt.Sprintf("netsim: process %d: %s divides by zero", p.ID, ir.FormatExpr(e)))
	}
	panic(fmt.Sprintf("netsim: expression %T in a message-passing algorithm", e))
}

// quant evaluates ∀/∃ over the processes from q.From to q.To.
func (p *Proc) quant(q ir.Quant, env map[string]int64) bool {
	inner := make(map[string]int64, len(env)+1)
	for k, v := range env {
		inner[k] = v
	}
	for v, to := p.eval(q.From, env), p.eval(q.To, env); v <= to; v++ {
		if q.SkipSelf && v == int64(p.ID) {
			continue
		}
		inner[q.Var] = v
		if p.truth(q.Body, inner) != q.All {
			return !q.All
		}
	}
	return q.All
}
