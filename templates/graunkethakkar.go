package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Graunke & Thakkar's queue lock (reference [6] of seed 000): each process
// owns a flag; to enter it swaps into the lock word the pair (its flag, the
// flag's current value) and gets back its predecessor's pair, then spins
// until the predecessor's flag no longer holds the value it had when the
// predecessor enqueued. To leave, a process toggles its own flag.
//
// The pair is one integer, who*2 + bit: who indexes FLAG, bit is the value.
// FLAG[n] is a dummy that never changes, and the lock word starts as
// (n, 1) while FLAG[n] = 0, so the first process finds its "predecessor"
// already gone. The seed has no code for this algorithm; the labels 1–4 are
// ours.
func init() {
	pair := func(who, bit ir.Expr) ir.Expr { return Plus(Times(who, Lit(2)), bit) }
	p := Var("pred")
	register(&Entry{
		Name:  "graunke-thakkar",
		Title: "Graunke & Thakkar's swap-based queue lock",
		Refs: []Ref{
			{Seed: "000_175dd44c210ae396.txt", Where: "section 5 (related work) and reference [6]",
				Cite: "G. Graunke, S. Thakkar, Synchronization algorithms for shared-memory multiprocessors, IEEE Computer 23(6), 1990"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "wait-free (one write)",
			RMRCC: "O(1)", RMRDSM: "unbounded",
			Space:        "n+1 flags + the lock word",
			Instructions: []string{"read", "write", "swap"},
			Identity:     "ids (each process owns FLAG[i])",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "a try-acquire would have to CAS the lock word from a pair whose flag it saw toggled; but the pair (who, bit) comes back every second passage of who, so the CAS can succeed after who has enqueued the same pair again and holds the lock (ABA), and the try-acquire would then have to wait",
		NoAbort:    "the successor waits on this process's own flag (line 3 reads FLAG[pred / 2]), which only its release toggles: a process that left after line 2 would strand its successor, and nothing in the lock word tells the successor to wait on the predecessor instead (the queue is implicit, with no link a leaver could rewrite)",
		Deviations: []string{
			"Dvir & Taubenfeld 2017 only cite the algorithm (section 5, reference [6]) and the paper itself was not available to check against; the code follows the algorithm as it is described in the literature (swap the flag's address and value into the lock word, spin until the predecessor's flag changes, toggle your flag to leave), and the labels 1–4 are ours.",
			"The (flag address, value) pair is the integer who*2 + bit, with who the process id 0..n-1 indexing FLAG; a machine word holding a pointer and a bit is what the paper swaps.",
			"The lock word starts as the pair of a dummy flag FLAG[n] (value 0) with bit 1, so the first process to arrive finds its predecessor's flag already changed (the paper's initial value is not in Dvir & Taubenfeld 2017; any pair whose flag already differs from its bit works).",
			"Release writes 1 − bit, where bit is the value the process read at line 1 and kept (only the owner writes FLAG[i], so it is the flag's current value): one write instead of a read and a write.",
			"FLAG holds integers 0 and 1 (the paper's boolean flags) so that the pair can be computed.",
		},
		Notes: []string{
			"RMR: a process spins on its predecessor's flag, which changes once before it enters: one miss in the CC model; in the DSM model the flag is the predecessor's memory, so the spinning is remote.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "graunke-thakkar",
				Shared: []ir.Shared{
					{Name: "FLAG", Type: ir.TInt, Len: func(p ir.Params) int { return p.N + 1 }, Owner: "proc",
						Doc: "FLAG[i], process i's flag (0 or 1), toggled at each release; FLAG[n] is the dummy"},
					{Name: "LOCK", Type: ir.TInt, Init: func(p ir.Params, _ int) int64 { return int64(2*p.N + 1) },
						Doc: "the last pair enqueued: who*2 + the value FLAG[who] had then"},
				},
				Locals: []ir.Local{
					{Name: "bit", Type: ir.TInt, Scope: ir.Passage, Doc: "FLAG[i] when this process enqueued"},
					{Name: "pred", Type: ir.TInt, Doc: "the predecessor's pair"},
				},
				Acquire: Code(
					Set("1", "bit", Read(Elem("FLAG", Self))),
					Swap("2", "pred", Reg("LOCK"), pair(Self, Var("bit"))),
					Await("3", Ne(Read(Elem("FLAG", Div(p, Lit(2)))), Mod(p, Lit(2)))),
				),
				Release: Code(
					Write("4", Elem("FLAG", Self), Minus(Lit(1), Var("bit"))),
				),
				DoorwayEnd: "2",
			}
		},
	})
}
