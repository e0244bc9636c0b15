package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Lamport's bakery (seed 003, fig. 2): take a ticket larger than every
// ticket seen (lines 1–3, the doorway), then wait for every process with a
// smaller (ticket, id) pair (lines 4–7).
func init() {
	register(&Entry{
		Name:  "bakery",
		Title: "Lamport's bakery",
		Refs: []Ref{{Seed: "003_dcb666bc0349e074.txt", Where: "section 4, fig. 2",
			Cite: "L. Lamport, A new solution of Dijkstra's concurrent programming problem, CACM 17(8), 1974"}},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FCFS", Exit: "wait-free",
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "2n registers (unbounded tickets)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 5 or 6 leaves as the exit does (line 9, MYTURN[i] := 0): its ticket goes, as if it had entered and left at once; FLAG[i] is already down (line 3).",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); ties between equal tickets still go to the smaller id.",
			"The paper needs only safe registers; Go's registers are atomic, so the tolerance of non-atomic reads is not exercised.",
			"Tickets are unbounded 64-bit counters (they grow only while the lock is continuously contended).",
			"Line 6 reads MYTURN[j] once per evaluation of the condition (a loop re-reading it), and takes ⟨MYTURN[i], i⟩ from the local copy of the ticket p_i wrote at line 2: only p_i writes MYTURN[i].",
		},
		Def: func(Options) *ir.Algorithm {
			j, t, m := Var("j"), Var("t"), Var("mine")
			return &ir.Algorithm{
				Name: "bakery",
				Shared: []ir.Shared{
					{Name: "FLAG", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "process i is choosing its ticket"},
					{Name: "MYTURN", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "process i's ticket (0: not competing)"},
				},
				Locals: []ir.Local{
					{Name: "mine", Type: ir.TInt, Doc: "the ticket taken at line 2"},
					{Name: "t", Type: ir.TInt},
				},
				Acquire: Code(
					Write("1", Elem("FLAG", Self), True),
					Set("2", "mine", Lit(0)),
					For("2", "j", Lit(0), Minus(N, Lit(1)),
						Set("2", "t", Read(Elem("MYTURN", j))),
						If("2", Gt(t, m), Set("2", "mine", t)),
					),
					Set("2", "mine", Plus(m, Lit(1))),
					Write("2", Elem("MYTURN", Self), m),
					Write("3", Elem("FLAG", Self), False),
					ForOthers("4", "j", Lit(0), Minus(N, Lit(1)),
						OnAbort(Await("5", Eq(Read(Elem("FLAG", j)), False)), Write("9", Elem("MYTURN", Self), Lit(0)), Fail("9")),
						OnAbort(BusyRepeat("6", Or(Eq(t, Lit(0)), Lex(m, Self, t, j)),
							Set("6", "t", Read(Elem("MYTURN", j))),
						), Write("9", Elem("MYTURN", Self), Lit(0)), Fail("9")),
					),
				),
				Release: Code(
					Write("9", Elem("MYTURN", Self), Lit(0)),
				),
				DoorwayEnd: "3",
			}
		},
	})
}
