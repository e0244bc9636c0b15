// Package mutate generates the mutants of an algorithm definition: small,
// plausible mistakes (two statements swapped, a statement dropped, a CAS
// weakened to a write, a comparison flipped, a loop bound off by one) made
// in the one ir.Algorithm every backend lowers. lab/mutation runs each
// mutant through every verification layer; a layer that lets a wrong
// mutant through is a gap in the checker. Controls (controls.go) are the
// named mistakes the papers themselves warn about.
package mutate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Operator is a mutation operator.
type Operator string

// The operators, each applied wherever it fits, in every operation.
const (
	// Swap exchanges two adjacent statements of one statement list.
	Swap Operator = "swap"
	// Delete removes one statement (with its body, for a compound one).
	// Awaits are left to DropAwait.
	Delete Operator = "delete"
	// CASWrite turns dst := CAS(x, old, new) into x := new; dst := true:
	// the write happens whatever x held, and the caller believes it won.
	CASWrite Operator = "cas-write"
	// FASWrite turns dst := FAS(x, v) into dst := x; x := v: a read and a
	// plain write of the new value, no longer one atomic step (v is
	// evaluated first, into a temporary, when it reads dst).
	FASWrite Operator = "fas-write"
	// DropAwait removes an await.
	DropAwait Operator = "drop-await"
	// Flip negates one comparison: = ↔ ≠, < ↔ ≥, > ↔ ≤.
	Flip Operator = "flip"
	// OffByOne moves a loop bound by one: a for loop's or a quantifier's
	// from or to ±1, or the bound of an ordering comparison in a while or
	// repeat condition (< ↔ ≤, > ↔ ≥).
	OffByOne Operator = "off-by-one"
)

// Operators lists the operators in the order mutants are generated.
var Operators = []Operator{Swap, Delete, CASWrite, FASWrite, DropAwait, Flip, OffByOne}

// Where locates a mutation.
type Where struct {
	Op    string // the operation: Acquire, Release, TryAcquire, RAcquire, ...
	Label string // the paper's label of the (first) statement changed, "" if unlabelled
	Stmt  string // that statement, one line (ir.FormatHead)
	Path  string // its position: statement indices from the operation's top, "e" for an else branch
}

func (w Where) String() string {
	l := w.Label
	if l == "" {
		l = "unlabelled " + w.Path
	}
	return fmt.Sprintf("%s (%s) %s", w.Op, l, w.Stmt)
}

// Mutant is one mutation of an algorithm.
type Mutant struct {
	// ID is stable while the definition does not change:
	// "<alg>/<operation>/<operator>[-detail]@<label>[#n]", e.g.
	// "mcs/Release/delete@11", "mcs/Acquire/swap@5,6", "bakery/Acquire/flip-gt@2#2".
	// Unlabelled statements are named by position ("_3.e1").
	ID       string
	Operator Operator
	Where    Where
	// Change says what was changed, in the papers' notation.
	Change string
	// Orig are the original's statements the mutation changed (two for a
	// swap, in program order).
	Orig []ir.Stmt `json:"-"`
	// Alg is a deep copy of the algorithm with the change.
	Alg *ir.Algorithm `json:"-"`
}

// Discarded is a mutation that was not kept, and why.
type Discarded struct {
	ID       string
	Operator Operator
	Where    Where
	Change   string
	Reason   string
}

// Set is every mutation of one algorithm: the mutants kept and those
// discarded (the definition no longer checks, the Go backend cannot lower
// it, or it is the original or another mutant again).
type Set struct {
	Name      string // the prefix of the IDs
	Kept      []Mutant
	Discarded []Discarded
}

// Mutants returns every mutant of a that passes ir.Check and that the Go
// backend can lower, for the catalogue entry named a.Name (its first
// variant) or, for an algorithm outside the catalogue, a synthetic entry
// (see EntryFor).
func Mutants(a *ir.Algorithm) []Mutant {
	e := EntryFor(a)
	return Generate(a, Target{Entry: e, Options: e.AllOptions()[0]}).Kept
}

// Target is what mutants are lowered for: a catalogue entry, one of its
// variants, and the name prefixing the mutant IDs ("" means the
// algorithm's name).
type Target struct {
	Entry   *templates.Entry
	Options templates.Options
	Name    string
	// Lowerable is the backends' test of a mutant that ir.Check accepts:
	// a mutant it refuses is discarded with its reason (lab/mutation
	// passes the Go backend's). Nil keeps them all.
	Lowerable func(a *ir.Algorithm) error
}

// Generate applies every operator wherever it fits in a and sorts the
// results into kept and discarded mutants. a itself is not changed.
func Generate(a *ir.Algorithm, t Target) Set {
	name := t.Name
	if name == "" {
		name = a.Name
	}
	set := Set{Name: name}
	orig := canonical(a)
	seen := map[string]string{orig: "the original"}
	ids := map[string]int{}
	for _, m := range raw(a) {
		base := fmt.Sprintf("%s/%s/%s", name, m.Where.Op, m.id)
		ids[base]++
		m.ID = base
		if n := ids[base]; n > 1 {
			m.ID = fmt.Sprintf("%s#%d", base, n)
		}
		reason := ""
		if err := ir.Check(m.Alg); err != nil {
			reason = "ir.Check: " + oneLine(err.Error())
		} else if c := canonical(m.Alg); seen[c] != "" {
			reason = "same definition as " + seen[c]
		} else {
			seen[c] = m.ID
			if t.Lowerable != nil {
				if err := t.Lowerable(m.Alg); err != nil {
					reason = "Go backend: " + oneLine(err.Error())
				}
			}
		}
		if reason != "" {
			set.Discarded = append(set.Discarded, Discarded{ID: m.ID, Operator: m.Operator, Where: m.Where, Change: m.Change, Reason: reason})
			continue
		}
		set.Kept = append(set.Kept, m.Mutant)
	}
	return set
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// EntryFor returns the catalogue entry named a.Name or, for an algorithm
// outside the catalogue, a synthetic mutex entry: ids when the definition
// uses them, handles when it has per-process records, no claims beyond
// deadlock freedom.
func EntryFor(a *ir.Algorithm) *templates.Entry {
	if e, ok := templates.Lookup(a.Name); ok {
		return e
	}
	e := &templates.Entry{
		Name: a.Name, Title: a.Name,
		Props: templates.Properties{Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free",
			Instructions: []string{"read", "write"}, Identity: "symmetric"},
		Modes: []mode.Mode{mode.Mutex},
		Def:   func(templates.Options) *ir.Algorithm { return Clone(a) },
	}
	if usesSelf(a) {
		e.NeedsProcs = true
	}
	if len(a.Procs) > 0 {
		e.Nodes = map[templates.NodePolicy]string{templates.Handle: ""}
		e.DefaultNodes = templates.Handle
	}
	if a.TryAcquire == nil {
		e.TryLock = "the algorithm has no non-blocking acquire"
	}
	return e
}

func usesSelf(a *ir.Algorithm) bool {
	found := false
	for _, s := range a.Shared {
		found = found || s.Owner == "proc"
	}
	for _, op := range a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			for _, e := range ir.StmtExprs(s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					if _, ok := x.(ir.Self); ok {
						found = true
					}
				})
			}
		})
	}
	return found
}

// canonical renders the operations and the doorway of a definition, to
// recognise a mutant that is the original or another mutant again.
func canonical(a *ir.Algorithm) string {
	var b strings.Builder
	for _, op := range opNames {
		fmt.Fprintf(&b, "%s:%#v\n", op, *opCode(a, op))
	}
	fmt.Fprintf(&b, "doorway:%s\nlocals:%d", a.DoorwayEnd, len(a.Locals))
	return b.String()
}

// rawMutant is a mutation before it is checked and named.
type rawMutant struct {
	Mutant
	id string // "<operator>[-detail]@<key>"
}

// pos is one step of a path to a statement list: statement idx of the
// enclosing list, and which of its bodies (0: then/body, 1: else).
type pos struct{ idx, body int }

func pathString(path []pos, idx int) string {
	var b strings.Builder
	b.WriteString("_")
	for _, p := range path {
		b.WriteString(strconv.Itoa(p.idx))
		b.WriteString(".")
		if p.body == 1 {
			b.WriteString("e")
		}
	}
	b.WriteString(strconv.Itoa(idx))
	return b.String()
}

// raw generates every mutation of a, in a fixed order: operations, then
// statements in program order, then operators.
func raw(a *ir.Algorithm) []rawMutant {
	var out []rawMutant
	for _, op := range opNames {
		code := *opCode(a, op)
		if code == nil {
			continue
		}
		walkLists(code, nil, func(path []pos, list ir.Code) {
			for i, s := range list {
				w := Where{Op: op, Label: s.Label(), Stmt: ir.FormatHead(s), Path: pathString(path, i)}
				key := s.Label()
				if key == "" {
					key = w.Path
				}
				add := func(o Operator, detail, change string, edit func(*ir.Algorithm)) {
					b := Clone(a)
					edit(b)
					id := string(o)
					if detail != "" {
						id += "-" + detail
					}
					out = append(out, rawMutant{id: id + "@" + key, Mutant: Mutant{Operator: o, Where: w, Change: change, Orig: []ir.Stmt{copyStmt(s)}, Alg: b}})
				}
				stmtsAt := func(b *ir.Algorithm, f func(ir.Code) ir.Code) {
					c := opCode(b, op)
					*c = editList(*c, path, f)
				}
				// Swap with the next statement.
				if i+1 < len(list) {
					t := list[i+1]
					tkey := t.Label()
					if tkey == "" {
						tkey = pathString(path, i+1)
					}
					change := fmt.Sprintf("swap %s and %s", show(s), show(t))
					b := Clone(a)
					stmtsAt(b, func(c ir.Code) ir.Code {
						c = append(ir.Code(nil), c...)
						c[i], c[i+1] = c[i+1], c[i]
						return c
					})
					out = append(out, rawMutant{id: "swap@" + key + "," + tkey, Mutant: Mutant{Operator: Swap, Where: w, Change: change, Orig: []ir.Stmt{copyStmt(s), copyStmt(t)}, Alg: b}})
				}
				// Delete, or drop an await.
				if _, await := s.(ir.Await); await {
					add(DropAwait, "", "drop "+show(s), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i) })
						fixDoorway(b, a, op, s)
					})
				} else {
					add(Delete, "", "delete "+show(s), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i) })
						fixDoorway(b, a, op, s)
					})
				}
				// Weaken a CAS or a FAS to a plain write.
				switch st := s.(type) {
				case ir.CAS:
					repl := ir.Code{ir.Write{At: st.At, To: st.To, Val: st.New}}
					if st.Dst != "" {
						repl = append(repl, ir.Set{At: st.At, Dst: st.Dst, Val: ir.BoolConst{V: true}})
					}
					add(CASWrite, "", fmt.Sprintf("%s → %s", show(s), showCode(repl)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i, copyCode(repl)...) })
					})
				case ir.Swap:
					repl, tmp := fasWrite(a, st)
					add(FASWrite, "", fmt.Sprintf("%s → %s", show(s), showCode(repl)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i, copyCode(repl)...) })
						if tmp != nil {
							b.Locals = append(b.Locals, *tmp)
						}
					})
				}
				// Flip each comparison the statement evaluates.
				for k, n := 0, countExprs(s, isCompare); k < n; k++ {
					var from ir.Op
					ns := rewriteNth(s, isCompare, k, func(e ir.Expr) ir.Expr {
						b := e.(ir.Bin)
						from = b.Op
						b.Op = flipped[b.Op]
						return b
					})
					add(Flip, opWord[from], fmt.Sprintf("%s → %s", show(s), show(ns)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i, copyStmt(ns)) })
					})
				}
				// Off by one: loop bounds.
				for _, m := range offByOne(s) {
					add(OffByOne, m.detail, fmt.Sprintf("%s → %s", show(s), show(m.stmt)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return replace(c, i, copyStmt(m.stmt)) })
					})
				}
			}
		})
	}
	return out
}

// show renders a statement with its label: "(7) pred.next := mynode"; a
// repeat loop shows its condition.
func show(s ir.Stmt) string {
	h := ir.FormatHead(s)
	if r, ok := s.(ir.Repeat); ok {
		h = "repeat … until " + ir.FormatExpr(r.Until)
	}
	if l := s.Label(); l != "" {
		return "(" + l + ") " + h
	}
	return h
}

func showCode(c ir.Code) string {
	var parts []string
	for _, s := range c {
		parts = append(parts, ir.FormatHead(s))
	}
	return strings.Join(parts, "; ")
}

// walkLists calls fn on every statement list of code, outermost first.
func walkLists(code ir.Code, path []pos, fn func([]pos, ir.Code)) {
	fn(path, code)
	for i, s := range code {
		sub := func(body int, c ir.Code) {
			if len(c) > 0 {
				walkLists(c, append(append([]pos(nil), path...), pos{i, body}), fn)
			}
		}
		switch s := s.(type) {
		case ir.If:
			sub(0, s.Then)
			sub(1, s.Else)
		case ir.While:
			sub(0, s.Body)
		case ir.Repeat:
			sub(0, s.Body)
		case ir.For:
			sub(0, s.Body)
		}
	}
}

// editList returns code with f applied to the list at path; the lists on
// the way are copied.
func editList(code ir.Code, path []pos, f func(ir.Code) ir.Code) ir.Code {
	if len(path) == 0 {
		return f(code)
	}
	out := append(ir.Code(nil), code...)
	p, rest := path[0], path[1:]
	switch s := out[p.idx].(type) {
	case ir.If:
		if p.body == 0 {
			s.Then = editList(s.Then, rest, f)
		} else {
			s.Else = editList(s.Else, rest, f)
		}
		out[p.idx] = s
	case ir.While:
		s.Body = editList(s.Body, rest, f)
		out[p.idx] = s
	case ir.Repeat:
		s.Body = editList(s.Body, rest, f)
		out[p.idx] = s
	case ir.For:
		s.Body = editList(s.Body, rest, f)
		out[p.idx] = s
	default:
		panic(fmt.Sprintf("mutate: path through %T", s))
	}
	return out
}

// replace returns c with statement i replaced by with (removed if none).
func replace(c ir.Code, i int, with ...ir.Stmt) ir.Code {
	out := append(ir.Code(nil), c[:i]...)
	out = append(out, with...)
	out = append(out, c[i+1:]...)
	if len(out) == 0 && c != nil {
		return ir.Code{}
	}
	return out
}

// fixDoorway keeps DoorwayEnd pointing at a statement of Acquire when a
// mutation removed the last statement carrying its label: the doorway
// then ends at the last labelled Acquire statement before the removed
// one ("" if none). Without this the mutant would fail ir.Check, and the
// mutations that matter most for FIFO locks would be lost.
func fixDoorway(b, orig *ir.Algorithm, op string, removed ir.Stmt) {
	if op != "Acquire" || b.DoorwayEnd == "" || hasLabel(b.Acquire, b.DoorwayEnd) {
		return
	}
	prev := ""
	done := false
	ir.WalkStmts(orig.Acquire, func(s ir.Stmt) {
		if done {
			return
		}
		if ir.FormatHead(s) == ir.FormatHead(removed) && s.Label() == removed.Label() {
			done = true
			return
		}
		if l := s.Label(); l != "" && l != orig.DoorwayEnd && hasLabel(b.Acquire, l) {
			prev = l
		}
	})
	b.DoorwayEnd = prev
}

func hasLabel(code ir.Code, l string) bool {
	found := false
	ir.WalkStmts(code, func(s ir.Stmt) { found = found || s.Label() == l })
	return found
}

// fasWrite is the FAS-to-write replacement of st, and the temporary it
// needs when the new value reads the destination.
func fasWrite(a *ir.Algorithm, st ir.Swap) (ir.Code, *ir.Local) {
	if st.Dst == "" {
		return ir.Code{ir.Write{At: st.At, To: st.To, Val: st.Val}}, nil
	}
	val := st.Val
	var out ir.Code
	var tmp *ir.Local
	if readsLocal(st.Val, st.Dst) {
		name := st.Dst + "_new"
		for a.LocalVar(name) != nil {
			name += "_"
		}
		tmp = &ir.Local{Name: name, Type: localType(a, st.Dst), Doc: "the FAS's new value, kept across the split (mutant)"}
		out = append(out, ir.Set{At: st.At, Dst: name, Val: st.Val})
		val = ir.LocalRef{Name: name}
	}
	out = append(out,
		ir.Set{At: st.At, Dst: st.Dst, Val: ir.Load{From: st.To}},
		ir.Write{At: st.At, To: st.To, Val: val})
	return out, tmp
}

func localType(a *ir.Algorithm, name string) ir.Type {
	if l := a.LocalVar(name); l != nil {
		return l.Type
	}
	return ir.TInt
}

func readsLocal(e ir.Expr, name string) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, ok := x.(ir.LocalRef); ok && r.Name == name {
			found = true
		}
	})
	return found
}

var flipped = map[ir.Op]ir.Op{ir.Eq: ir.Ne, ir.Ne: ir.Eq, ir.Lt: ir.Ge, ir.Ge: ir.Lt, ir.Gt: ir.Le, ir.Le: ir.Gt}

// opWord names a comparison in mutant IDs.
var opWord = map[ir.Op]string{ir.Eq: "eq", ir.Ne: "ne", ir.Lt: "lt", ir.Le: "le", ir.Gt: "gt", ir.Ge: "ge"}

func isCompare(e ir.Expr) bool {
	b, ok := e.(ir.Bin)
	return ok && b.Op.IsCompare()
}

func isOrder(e ir.Expr) bool {
	b, ok := e.(ir.Bin)
	return ok && (b.Op == ir.Lt || b.Op == ir.Le || b.Op == ir.Gt || b.Op == ir.Ge)
}

func isQuant(e ir.Expr) bool {
	_, ok := e.(ir.Quant)
	return ok
}

// shifted moves the bound of an ordering comparison by one.
var shifted = map[ir.Op]ir.Op{ir.Lt: ir.Le, ir.Le: ir.Lt, ir.Gt: ir.Ge, ir.Ge: ir.Gt}

type oboMutant struct {
	detail string
	stmt   ir.Stmt
}

// offByOne returns the off-by-one mutations of s: its for loop's bounds,
// the ranges of the quantifiers it evaluates, and the ordering comparisons
// of its while or repeat condition.
func offByOne(s ir.Stmt) []oboMutant {
	var out []oboMutant
	if f, ok := s.(ir.For); ok {
		for _, d := range []int64{+1, -1} {
			g := f
			g.From = plus(f.From, d)
			out = append(out, oboMutant{"from" + sign(d), g})
		}
		for _, d := range []int64{+1, -1} {
			g := f
			g.To = plus(f.To, d)
			out = append(out, oboMutant{"to" + sign(d), g})
		}
	}
	for k, n := 0, countExprs(s, isQuant); k < n; k++ {
		for _, end := range []string{"from", "to"} {
			for _, d := range []int64{+1, -1} {
				ns := rewriteNth(s, isQuant, k, func(e ir.Expr) ir.Expr {
					q := e.(ir.Quant)
					if end == "from" {
						q.From = plus(q.From, d)
					} else {
						q.To = plus(q.To, d)
					}
					return q
				})
				out = append(out, oboMutant{"q" + end + sign(d), ns})
			}
		}
	}
	var cond func(ir.Stmt) ir.Expr
	var set func(ir.Stmt, ir.Expr) ir.Stmt
	switch s.(type) {
	case ir.While:
		cond = func(s ir.Stmt) ir.Expr { return s.(ir.While).Cond }
		set = func(s ir.Stmt, e ir.Expr) ir.Stmt { w := s.(ir.While); w.Cond = e; return w }
	case ir.Repeat:
		cond = func(s ir.Stmt) ir.Expr { return s.(ir.Repeat).Until }
		set = func(s ir.Stmt, e ir.Expr) ir.Stmt { r := s.(ir.Repeat); r.Until = e; return r }
	}
	if cond != nil {
		c := cond(s)
		for k, n := 0, countIn(c, isOrder); k < n; k++ {
			var from ir.Op
			nc := rewriteExprNth(c, isOrder, k, func(e ir.Expr) ir.Expr {
				b := e.(ir.Bin)
				from = b.Op
				b.Op = shifted[b.Op]
				return b
			})
			out = append(out, oboMutant{"cmp-" + opWord[from], set(s, nc)})
		}
	}
	return out
}

func sign(d int64) string {
	if d > 0 {
		return "+1"
	}
	return "-1"
}

// plus returns e + d, simplified where that keeps the paper's notation
// readable (constants, "n - 1" + 1).
func plus(e ir.Expr, d int64) ir.Expr {
	if c, ok := e.(ir.Const); ok && c.Name == "" {
		return ir.Const{V: c.V + d}
	}
	if b, ok := e.(ir.Bin); ok {
		if c, ok := b.Y.(ir.Const); ok && c.Name == "" && c.V == 1 {
			if (b.Op == ir.Sub && d == 1) || (b.Op == ir.Add && d == -1) {
				return b.X
			}
		}
	}
	if d > 0 {
		return ir.Bin{Op: ir.Add, X: e, Y: ir.Const{V: d}}
	}
	return ir.Bin{Op: ir.Sub, X: e, Y: ir.Const{V: -d}}
}

// Expression rewriting. Matches are counted in ir.WalkExpr order (parents
// first) over the statement's own expressions (ir.StmtExprs order); a
// replaced node is not descended into.

func countExprs(s ir.Stmt, match func(ir.Expr) bool) int {
	n := 0
	for _, e := range ir.StmtExprs(s) {
		n += countIn(e, match)
	}
	return n
}

func countIn(e ir.Expr, match func(ir.Expr) bool) int {
	n := 0
	ir.WalkExpr(e, func(x ir.Expr) {
		if match(x) {
			n++
		}
	})
	return n
}

// rewriteNth returns s with the k-th matching expression node replaced.
func rewriteNth(s ir.Stmt, match func(ir.Expr) bool, k int, f func(ir.Expr) ir.Expr) ir.Stmt {
	r := replaceNth(match, k, f)
	return mapStmtExprs(copyStmt(s), func(e ir.Expr) ir.Expr { return mapExpr(e, r) })
}

func rewriteExprNth(e ir.Expr, match func(ir.Expr) bool, k int, f func(ir.Expr) ir.Expr) ir.Expr {
	return mapExpr(copyExpr(e), replaceNth(match, k, f))
}

// replaceNth is a mapExpr function that replaces the k-th node (counting
// from 0, in mapExpr's order) that match accepts by f of it.
func replaceNth(match func(ir.Expr) bool, k int, f func(ir.Expr) ir.Expr) func(ir.Expr) (ir.Expr, bool) {
	seen := 0
	return func(x ir.Expr) (ir.Expr, bool) {
		if !match(x) {
			return nil, false
		}
		seen++
		if seen-1 == k {
			return f(x), true
		}
		return nil, false
	}
}

// mapStmtExprs applies rw to each of s's own expressions, in ir.StmtExprs
// order.
func mapStmtExprs(s ir.Stmt, rw func(ir.Expr) ir.Expr) ir.Stmt {
	loc := func(l ir.Loc) ir.Loc {
		switch l := l.(type) {
		case ir.Var:
			if l.Index != nil {
				l.Index = rw(l.Index)
			}
			return l
		case ir.Fld:
			l.Ref = rw(l.Ref)
			return l
		}
		return l
	}
	switch s := s.(type) {
	case ir.Write:
		s.To = loc(s.To)
		s.Val = rw(s.Val)
		return s
	case ir.Set:
		if s.Index != nil {
			s.Index = rw(s.Index)
		}
		s.Val = rw(s.Val)
		return s
	case ir.Swap:
		s.To = loc(s.To)
		s.Val = rw(s.Val)
		return s
	case ir.CAS:
		s.To = loc(s.To)
		s.Old, s.New = rw(s.Old), rw(s.New)
		return s
	case ir.FetchAdd:
		s.To = loc(s.To)
		s.Delta = rw(s.Delta)
		return s
	case ir.If:
		s.Cond = rw(s.Cond)
		return s
	case ir.While:
		s.Cond = rw(s.Cond)
		return s
	case ir.Repeat:
		s.Until = rw(s.Until)
		return s
	case ir.For:
		s.From, s.To = rw(s.From), rw(s.To)
		return s
	case ir.Await:
		s.Cond = rw(s.Cond)
		return s
	case ir.FreeRecord:
		s.Ref = rw(s.Ref)
		return s
	case ir.Delay:
		if s.Dur != nil {
			s.Dur = rw(s.Dur)
		}
		return s
	}
	return s
}

// mapExpr rebuilds e top-down: where f returns (r, true) the node is
// replaced by r and not descended into.
func mapExpr(e ir.Expr, f func(ir.Expr) (ir.Expr, bool)) ir.Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	loc := func(l ir.Loc) ir.Loc {
		switch l := l.(type) {
		case ir.Var:
			l.Index = mapExpr(l.Index, f)
			return l
		case ir.Fld:
			l.Ref = mapExpr(l.Ref, f)
			return l
		}
		return l
	}
	switch e := e.(type) {
	case ir.LocalRef:
		e.Index = mapExpr(e.Index, f)
		return e
	case ir.Load:
		e.From = loc(e.From)
		return e
	case ir.Mine:
		e.Index = mapExpr(e.Index, f)
		return e
	case ir.Bin:
		e.X, e.Y = mapExpr(e.X, f), mapExpr(e.Y, f)
		return e
	case ir.Not:
		e.X = mapExpr(e.X, f)
		return e
	case ir.Quant:
		e.From, e.To, e.Body = mapExpr(e.From, f), mapExpr(e.To, f), mapExpr(e.Body, f)
		return e
	}
	return e
}

// Summary counts mutants by operator: kept and discarded.
func (s Set) Summary() map[Operator][2]int {
	out := map[Operator][2]int{}
	for _, m := range s.Kept {
		c := out[m.Operator]
		c[0]++
		out[m.Operator] = c
	}
	for _, d := range s.Discarded {
		c := out[d.Operator]
		c[1]++
		out[d.Operator] = c
	}
	return out
}

// Find returns the kept mutant with the given ID.
func (s Set) Find(id string) (Mutant, bool) {
	for _, m := range s.Kept {
		if m.ID == id {
			return m, true
		}
	}
	return Mutant{}, false
}
