// Package dsl is shorthand for writing ir.Algorithm definitions so that a
// catalogue file reads like the paper's pseudo-code. Statement builders take
// the paper's line label first.
package dsl

import "github.com/lockgen/lockgen/ir"

// Expressions.
var (
	True  ir.Expr = ir.BoolConst{V: true}
	False ir.Expr = ir.BoolConst{V: false}
	Null  ir.Expr = ir.Nil{}
	Self  ir.Expr = ir.Self{}
	N     ir.Expr = ir.Param{Name: "n"}
	K     ir.Expr = ir.Param{Name: "k"}
)

// Lit is an integer constant.
func Lit(v int64) ir.Expr { return ir.Const{V: v} }

// Named is a constant the paper writes by name (LOCKED, WAFLAG).
func Named(name string, v int64) ir.Expr { return ir.Const{V: v, Name: name} }

// Param is a generation-time parameter.
func Param(name string) ir.Expr { return ir.Param{Name: name} }

// Var reads local variable name.
func Var(name string) ir.Expr { return ir.LocalRef{Name: name} }

// VarAt reads element idx of local array name.
func VarAt(name string, idx ir.Expr) ir.Expr { return ir.LocalRef{Name: name, Index: idx} }

// Own is a reference to the process's own record procs[idx].
func Own(procs string, idx ir.Expr) ir.Expr { return ir.Mine{Name: procs, Index: idx} }

// Reg is shared scalar register name.
func Reg(name string) ir.Loc { return ir.Var{Name: name} }

// Elem is element idx of shared array name.
func Elem(name string, idx ir.Expr) ir.Loc { return ir.Var{Name: name, Index: idx} }

// Field is field name of the record ref points to.
func Field(ref ir.Expr, name string) ir.Loc { return ir.Fld{Ref: ref, Name: name} }

// Read is one atomic read of loc.
func Read(loc ir.Loc) ir.Expr { return ir.Load{From: loc} }

func bin(op ir.Op, x, y ir.Expr) ir.Expr { return ir.Bin{Op: op, X: x, Y: y} }

// Operators.
func Plus(x, y ir.Expr) ir.Expr  { return bin(ir.Add, x, y) }
func Minus(x, y ir.Expr) ir.Expr { return bin(ir.Sub, x, y) }
func Times(x, y ir.Expr) ir.Expr { return bin(ir.Mul, x, y) }
func Div(x, y ir.Expr) ir.Expr   { return bin(ir.Div, x, y) }
func Mod(x, y ir.Expr) ir.Expr   { return bin(ir.Mod, x, y) }
func Eq(x, y ir.Expr) ir.Expr    { return bin(ir.Eq, x, y) }
func Ne(x, y ir.Expr) ir.Expr    { return bin(ir.Ne, x, y) }
func Lt(x, y ir.Expr) ir.Expr    { return bin(ir.Lt, x, y) }
func Le(x, y ir.Expr) ir.Expr    { return bin(ir.Le, x, y) }
func Gt(x, y ir.Expr) ir.Expr    { return bin(ir.Gt, x, y) }
func Ge(x, y ir.Expr) ir.Expr    { return bin(ir.Ge, x, y) }
func Not(x ir.Expr) ir.Expr      { return ir.Not{X: x} }

// And is short-circuit conjunction of xs, left to right.
func And(xs ...ir.Expr) ir.Expr { return fold(ir.And, xs) }

// Or is short-circuit disjunction of xs, left to right.
func Or(xs ...ir.Expr) ir.Expr { return fold(ir.Or, xs) }

func fold(op ir.Op, xs []ir.Expr) ir.Expr {
	e := xs[0]
	for _, x := range xs[1:] {
		e = bin(op, e, x)
	}
	return e
}

// ForAll is ∀ v ∈ from..to: body, read element by element.
func ForAll(v string, from, to, body ir.Expr) ir.Expr {
	return ir.Quant{All: true, Var: v, From: from, To: to, Body: body}
}

// ForAllOthers is ∀ v ∈ from..to, v ≠ i: body.
func ForAllOthers(v string, from, to, body ir.Expr) ir.Expr {
	return ir.Quant{All: true, Var: v, From: from, To: to, SkipSelf: true, Body: body}
}

// Exists is ∃ v ∈ from..to: body.
func Exists(v string, from, to, body ir.Expr) ir.Expr {
	return ir.Quant{Var: v, From: from, To: to, Body: body}
}

// ExistsOther is ∃ v ∈ from..to, v ≠ i: body.
func ExistsOther(v string, from, to, body ir.Expr) ir.Expr {
	return ir.Quant{Var: v, From: from, To: to, SkipSelf: true, Body: body}
}

// Lex is the lexicographic order on pairs: (a1,b1) < (a2,b2).
func Lex(a1, b1, a2, b2 ir.Expr) ir.Expr {
	return Or(Lt(a1, a2), And(Eq(a1, a2), Lt(b1, b2)))
}

// Statements.

func at(l string) ir.At { return ir.At{L: l} }

// Code is a statement list.
func Code(ss ...ir.Stmt) ir.Code { return ir.Code(ss) }

// Write stores val into loc.
func Write(l string, loc ir.Loc, val ir.Expr) ir.Stmt { return ir.Write{At: at(l), To: loc, Val: val} }

// WriteIfChanged is a write made only when loc does not hold val already:
// a read, then the write if the value differs. That is the write itself
// wherever no other process can write loc between the two steps (a node
// the process owns and has not published yet, say); where the value is
// usually there already it saves a sequentially consistent store, the
// dearest step of an uncontended passage.
func WriteIfChanged(l string, loc ir.Loc, val ir.Expr) ir.Stmt {
	return If(l, Ne(Read(loc), val), Write(l, loc, val))
}

// Set assigns local dst.
func Set(l, dst string, val ir.Expr) ir.Stmt { return ir.Set{At: at(l), Dst: dst, Val: val} }

// SetAt assigns element idx of local array dst.
func SetAt(l, dst string, idx, val ir.Expr) ir.Stmt {
	return ir.Set{At: at(l), Dst: dst, Index: idx, Val: val}
}

// Swap is dst := fetch-and-store(loc, val).
func Swap(l, dst string, loc ir.Loc, val ir.Expr) ir.Stmt {
	return ir.Swap{At: at(l), Dst: dst, To: loc, Val: val}
}

// CAS is dst := compare-and-swap(loc, old, new).
func CAS(l, dst string, loc ir.Loc, old, new ir.Expr) ir.Stmt {
	return ir.CAS{At: at(l), Dst: dst, To: loc, Old: old, New: new}
}

// FetchAdd is dst := fetch-and-add(loc, delta).
func FetchAdd(l, dst string, loc ir.Loc, delta ir.Expr) ir.Stmt {
	return ir.FetchAdd{At: at(l), Dst: dst, To: loc, Delta: delta}
}

// If runs then when cond holds.
func If(l string, cond ir.Expr, then ...ir.Stmt) ir.Stmt {
	return ir.If{At: at(l), Cond: cond, Then: then}
}

// IfElse runs then or els.
func IfElse(l string, cond ir.Expr, then, els ir.Code) ir.Stmt {
	return ir.If{At: at(l), Cond: cond, Then: then, Else: els}
}

// While loops while cond holds.
func While(l string, cond ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.While{At: at(l), Cond: cond, Body: body}
}

// BusyWhile is a busy-wait loop: the waiting policy applies at its back edge.
func BusyWhile(l string, cond ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.While{At: at(l), Cond: cond, Body: body, Busy: true}
}

// Repeat runs body until until holds.
func Repeat(l string, until ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.Repeat{At: at(l), Body: body, Until: until}
}

// BusyRepeat is a busy-wait repeat loop.
func BusyRepeat(l string, until ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.Repeat{At: at(l), Body: body, Until: until, Busy: true}
}

// For runs body for v from..to inclusive.
func For(l, v string, from, to ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.For{At: at(l), Var: v, From: from, To: to, Body: body}
}

// ForOthers runs body for v from..to inclusive, skipping Self.
func ForOthers(l, v string, from, to ir.Expr, body ...ir.Stmt) ir.Stmt {
	return ir.For{At: at(l), Var: v, From: from, To: to, SkipSelf: true, Body: body}
}

// Await blocks until cond holds.
func Await(l string, cond ir.Expr) ir.Stmt { return ir.Await{At: at(l), Cond: cond} }

// Succeed enters the critical section.
func Succeed(l string) ir.Stmt { return ir.Succeed{At: at(l)} }

// Fail ends a try-acquire without entering.
func Fail(l string) ir.Stmt { return ir.Fail{At: at(l)} }

// Delay pauses for parameter param's duration.
func Delay(l, param string) ir.Stmt { return ir.Delay{At: at(l), Param: param} }

// DelayFor pauses for dur nanoseconds (a backoff).
func DelayFor(l string, dur ir.Expr) ir.Stmt { return ir.Delay{At: at(l), Dur: dur} }

// Free returns a record to the allocator (pool policy).
func Free(l string, ref ir.Expr) ir.Stmt { return ir.FreeRecord{At: at(l), Ref: ref} }

// Send sends message msg with args to process to.
func Send(l string, to ir.Expr, msg string, args ...ir.Expr) ir.Stmt {
	return ir.Send{At: at(l), To: to, Msg: msg, Args: args}
}

// On is the handler of message msg.
func On(msg string, body ...ir.Stmt) ir.Handler { return ir.Handler{Msg: msg, Code: body} }

// State is a process's state variable in a message-passing algorithm,
// starting at init (an expression of Self; nil: zero).
func State(name string, t ir.Type, doc string, init ir.Expr) ir.Local {
	return ir.Local{Name: name, Type: t, Scope: ir.Process, InitSelf: init, Doc: doc}
}

// OnAbort gives the wait (an Await or a busy loop) the paper's abort code:
// what a process that gives up there does, ending with Fail (or Succeed).
func OnAbort(wait ir.Stmt, abort ...ir.Stmt) ir.Stmt { return ir.WithAbort(wait, ir.Code(abort)) }
