package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Doran & Thomas's variant of Dekker's algorithm (IPL 1980, fig. 1): the
// test of the other's flag is made once, not in a loop. If the other wants
// to enter and has priority, withdraw, wait for the turn, re-announce; then
// wait for the other to drop its flag.
func init() {
	register(&Entry{
		Name:  "doran-thomas",
		Title: "Doran & Thomas's two-process variant of Dekker's algorithm",
		Refs: []Ref{
			{Where: "figure 1 (the first variant)",
				Cite: "R. W. Doran, L. K. Thomas, Variants of the software solution to mutual exclusion, IPL 10(4/5), 1980, pp. 206–208"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.8"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "none", Exit: "wait-free",
			RMRCC: "O(1)", RMRDSM: "unbounded", Space: "2 SWMR bits + 1 MWMR register (turn)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		MaxProcs:   2,
		TryLock:    "no natural non-blocking attempt: the process without priority waits at D5 for the turn to change, which only the other's exit does, so the process with priority must not withdraw after a failed attempt",
		NoAbort:    "the paper gives no abort, and neither way out keeps the lock live: a process that gives up at D7, where it holds the turn, must hand the turn on (the other waits for it at D5), but handing it on can undo the turn the other's exit has just given it (D8) while that exit has not yet lowered its flag (D9); SPIN at n = 2 finds the next patient passage waiting at D5 for ever",
		Deviations: []string{
			"Process ids are 0 and 1; j is 1 - i; turn starts at 0.",
			"The line labels D1–D9 and the names c and turn are ours: the original figure could not be consulted, so this transcription follows the published descriptions of the variant (e.g. the transcription in Buhr, Dice and Hesselink's concurrent-locking benchmarks, which writes the exit as last := i; with two processes that is turn := j).",
		},
		Notes: []string{
			"The paper gives two variants of Dekker's algorithm; this entry is the first (a single test of c[j], then waits), the one that differs from Dekker's loop structure. Dekker's own algorithm is the entry dekker.",
			"Starvation-free, no FIFO guarantee (a process slow to leave D5 can be overtaken more than once).",
		},
		Def: func(Options) *ir.Algorithm {
			j := Minus(Lit(1), Self)
			return &ir.Algorithm{
				Name: "doran-thomas",
				Shared: []ir.Shared{
					{Name: "c", Type: ir.TBool, Len: func(ir.Params) int { return 2 }, Owner: "proc",
						Doc: "process i wants to enter or is inside"},
					{Name: "turn", Type: ir.TInt, Doc: "which process has priority when both want to enter"},
				},
				Acquire: Code(
					Write("D1", Elem("c", Self), True),
					If("D2", Read(Elem("c", j)),
						If("D3", Eq(Read(Reg("turn")), j),
							Write("D4", Elem("c", Self), False),
							Await("D5", Eq(Read(Reg("turn")), Self)),
							Write("D6", Elem("c", Self), True),
						),
						Await("D7", Not(Read(Elem("c", j)))),
					),
				),
				Release: Code(
					Write("D8", Reg("turn"), j),
					Write("D9", Elem("c", Self), False),
				),
			}
		},
	})
}
