package ir

import (
	"fmt"
	"strings"
)

// FormatExpr renders an expression in the papers' notation.
func FormatExpr(e Expr) string {
	switch e := e.(type) {
	case Const:
		if e.Name != "" {
			return e.Name
		}
		return fmt.Sprint(e.V)
	case BoolConst:
		return fmt.Sprint(e.V)
	case Nil:
		return "⊥"
	case Param:
		return e.Name
	case Self:
		return "i"
	case LocalRef:
		if e.Index != nil {
			return e.Name + "[" + FormatExpr(e.Index) + "]"
		}
		return e.Name
	case Load:
		return FormatLoc(e.From)
	case Mine:
		return fmt.Sprintf("&%s_i[%s]", e.Name, FormatExpr(e.Index))
	case Not:
		return "¬" + paren(e.X)
	case Quant:
		q := "∃"
		if e.All {
			q = "∀"
		}
		r := fmt.Sprintf("%s %s ∈ %s..%s", q, e.Var, FormatExpr(e.From), FormatExpr(e.To))
		if e.SkipSelf {
			r += fmt.Sprintf(", %s ≠ i", e.Var)
		}
		return "(" + r + ": " + FormatExpr(e.Body) + ")"
	case Bin:
		return paren(e.X) + " " + binSym(e.Op) + " " + paren(e.Y)
	}
	return fmt.Sprintf("<%T>", e)
}

func binSym(op Op) string {
	switch op {
	case Eq:
		return "="
	case Ne:
		return "≠"
	case Le:
		return "≤"
	case Ge:
		return "≥"
	case And:
		return "∧"
	case Or:
		return "∨"
	case Mod:
		return "mod"
	}
	return op.String()
}

func paren(e Expr) string {
	if _, ok := e.(Bin); ok {
		return "(" + FormatExpr(e) + ")"
	}
	return FormatExpr(e)
}

// FormatLoc renders a shared location.
func FormatLoc(l Loc) string {
	switch l := l.(type) {
	case Var:
		if l.Index == nil {
			return l.Name
		}
		return l.Name + "[" + FormatExpr(l.Index) + "]"
	case Fld:
		return FormatExpr(l.Ref) + "." + l.Name
	}
	return fmt.Sprintf("<%T>", l)
}

// FormatHead renders one statement on one line; compound statements show
// only their head ("if c then", "repeat", "for j from a to b do").
func FormatHead(s Stmt) string {
	switch s := s.(type) {
	case Write:
		return FormatLoc(s.To) + " := " + FormatExpr(s.Val)
	case Set:
		if s.Index != nil {
			return s.Dst + "[" + FormatExpr(s.Index) + "] := " + FormatExpr(s.Val)
		}
		return s.Dst + " := " + FormatExpr(s.Val)
	case Swap:
		return assignTo(s.Dst) + "FAS(" + FormatLoc(s.To) + ", " + FormatExpr(s.Val) + ")"
	case CAS:
		return assignTo(s.Dst) + "CAS(" + FormatLoc(s.To) + ", " + FormatExpr(s.Old) + ", " + FormatExpr(s.New) + ")"
	case FetchAdd:
		return assignTo(s.Dst) + "fetch&add(" + FormatLoc(s.To) + ", " + FormatExpr(s.Delta) + ")"
	case If:
		return "if " + FormatExpr(s.Cond) + " then"
	case While:
		return "while " + FormatExpr(s.Cond) + " do"
	case Repeat:
		return "repeat"
	case For:
		h := fmt.Sprintf("for %s from %s to %s", s.Var, FormatExpr(s.From), FormatExpr(s.To))
		if s.SkipSelf {
			h += fmt.Sprintf(" (%s ≠ i)", s.Var)
		}
		return h + " do"
	case Await:
		return "await " + FormatExpr(s.Cond)
	case Succeed:
		return "enter the critical section"
	case Fail:
		return "give up (return failure)"
	case Delay:
		if s.Param == "" {
			return "delay(" + FormatExpr(s.Dur) + " ns)"
		}
		return "delay(" + s.Param + ")"
	case FreeRecord:
		return "free(" + FormatExpr(s.Ref) + ")"
	case Send:
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = FormatExpr(a)
		}
		if len(args) == 0 {
			return "send(" + FormatExpr(s.To) + ", " + s.Msg + ")"
		}
		return "send(" + FormatExpr(s.To) + ", " + s.Msg + "; " + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("<%T>", s)
}

func assignTo(dst string) string {
	if dst == "" {
		return ""
	}
	return dst + " := "
}

// Listing renders code as numbered pseudo-code, one statement per line,
// with the paper's labels in the left column: the code a process runs when
// it does not give up (see ListingWithAborts).
func Listing(code Code) []string { return listing(code, false) }

// ListingWithAborts is Listing with each wait's abort code under it,
// introduced by "on abort:".
func ListingWithAborts(code Code) []string { return listing(code, true) }

func listing(code Code, aborts bool) []string {
	var out []string
	var walk func(Code, int)
	walk = func(c Code, depth int) {
		for _, s := range c {
			ind := strings.Repeat("  ", depth)
			line := func(text string) {
				lbl := s.Label()
				if lbl != "" {
					lbl = "(" + lbl + ")"
				}
				out = append(out, fmt.Sprintf("%-7s %s%s", lbl, ind, text))
			}
			line(FormatHead(s))
			if abort, ok := AbortOf(s); ok && aborts {
				// The abort code belongs to the wait's head: before any
				// check (any iteration) the process may leave through it.
				out = append(out, fmt.Sprintf("%-7s %s  on abort:", "", ind))
				walk(abort, depth+2)
			}
			switch s := s.(type) {
			case If:
				walk(s.Then, depth+1)
				if len(s.Else) > 0 {
					out = append(out, fmt.Sprintf("%-7s %selse", "", ind))
					walk(s.Else, depth+1)
				}
			case While:
				walk(s.Body, depth+1)
			case For:
				walk(s.Body, depth+1)
			case Repeat:
				walk(s.Body, depth+1)
				out = append(out, fmt.Sprintf("%-7s %suntil %s", "", ind, FormatExpr(s.Until)))
			}
		}
	}
	walk(code, 0)
	return out
}
