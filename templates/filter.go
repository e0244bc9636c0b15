package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Peterson's n-process filter lock (seed 003, fig. 4) and its k-exclusion
// variant ("From mutex to k-mutex"): the loop climbs n-k levels instead of
// n-1, which removes the k top levels of the ladder. With k = 1 the two are
// the same definition.
func init() {
	register(&Entry{
		Name:  "filter",
		Title: "Peterson's n-process filter lock (and its k-exclusion variant)",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 5, fig. 4; k-mutex in \"From mutex to k-mutex\"",
				Cite: "G. L. Peterson, Myths about the mutual exclusion problem, IPL 12(3), 1981"},
			{Seed: "004_f4f101679f3c3547.txt", Where: "table I, row [5] (Peterson's k-exclusion: neither starvation-free nor FIFE)"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "none", Exit: "bounded",
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "2n registers",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
			Crashes: "not tolerated in k-exclusion, even inside the critical section: a crashed process keeps FLAGLEVEL at the top level, so it counts as competing at every level, " +
				"and the last process to reach a level waits for a newcomer that may never come. Explore's crash phase finds the deadlock (generated/filter's TestFilterKCrashDeadlocks: k = 2, 4 processes, 1 crash inside the critical section), " +
				"and SPIN finds it with a crash in the doorway (n = 3, k = 2: the crashed process holds level 1, and the one left at that level waits at line 4 for ever; lab/spin TestCrashTolerance).",
		},
		Modes:      []mode.Mode{mode.Mutex, mode.KExclusion},
		NeedsProcs: true,
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 4 leaves as the exit does (line 7, FLAGLEVEL[i] := 0), from whatever level it reached: the levels below hold at most as many processes as before, and a process it was AFTERYOU for at that level is let in by its lowered level as by an exit.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); AFTERYOU keeps the paper's indices 1..n-1 (element 0 is unused), and its initial value 0 is as irrelevant as the paper says.",
			"The k-exclusion variant is the same code with the loop bound n-k (k = 1 gives the mutex).",
			"Line 4's ∀ is n-1 separate reads, evaluated in order and stopping at the first FLAGLEVEL[k] ≥ ℓ, then AFTERYOU[ℓ] is read.",
		},
		Notes: []string{"Zehavi (table I) lists Peterson's k-exclusion as neither starvation-free nor FIFE for k > 1; the mutex (k = 1) is starvation-free."},
		Def: func(Options) *ir.Algorithm {
			lvl := Var("lvl")
			return &ir.Algorithm{
				Name: "filter",
				Shared: []ir.Shared{
					{Name: "FLAGLEVEL", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "the level process i has reached (0: not competing)"},
					{Name: "AFTERYOU", Type: ir.TInt, Len: func(p ir.Params) int { return p.N },
						Doc: "the last process to enter each level (indices 1..n-1)"},
				},
				Locals: []ir.Local{{Name: "lvl", Type: ir.TInt, Doc: "the level ℓ being climbed"}},
				Acquire: Code(
					Set("1", "lvl", Lit(1)),
					While("1", Le(lvl, Minus(N, K)),
						Write("2", Elem("FLAGLEVEL", Self), lvl),
						Write("3", Elem("AFTERYOU", lvl), Self),
						OnAbort(Await("4", Or(
							ForAllOthers("k", Lit(0), Minus(N, Lit(1)), Lt(Read(Elem("FLAGLEVEL", Var("k"))), lvl)),
							Ne(Read(Elem("AFTERYOU", lvl)), Self))), Write("7", Elem("FLAGLEVEL", Self), Lit(0)), Fail("7")),
						Set("5", "lvl", Plus(lvl, Lit(1))),
					),
				),
				Release: Code(
					Write("7", Elem("FLAGLEVEL", Self), Lit(0)),
				),
			}
		},
	})
}
