package templates

import (
	"math"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Hehner & Shyamasundar's bakery (Raynal's book, ch. 4.4): Lamport's
// bakery with the choosing flag folded into the ticket. Each process has one
// register: ∞ while it does not compete, 0 while it chooses (the smallest
// value, so that everyone waits for it), then its ticket. The seeds only name
// the algorithm (seed 002's contents); the code follows the original paper,
// whose steps are not numbered there: the labels 1–6 are ours.
func init() {
	inf := Named("∞", math.MaxInt64)
	register(&Entry{
		Name:  "hehner-shyamasundar",
		Title: "Hehner & Shyamasundar's bakery (one register per process: ∞, choosing = 0, or the ticket)",
		Refs: []Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 4.4",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
			{Cite: "E. C. R. Hehner, R. K. Shyamasundar, An implementation of P and V, Information Processing Letters 12(4), 1981"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FCFS", Exit: "wait-free (one write)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "n registers (unbounded tickets)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "a ticket, once published at line 3, orders the process behind every smaller one: it cannot be withdrawn without waiting",
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 5 leaves as the exit does (line 6, T[i] := ∞), as if it had entered and left at once.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); ties between equal tickets go to the smaller id, as in the paper.",
			"∞ is the largest 64-bit integer. Tickets are unbounded: they grow by one per passage while the lock stays contended and fall back once every process has left (all registers ∞); 2^63 passages are out of reach.",
			"Line 2 reads every register once (its own is 0 then), skipping ∞, and keeps the largest value in a local; line 3 writes max + 1. Line 5 waits while (T[j], j) < (T[i], i), reading T[j] once per test (a loop re-reading it) and taking T[i] from the local copy of the ticket written at line 3 (only p_i writes T[i]); the loop of line 4 skips j = i, whose test would pass at once.",
			"The labels 1–6 are ours: the paper does not number its steps.",
		},
		Notes: []string{
			"A process choosing its ticket shows 0, the smallest ticket, so others wait for it at line 5 exactly as Lamport's bakery waits on a raised choosing flag: one register per process replaces the bakery's two.",
		},
		Def: func(Options) *ir.Algorithm {
			j, t, m := Var("j"), Var("t"), Var("mine")
			return &ir.Algorithm{
				Name: "hehner-shyamasundar",
				Shared: []ir.Shared{
					{Name: "T", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Init: func(ir.Params, int) int64 { return math.MaxInt64 },
						Doc:  "process i's ticket: ∞ (not competing), 0 (choosing) or its number"},
				},
				Locals: []ir.Local{
					{Name: "mine", Type: ir.TInt, Doc: "the largest ticket seen, then this process's ticket"},
					{Name: "t", Type: ir.TInt},
				},
				Acquire: Code(
					Write("1", Elem("T", Self), Lit(0)),
					Set("2", "mine", Lit(0)),
					For("2", "j", Lit(0), Minus(N, Lit(1)),
						Set("2", "t", Read(Elem("T", j))),
						If("2", And(Gt(t, m), Ne(t, inf)), Set("2", "mine", t)),
					),
					// Unlabelled: the doorway ends with line 3's write, and
					// every statement labelled 3 would mark it.
					Set("", "mine", Plus(m, Lit(1))),
					Write("3", Elem("T", Self), m),
					ForOthers("4", "j", Lit(0), Minus(N, Lit(1)),
						OnAbort(BusyRepeat("5", Not(Lex(t, j, m, Self)),
							Set("5", "t", Read(Elem("T", j))),
						), Write("6", Elem("T", Self), inf), Fail("6")),
					),
				),
				Release: Code(
					Write("6", Elem("T", Self), inf),
				),
				DoorwayEnd: "3",
			}
		},
	})
}
