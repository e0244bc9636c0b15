package ir

// WalkExpr calls fn on e and each sub-expression, parents first. It descends
// into the index of a loaded array element and the reference of a loaded
// field.
func WalkExpr(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch e := e.(type) {
	case LocalRef:
		WalkExpr(e.Index, fn)
	case Load:
		walkLoc(e.From, fn)
	case Mine:
		WalkExpr(e.Index, fn)
	case Bin:
		WalkExpr(e.X, fn)
		WalkExpr(e.Y, fn)
	case Not:
		WalkExpr(e.X, fn)
	case Quant:
		WalkExpr(e.From, fn)
		WalkExpr(e.To, fn)
		WalkExpr(e.Body, fn)
	}
}

func walkLoc(l Loc, fn func(Expr)) {
	switch l := l.(type) {
	case Var:
		WalkExpr(l.Index, fn)
	case Fld:
		WalkExpr(l.Ref, fn)
	}
}

// HasLoad reports whether evaluating e reads shared memory.
func HasLoad(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) {
		if _, ok := x.(Load); ok {
			found = true
		}
	})
	return found
}

// Loads returns the locations e reads, in evaluation order.
func Loads(e Expr) []Loc {
	var out []Loc
	WalkExpr(e, func(x Expr) {
		if l, ok := x.(Load); ok {
			out = append(out, l.From)
		}
	})
	return out
}

// WalkStmts calls fn on every statement of code, parents first.
func WalkStmts(code Code, fn func(Stmt)) {
	for _, s := range code {
		fn(s)
		switch s := s.(type) {
		case If:
			WalkStmts(s.Then, fn)
			WalkStmts(s.Else, fn)
		case While:
			WalkStmts(s.Body, fn)
		case Repeat:
			WalkStmts(s.Body, fn)
		case For:
			WalkStmts(s.Body, fn)
		}
	}
}

// StmtExprs returns the expressions a statement evaluates directly (not
// those of nested statements), including location indices and references.
func StmtExprs(s Stmt) []Expr {
	locExprs := func(l Loc) []Expr {
		switch l := l.(type) {
		case Var:
			if l.Index != nil {
				return []Expr{l.Index}
			}
		case Fld:
			return []Expr{l.Ref}
		}
		return nil
	}
	switch s := s.(type) {
	case Write:
		return append(locExprs(s.To), s.Val)
	case Set:
		if s.Index != nil {
			return []Expr{s.Index, s.Val}
		}
		return []Expr{s.Val}
	case Swap:
		return append(locExprs(s.To), s.Val)
	case CAS:
		return append(locExprs(s.To), s.Old, s.New)
	case FetchAdd:
		return append(locExprs(s.To), s.Delta)
	case If:
		return []Expr{s.Cond}
	case While:
		return []Expr{s.Cond}
	case Repeat:
		return []Expr{s.Until}
	case For:
		return []Expr{s.From, s.To}
	case Await:
		return []Expr{s.Cond}
	case FreeRecord:
		return []Expr{s.Ref}
	case Send:
		return append([]Expr{s.To}, s.Args...)
	case Delay:
		if s.Dur != nil {
			return []Expr{s.Dur}
		}
	}
	return nil
}

// WrittenLoc returns the location a statement writes (Write, Swap, CAS,
// FetchAdd), or nil.
func WrittenLoc(s Stmt) Loc {
	switch s := s.(type) {
	case Write:
		return s.To
	case Swap:
		return s.To
	case CAS:
		return s.To
	case FetchAdd:
		return s.To
	}
	return nil
}

// LocKey names the register class a location belongs to: the shared name,
// or "Record.field". Two locations with different keys never alias.
func (a *Algorithm) LocKey(l Loc) string {
	switch l := l.(type) {
	case Var:
		return l.Name
	case Fld:
		return a.RefRecord(l.Ref) + "." + l.Name
	}
	return ""
}

// RefRecord returns the record type a reference expression points to
// (a local, or one of the process's own records); "" if unknown.
func (a *Algorithm) RefRecord(e Expr) string {
	switch e := e.(type) {
	case LocalRef:
		if v := a.LocalVar(e.Name); v != nil {
			return v.Type.Rec
		}
	case Mine:
		if p := a.ProcRecs(e.Name); p != nil {
			return p.Rec
		}
	}
	return ""
}
