package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Knuth's 1966 n-process algorithm: Dijkstra's two-phase scheme made
// starvation-free by a turn k. A process scans downward, cyclically, from k
// to itself and restarts while anyone on the way is active (L1); it then
// claims (L2) and goes back to L0 if another process claims too. On exit it
// passes k to its downward neighbour.
func init() {
	register(&Entry{
		Name:  "knuth",
		Title: "Knuth's starvation-free n-process algorithm (1966)",
		Refs: []Ref{
			{Where: "the letter's program (labels L0–L4)",
				Cite: "D. E. Knuth, Additional comments on a problem in concurrent programming control, CACM 9(5), 1966, pp. 321–322"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.5"},
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 3, \"From deadlock-freedom to starvation-freedom\""},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "bounded waiting: at most 2^(n-1) - 1 turns", Exit: "wait-free",
			Overtakes: func(n int) int { return 1<<min(n-1, 62) - 1 }, // saturates: 2^62 - 1 is no bound in practice
			RMRCC:     "unbounded", RMRDSM: "unbounded", Space: "n SWMR 3-valued registers + 1 MWMR register (k)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		AbortFinitely: "a process that gives up and comes back for ever sets control[i] again at L0 each time, and processes scanning at L1 and L2 can find it non-zero at every scan. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process in the loops of L0 and L1 leaves by writing control[i] := 0 (line L4 of the exit); it does not move k (LX), which only a process that entered moves.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n), and k holds 0-based ids. The paper starts with k = 0, for which the scan of L1 runs N, N-1, ..., 1, exactly as with k = N; here k starts at n-1, the same scan.",
			"The jumps are loops. The outer loop (back to L0 when L2 finds another process at 2) is a busy-wait loop too: while a process that L1 does not scan holds control = 2, a process cycles L0–L2, rewriting control[i] (1, then 2) but otherwise re-reading the same registers, so the waiting policy applies at its back edge; under the park policies its own changing writes make it spin rather than sleep. L1 is a busy-wait loop whose iteration is one whole scan (read k once, then control[k], control[k-1], ... down to, not including, i, cyclically), restarted at the first non-zero control; L2's scan of control[n-1], ..., control[0] (skipping i) goes back to L0 at the first 2.",
			"The exit's k := (if i = 1 then N else i - 1) is the 0-based (i + n - 1) mod n; its label LX is ours, as is the reading of \"k step -1 until 1, N step -1 until 1\" as the cyclic scan index (k - d) mod n.",
			"TryLock is ours: one pass of L0–L3 in which, where the algorithm would restart L1 or go back to L0, the process writes control[i] := 0 (L4) and fails.",
		},
		Notes: []string{
			"Knuth bounds the wait of a process at 2^(n-1) - 1 turns of others; de Bruijn (1967) lowered it to n(n-1)/2 and Eisenberg & McGuire (1972) to n-1 (entries debruijn, eisenberg-mcguire).",
			"A failed TryLock leaves control[i] = 0, the value of a process in its remainder section; no process waits for such a process (L1 only restarts on a non-zero control), so it cannot block anyone.",
		},
		Def: func(Options) *ir.Algorithm {
			kk, d := Var("kk"), Var("d")
			// L1: from kk down to (not including) i, cyclically: (kk - d) mod n for d = 0..dist-1.
			dist := Mod(Plus(Minus(kk, Self), N), N)
			l1Free := ForAll("d", Lit(0), Minus(dist, Lit(1)),
				Eq(Read(Elem("control", Mod(Plus(Minus(kk, d), N), N))), Lit(0)))
			// L2: j = n-1, ..., 0 (j = n-1-d), skipping i: nobody else at 2.
			top := Minus(N, Lit(1))
			l2Alone := ForAll("d", Lit(0), top,
				Or(Eq(Minus(top, d), Self), Ne(Read(Elem("control", Minus(top, d))), Lit(2))))
			return &ir.Algorithm{
				Name:       "knuth",
				DoorwayEnd: "L0",
				Shared: []ir.Shared{
					{Name: "control", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "0: remainder; 1: scanning (L0–L1); 2: claiming or inside (L2–L4)"},
					{Name: "k", Type: ir.TInt, Init: func(p ir.Params, _ int) int64 { return int64(p.N - 1) },
						Doc: "where the scans of L1 start"},
				},
				Locals: []ir.Local{
					{Name: "kk", Type: ir.TInt, Doc: "k as read at the start of a scan"},
					{Name: "free", Type: ir.TBool, Doc: "the last scan of L1 found everyone on the way at 0"},
					{Name: "entered", Type: ir.TBool, Doc: "L2 found no other process at 2"},
				},
				Acquire: Code(
					OnAbort(BusyRepeat("L0", Var("entered"),
						Write("L0", Elem("control", Self), Lit(1)),
						OnAbort(BusyRepeat("L1", Var("free"),
							Set("L1", "kk", Read(Reg("k"))),
							Set("L1", "free", l1Free),
						), Write("L4", Elem("control", Self), Lit(0)), Fail("L4")),
						Write("L2", Elem("control", Self), Lit(2)),
						Set("L2", "entered", l2Alone),
					), Write("L4", Elem("control", Self), Lit(0)), Fail("L4")),
					Write("L3", Reg("k"), Self),
				),
				Release: Code(
					Write("LX", Reg("k"), Mod(Plus(Self, top), N)),
					Write("L4", Elem("control", Self), Lit(0)),
				),
				TryAcquire: Code(
					Write("L0", Elem("control", Self), Lit(1)),
					Set("L1", "kk", Read(Reg("k"))),
					If("L1", Not(l1Free),
						Write("L4", Elem("control", Self), Lit(0)),
						Fail("L1"),
					),
					Write("L2", Elem("control", Self), Lit(2)),
					If("L2", Not(l2Alone),
						Write("L4", Elem("control", Self), Lit(0)),
						Fail("L2"),
					),
					Write("L3", Reg("k"), Self),
				),
			}
		},
	})
}
