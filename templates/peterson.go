package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Peterson's two-process lock (seed 003, fig. 3, lines 1–5): raise your
// flag, give the other process priority, and wait until it is not
// interested or has itself given the priority away.
func init() {
	register(&Entry{
		Name:  "peterson",
		Title: "Peterson's two-process lock",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 5, fig. 3, lines 1–5",
				Cite: "G. L. Peterson, Myths about the mutual exclusion problem, IPL 12(3), 1981"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.9"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FCFS", Exit: "wait-free",
			RMRCC: "O(1)", RMRDSM: "unbounded", Space: "2 SWMR bits + 1 MWMR register",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		MaxProcs:   2,
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 3 leaves as the exit does (line 5, FLAG[i] := false). AFTERYOU needs no repair: the other process waits only while FLAG[i] is up and AFTERYOU names itself, and a lowered flag lets it in as an exit does.",
		},
		Deviations: []string{
			"Process ids are 0 and 1 (the paper's 1 and 2); j is 1 - i.",
			"AFTERYOU starts at 0; the paper leaves its initial value unspecified.",
			"TryLock is ours: lines 1–2, one evaluation of line 3's predicate, and on failure line 5 (FLAG[i] := false), which leaves the registers as a release does.",
		},
		Notes: []string{
			"FCFS is not claimed by Raynal & Taubenfeld 2022 but holds for this algorithm with the doorway lines 1–2: a process that wrote AFTERYOU before the other raised its flag is never overtaken (bounded bypass 1). Explore checks it.",
			"A failed TryLock cannot block the other process: its line 3 waits only for FLAG[j] = false or AFTERYOU ≠ j, and the withdrawal writes FLAG[i] := false.",
		},
		Def: func(Options) *ir.Algorithm {
			j := Minus(Lit(1), Self)
			mayEnter := Or(Eq(Read(Elem("FLAG", j)), False), Ne(Read(Reg("AFTERYOU")), Self))
			return &ir.Algorithm{
				Name: "peterson",
				Shared: []ir.Shared{
					{Name: "FLAG", Type: ir.TBool, Len: func(ir.Params) int { return 2 }, Owner: "proc",
						Doc: "process i competes for or holds the lock"},
					{Name: "AFTERYOU", Type: ir.TInt, Doc: "the process that gave priority last"},
				},
				Acquire: Code(
					Write("1", Elem("FLAG", Self), True),
					Write("2", Reg("AFTERYOU"), Self),
					OnAbort(Await("3", mayEnter), Write("5", Elem("FLAG", Self), False), Fail("5")),
				),
				Release: Code(
					Write("5", Elem("FLAG", Self), False),
				),
				TryAcquire: Code(
					Write("1", Elem("FLAG", Self), True),
					Write("2", Reg("AFTERYOU"), Self),
					If("3", Not(mayEnter),
						Write("5", Elem("FLAG", Self), False),
						Fail("3"),
					),
				),
				DoorwayEnd: "2",
			}
		},
	})
}
