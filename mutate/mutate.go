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
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
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
		Def:   func(templates.Options) *ir.Algorithm { return a.Clone() },
	}
	if usesSelf(a) {
		e.NeedsProcs = true
	}
	if len(a.Procs) > 0 {
		e.Nodes = map[nodes.Policy]string{nodes.Handle: ""}
		e.DefaultNodes = nodes.Handle
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
	for _, op := range ir.OpNames {
		fmt.Fprintf(&b, "%s:%#v\n", op, *a.OpCode(op))
	}
	fmt.Fprintf(&b, "doorway:%s\nlocals:%d", a.DoorwayEnd, len(a.Locals))
	return b.String()
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
