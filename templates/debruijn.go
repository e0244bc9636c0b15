package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// De Bruijn's 1967 change to Knuth's algorithm: the entry is Knuth's
// without "L3: k := i", and the exit moves k one step down only when the
// process k designates is not competing or is the one leaving. This lowers
// the worst-case wait from 2^(n-1) - 1 to n(n-1)/2 turns.
func init() {
	register(&Entry{
		Name:  "debruijn",
		Title: "de Bruijn's starvation-free n-process algorithm (1967)",
		Refs: []Ref{
			{Where: "the letter's change to Knuth's program (Knuth's labels L0–L4)",
				Cite: "N. G. de Bruijn, Additional comments on a problem in concurrent programming control, CACM 10(3), 1967, pp. 137–138"},
			{Where: "the program being changed",
				Cite: "D. E. Knuth, Additional comments on a problem in concurrent programming control, CACM 9(5), 1966, pp. 321–322"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.6"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "bounded waiting: at most n(n-1)/2 turns, among Lock calls (TryLock calls can void it)", Exit: "wait-free",
			Overtakes: func(n int) int { return n * (n - 1) / 2 }, OvertakesAcquireOnly: true,
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "n SWMR 3-valued registers + 1 MWMR register (k)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		AbortFinitely: "a process that gives up and comes back for ever sets control[i] again at L0 each time, and a process scanning at L1 can find it non-zero at every scan. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process in the loops of L0 and L1 leaves by writing control[i] := 0 (line L4 of the exit); it does not move k (LX), which only a process that entered moves.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n), and k holds 0-based ids; k starts at n-1 (the paper allows any process number; n-1 is the paper's N).",
			"The jumps are loops, as in the entry knuth: the outer loop back to L0 and L1 are busy-wait loops, an iteration of L1 being one whole cyclic scan from k (read once) down to, not including, i; L2's scan runs control[n-1], ..., control[0], skipping i.",
			"The exit reads k once: the paper's \"if control[k] = 0 or k = i then k := (if k = 1 then N else k - 1)\" names k up to three times, but only the process in its critical section writes k (de Bruijn removed Knuth's L3), so the reads agree. Its label LX is ours.",
			"TryLock is ours: one pass of L0–L2 in which, where the algorithm would restart L1 or go back to L0, the process writes control[i] := 0 (L4) and fails.",
			"The n(n-1)/2 bound is claimed for Lock only. The paper's argument covers processes that, once they have raised their control, compete until they enter; a TryLock that gives up does not, and with TryLock calls mixed in SPIN finds a process overtaken more than 10 times at n = 3, where the bound is 3 (go test -run TestDeBruijnTryLockVoidsBound ./lab/spin/).",
		},
		Notes: []string{
			"A failed TryLock leaves control[i] = 0, the value of a process in its remainder section; k then moves past it at the next exit, and no process waits for it.",
		},
		Def: func(Options) *ir.Algorithm {
			kk, d := Var("kk"), Var("d")
			dist := Mod(Plus(Minus(kk, Self), N), N)
			l1Free := ForAll("d", Lit(0), Minus(dist, Lit(1)),
				Eq(Read(Elem("control", Mod(Plus(Minus(kk, d), N), N))), Lit(0)))
			top := Minus(N, Lit(1))
			l2Alone := ForAll("d", Lit(0), top,
				Or(Eq(Minus(top, d), Self), Ne(Read(Elem("control", Minus(top, d))), Lit(2))))
			return &ir.Algorithm{
				Name:       "debruijn",
				DoorwayEnd: "L0",
				Shared: []ir.Shared{
					{Name: "control", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "0: remainder; 1: scanning (L0–L1); 2: claiming or inside (L2–L4)"},
					{Name: "k", Type: ir.TInt, Init: func(p ir.Params, _ int) int64 { return int64(p.N - 1) },
						Doc: "where the scans of L1 start; moved only by exits"},
				},
				Locals: []ir.Local{
					{Name: "kk", Type: ir.TInt, Doc: "k as read at the start of a scan, or at the exit"},
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
				),
				Release: Code(
					Set("LX", "kk", Read(Reg("k"))),
					If("LX", Or(Eq(Read(Elem("control", kk)), Lit(0)), Eq(kk, Self)),
						Write("LX", Reg("k"), Mod(Plus(kk, top), N)),
					),
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
				),
			}
		},
	})
}
