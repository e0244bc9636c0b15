package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Hyman's 1966 "simplification" of Dijkstra's algorithm for two processes,
// which Raynal's book lists as incorrect (section 2.4) and Knuth refuted in
// CACM 9(5), 1966. Kept in the catalogue as a negative control: verify must
// catch it.
func init() {
	register(&Entry{
		Name:  "hyman",
		Title: "Hyman's two-process algorithm (incorrect)",
		Refs: []Ref{
			{Where: "the letter's program (labels C0, C1, C2)",
				Cite: "H. Hyman, Comments on a problem in concurrent programming control, CACM 9(1), 1966, p. 45"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.4 (\"Hyman's incorrect solution\")"},
			{Where: "the counterexample to Hyman's program",
				Cite: "D. E. Knuth, Additional comments on a problem in concurrent programming control, CACM 9(5), 1966, pp. 321–322"},
		},
		Props: Properties{
			Liveness: "none", Fairness: "none", Exit: "wait-free",
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "2 SWMR bits + 1 MWMR register (k)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		MaxProcs:   2,
		TryLock:    "not offered for a known-incorrect algorithm",
		Incorrect: "mutual exclusion fails. From k = 0 and b[0] = b[1] = true: p1 runs C0 (b[1] := false), reads k = 0 ≠ 1 at C1 and b[0] = true at C2, and is about to write k := 1; " +
			"p0 now runs C0 (b[0] := false), reads k = 0 at C1 and enters its critical section; p1 resumes, writes k := 1, reads k = 1 at C1 and enters too. " +
			"The test of b[j] and the write of k are two steps, so the other process can slip in between them (Knuth, CACM 9(5), 1966). Nor is it starvation-free: a process waiting at C2 can be overtaken forever.",
		NoAbort: "a known-incorrect algorithm (mutual exclusion fails without any abort): no abort is offered",
		Deviations: []string{
			"Process ids are 0 and 1; j is 1 - i; b[i] = false means p_i wants to enter, as in the paper; k starts at 0.",
			"The paper's jumps are loops: C2 is an await on b[j], and \"k := i; go to C1\" loops back to the test of k.",
			"C2 tests b[j]; some transcriptions test b[k], which is the same register here because C2 is reached only when k ≠ i and only p_j could have changed k since.",
			"The labels C3 (the write of k) and C4 (the exit) are ours.",
		},
		Def: func(Options) *ir.Algorithm {
			j := Minus(Lit(1), Self)
			return &ir.Algorithm{
				Name: "hyman",
				Shared: []ir.Shared{
					{Name: "b", Type: ir.TBool, Len: func(ir.Params) int { return 2 }, Owner: "proc",
						Init: func(ir.Params, int) int64 { return 1 },
						Doc:  "false: process i wants to enter or is inside"},
					{Name: "k", Type: ir.TInt, Doc: "the process allowed to enter"},
				},
				Acquire: Code(
					Write("C0", Elem("b", Self), False),
					While("C1", Ne(Read(Reg("k")), Self),
						Await("C2", Read(Elem("b", j))),
						Write("C3", Reg("k"), Self),
					),
				),
				Release: Code(
					Write("C4", Elem("b", Self), True),
				),
			}
		},
	})
}
