package ir

import (
	"errors"
	"fmt"
)

// Check type-checks an algorithm: every name declared, every expression
// well typed, loads only where a step may read. Backends and the mutation
// engine rely on a checked definition.
func Check(a *Algorithm) error {
	c := &checker{a: a}
	if a.Acquire == nil || a.Release == nil {
		c.errf("", "Acquire and Release are required")
	}
	seen := map[string]bool{}
	declare := func(kind, name string) {
		if name == "" {
			c.errf("", "%s with an empty name", kind)
		}
		if seen[name] {
			c.errf("", "%s %q declared twice", kind, name)
		}
		seen[name] = true
	}
	for _, s := range a.Shared {
		declare("shared", s.Name)
		c.checkType(s.Type)
	}
	for _, r := range a.Records {
		declare("record", r.Name)
		fs := map[string]bool{}
		for _, f := range r.Fields {
			if fs[f.Name] {
				c.errf("", "record %s: field %q twice", r.Name, f.Name)
			}
			fs[f.Name] = true
			c.checkType(f.Type)
		}
	}
	for _, p := range a.Procs {
		declare("procs", p.Name)
		if a.Record(p.Rec) == nil {
			c.errf("", "procs %s: unknown record %q", p.Name, p.Rec)
		}
		if p.Count < 1 {
			c.errf("", "procs %s: count %d", p.Name, p.Count)
		}
	}
	for _, l := range a.Locals {
		declare("local", l.Name)
		c.checkType(l.Type)
		if l.InitMine != nil {
			if l.Scope != Process || l.Type.Kind != Ref {
				c.errf("", "local %s: InitMine needs a Process-scoped reference", l.Name)
			}
			c.expect(*l.InitMine, l.Type, map[string]Type{})
		}
	}
	for _, op := range a.Ops() {
		c.op = op.Name
		try := op.Name == "TryAcquire" || op.Name == "TryRAcquire"
		acq := try || op.Name == "Acquire" || op.Name == "RAcquire"
		c.code(op.Code, map[string]Type{}, acq, try)
	}
	c.op = ""
	if a.MessagePassing() || len(a.Handlers) > 0 {
		c.checkMessages()
	} else if a.Start != nil {
		c.errf("", "a start sends the messages a network starts with: only for a message-passing algorithm")
	}
	if a.DoorwayEnd != "" && !c.labels["Acquire:"+a.DoorwayEnd] {
		c.errf("", "DoorwayEnd %q is not a label of Acquire", a.DoorwayEnd)
	}
	return errors.Join(c.errs...)
}

type checker struct {
	a       *Algorithm
	op      string
	errs    []error
	labels  map[string]bool
	inAbort bool // checking abort code
}

func (c *checker) errf(label, format string, args ...any) {
	where := c.a.Name
	if c.op != "" {
		where += "." + c.op
	}
	if label != "" {
		where += " line " + label
	}
	c.errs = append(c.errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...)))
}

func (c *checker) checkType(t Type) {
	if t.Kind == Ref && c.a.Record(t.Rec) == nil {
		c.errf("", "reference to unknown record %q", t.Rec)
	}
}

func (c *checker) code(code Code, env map[string]Type, acq, try bool) {
	for _, s := range code {
		c.stmt(s, env, acq, try)
	}
}

func (c *checker) stmt(s Stmt, env map[string]Type, acq, try bool) {
	l := s.Label()
	if l != "" && !c.inAbort { // the doorway is made of the acquire's own lines
		if c.labels == nil {
			c.labels = map[string]bool{}
		}
		c.labels[c.op+":"+l] = true
	}
	switch s := s.(type) {
	case Write:
		t := c.loc(l, s.To, env)
		c.expectAt(l, s.Val, t, env)
	case Set:
		c.expectAt(l, s.Val, c.localElem(l, s.Dst, s.Index, env), env)
	case Swap:
		t := c.loc(l, s.To, env)
		c.expectAt(l, s.Val, t, env)
		if s.Dst != "" && c.local(l, s.Dst, env) != t {
			c.errf(l, "swap result %s is %s, location is %s", s.Dst, c.local(l, s.Dst, env), t)
		}
	case CAS:
		t := c.loc(l, s.To, env)
		c.expectAt(l, s.Old, t, env)
		c.expectAt(l, s.New, t, env)
		if s.Dst != "" && c.local(l, s.Dst, env) != TBool {
			c.errf(l, "CAS result %s must be bool", s.Dst)
		}
	case FetchAdd:
		if t := c.loc(l, s.To, env); t != TInt {
			c.errf(l, "fetch-and-add on %s", t)
		}
		c.expectAt(l, s.Delta, TInt, env)
		if s.Dst != "" && c.local(l, s.Dst, env) != TInt {
			c.errf(l, "fetch-and-add result %s must be int", s.Dst)
		}
	case If:
		c.expectAt(l, s.Cond, TBool, env)
		c.code(s.Then, env, acq, try)
		c.code(s.Else, env, acq, try)
	case While:
		c.expectAt(l, s.Cond, TBool, env)
		c.code(s.Body, env, acq, try)
		c.abort(l, s.Abort, s.Busy, env, acq)
	case Repeat:
		c.code(s.Body, env, acq, try)
		c.expectAt(l, s.Until, TBool, env)
		c.abort(l, s.Abort, s.Busy, env, acq)
	case For:
		c.expectAt(l, s.From, TInt, env)
		c.expectAt(l, s.To, TInt, env)
		if _, clash := env[s.Var]; clash || c.a.LocalVar(s.Var) != nil {
			c.errf(l, "loop variable %s shadows a local", s.Var)
		}
		inner := map[string]Type{}
		for k, v := range env {
			inner[k] = v
		}
		inner[s.Var] = TInt
		c.code(s.Body, inner, acq, try)
	case Await:
		c.expectAt(l, s.Cond, TBool, env)
		c.abort(l, s.Abort, true, env, acq)
	case Succeed:
		if !acq {
			c.errf(l, "Succeed outside an acquire")
		}
	case Fail:
		if !try {
			c.errf(l, "Fail outside a try-acquire")
		}
	case Delay:
		if (s.Param == "") == (s.Dur == nil) {
			c.errf(l, "Delay needs a parameter or a duration, not both")
		}
		if s.Dur != nil {
			c.expectAt(l, s.Dur, TInt, env)
		}
	case Send:
		if !c.a.MessagePassing() {
			c.errf(l, "send in a shared-memory algorithm")
		}
		c.checkSend(l, s, env)
	case FreeRecord:
		if t := c.typeOf(l, s.Ref, env); t.Kind != Ref {
			c.errf(l, "FreeRecord of %s", t)
		}
	default:
		c.errf(l, "unknown statement %T", s)
	}
}

// abort checks the abort code of a wait (see abort.go): only in a
// blocking acquire, only on a wait, not inside other abort code, and ending
// every way through it with Fail or Succeed.
func (c *checker) abort(l string, abort Code, wait bool, env map[string]Type, acq bool) {
	if abort == nil {
		return
	}
	switch {
	case !wait:
		c.errf(l, "abort code on a loop that is not a busy wait")
	case c.op != "Acquire" && c.op != "RAcquire":
		c.errf(l, "abort code outside an acquire (a try-acquire gives up by itself)")
	case c.inAbort:
		c.errf(l, "abort code inside abort code: the waits of an abort cannot be abandoned")
	case !terminates(abort):
		c.errf(l, "abort code must end every way through it with give up (Fail) or enter (Succeed)")
	}
	saved := c.inAbort
	c.inAbort = true
	c.code(abort, env, acq, true) // give up (Fail) is the abort's end
	c.inAbort = saved
}

func (c *checker) local(l, name string, env map[string]Type) Type {
	if t, ok := env[name]; ok {
		return t
	}
	if v := c.a.LocalVar(name); v != nil {
		return v.Type
	}
	c.errf(l, "unknown local %q", name)
	return Type{Kind: 255}
}

// localElem types a use of local name, indexed or not as it was declared.
func (c *checker) localElem(l, name string, index Expr, env map[string]Type) Type {
	t := c.local(l, name, env)
	if v := c.a.LocalVar(name); v != nil && (v.Len != nil) != (index != nil) {
		c.errf(l, "local %s: array/scalar mismatch", name)
	}
	if index != nil {
		c.expectAt(l, index, TInt, env)
	}
	return t
}

func (c *checker) loc(l string, loc Loc, env map[string]Type) Type {
	switch loc := loc.(type) {
	case Var:
		s := c.a.SharedVar(loc.Name)
		if s == nil {
			c.errf(l, "unknown shared register %q", loc.Name)
			return Type{Kind: 255}
		}
		if s.IsArray() != (loc.Index != nil) {
			c.errf(l, "%s: array/scalar mismatch", loc.Name)
		}
		if loc.Index != nil {
			c.expectAt(l, loc.Index, TInt, env)
		}
		return s.Type
	case Fld:
		if HasLoad(loc.Ref) {
			c.errf(l, "field %s reached through a load: read the reference into a local first", loc.Name)
		}
		rt := c.typeOf(l, loc.Ref, env)
		if rt.Kind != Ref {
			c.errf(l, "field %s of non-reference %s", loc.Name, rt)
			return Type{Kind: 255}
		}
		f := c.a.Record(rt.Rec).Field(loc.Name)
		if f == nil {
			c.errf(l, "record %s has no field %q", rt.Rec, loc.Name)
			return Type{Kind: 255}
		}
		return f.Type
	}
	c.errf(l, "unknown location %T", loc)
	return Type{Kind: 255}
}

func (c *checker) expect(e Expr, want Type, env map[string]Type) { c.expectAt("", e, want, env) }

func (c *checker) expectAt(l string, e Expr, want Type, env map[string]Type) {
	if e == nil {
		c.errf(l, "missing expression")
		return
	}
	if got := c.typeOf(l, e, env); got != want && got.Kind != 255 {
		// Nil is typed by its context.
		if _, isNil := e.(Nil); isNil && want.Kind == Ref {
			return
		}
		c.errf(l, "expression is %s, want %s", got, want)
	}
}

func (c *checker) typeOf(l string, e Expr, env map[string]Type) Type {
	switch e := e.(type) {
	case Const, Param, Self:
		return TInt
	case BoolConst:
		return TBool
	case Nil:
		return Type{Kind: Ref}
	case LocalRef:
		return c.localElem(l, e.Name, e.Index, env)
	case Load:
		return c.loc(l, e.From, env)
	case Mine:
		p := c.a.ProcRecs(e.Name)
		if p == nil {
			c.errf(l, "unknown per-process records %q", e.Name)
			return Type{Kind: 255}
		}
		c.expectAt(l, e.Index, TInt, env)
		return TRef(p.Rec)
	case Not:
		c.expectAt(l, e.X, TBool, env)
		return TBool
	case Quant:
		c.expectAt(l, e.From, TInt, env)
		c.expectAt(l, e.To, TInt, env)
		if _, clash := env[e.Var]; clash || c.a.LocalVar(e.Var) != nil {
			c.errf(l, "quantified variable %s shadows a local", e.Var)
		}
		inner := map[string]Type{e.Var: TInt}
		for k, v := range env {
			inner[k] = v
		}
		c.expectAt(l, e.Body, TBool, inner)
		return TBool
	case Bin:
		switch {
		case e.Op == And || e.Op == Or:
			c.expectAt(l, e.X, TBool, env)
			c.expectAt(l, e.Y, TBool, env)
			return TBool
		case e.Op == Eq || e.Op == Ne:
			x, y := c.typeOf(l, e.X, env), c.typeOf(l, e.Y, env)
			if x.Kind != y.Kind || (x.Kind == Ref && x.Rec != y.Rec && x.Rec != "" && y.Rec != "") {
				c.errf(l, "comparing %s with %s", x, y)
			}
			return TBool
		case e.Op.IsCompare():
			c.expectAt(l, e.X, TInt, env)
			c.expectAt(l, e.Y, TInt, env)
			return TBool
		default:
			c.expectAt(l, e.X, TInt, env)
			c.expectAt(l, e.Y, TInt, env)
			return TInt
		}
	}
	c.errf(l, "unknown expression %T", e)
	return Type{Kind: 255}
}
