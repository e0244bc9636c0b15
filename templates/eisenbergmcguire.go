package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Eisenberg & McGuire's 1972 n-process algorithm: Knuth's two-phase entry
// with the scan going upward from k, a further entry test that the process
// k designates is idle (or is us), and an exit that hands k to the next
// competing process. A process waits for at most n-1 turns.
func init() {
	register(&Entry{
		Name:  "eisenberg-mcguire",
		Title: "Eisenberg & McGuire's n-process algorithm with linear waiting (1972)",
		Refs: []Ref{
			{Where: "the letter's program",
				Cite: "M. A. Eisenberg, M. R. McGuire, Further comments on Dijkstra's concurrent programming control problem, CACM 15(11), 1972, p. 999"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.7"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "bounded waiting: at most n-1 turns, among Lock calls (TryLock calls can void it)", Exit: "wait-free (at most n reads, one write of k)",
			Overtakes: func(n int) int { return n - 1 }, OvertakesAcquireOnly: true,
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "n SWMR 3-valued registers + 1 MWMR register (k)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		AbortFinitely: "a process that gives up and comes back for ever sets control[i] to want-in again at L0 each time, and a process scanning at L1 can find it so at every scan. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process in the loops of L0 and L1 leaves by writing control[i] := idle (line L6 of the exit); k may still name it, which the others' tests (L1, L2) read as idle, as they do after an exit that handed k to a process that then left.",
		},
		Deviations: []string{
			"Process ids are 0..n-1, k starts at 0 (the paper allows any process number). The states idle, want-in and in-cs are 0, 1 and 2.",
			"The line labels L0–L6 are ours (modelled on Knuth's, whose program this one revises): the letter's figure could not be consulted, so the transcription follows the published descriptions of the algorithm.",
			"The jumps are loops: the outer loop back to L0 and L1 are busy-wait loops, an iteration of L1 being one whole upward cyclic scan from k (read once) to, not including, i, restarted at the first process that is not idle.",
			"L2's test \"k ≠ i and control[k] ≠ idle\" reads k once (a local), where the published text names k twice; every behaviour of the one-read form is one of the two-read form (both reads returning the same value), so the properties carry over. The exit's scan starts from k + 1 with k read once: only the process in its critical section writes k.",
			"TryLock is ours: one pass of L0–L3 in which, where the algorithm would restart L1 or go back to L0, the process writes control[i] := idle (L6) and fails.",
			"The n-1 bound is claimed for Lock only. The paper's argument covers processes that, once they want in, compete until they enter; a TryLock that gives up does not, and with TryLock calls mixed in SPIN finds a process overtaken 4 times at n = 4, where the bound is 3 (go test -run TestEisenbergMcGuireTryLockVoidsBound ./lab/spin/); with Lock alone the bound holds at n = 4 in every interleaving.",
		},
		Notes: []string{
			"Linear waiting: once a process is at L1, each other process enters at most once before it (n-1 turns), the first known algorithm with this bound.",
			"A failed TryLock leaves control[i] = idle, the value of a process in its remainder section; if an exit had just handed k to it, L2's test of control[k] lets the others through, so it blocks no one.",
		},
		Def: func(Options) *ir.Algorithm {
			kk, d, j := Var("kk"), Var("d"), Var("j")
			idle, wantIn, inCS := Named("idle", 0), Named("want-in", 1), Named("in-cs", 2)
			// L1: from kk up to (not including) i, cyclically: (kk + d) mod n for d = 0..dist-1.
			dist := Mod(Plus(Minus(Self, kk), N), N)
			l1Free := ForAll("d", Lit(0), Minus(dist, Lit(1)),
				Eq(Read(Elem("control", Mod(Plus(kk, d), N))), idle))
			alone := ForAllOthers("j", Lit(0), Minus(N, Lit(1)), Ne(Read(Elem("control", j)), inCS))
			turnFree := Or(Eq(kk, Self), Eq(Read(Elem("control", kk)), idle))
			return &ir.Algorithm{
				Name:       "eisenberg-mcguire",
				DoorwayEnd: "L0",
				Shared: []ir.Shared{
					{Name: "control", Type: ir.TInt, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "idle (0), want-in (1: scanning) or in-cs (2: claiming or inside)"},
					{Name: "k", Type: ir.TInt, Doc: "the process with priority; scans of L1 start there"},
				},
				Locals: []ir.Local{
					{Name: "kk", Type: ir.TInt, Doc: "k as read at the start of a scan or a test"},
					{Name: "free", Type: ir.TBool, Doc: "the last scan of L1 found everyone on the way idle"},
					{Name: "entered", Type: ir.TBool, Doc: "L2's tests passed"},
					{Name: "next", Type: ir.TInt, Doc: "the exit's scan index"},
				},
				Acquire: Code(
					OnAbort(BusyRepeat("L0", Var("entered"),
						Write("L0", Elem("control", Self), wantIn),
						OnAbort(BusyRepeat("L1", Var("free"),
							Set("L1", "kk", Read(Reg("k"))),
							Set("L1", "free", l1Free),
						), Write("L6", Elem("control", Self), idle), Fail("L6")),
						Write("L2", Elem("control", Self), inCS),
						Set("L2", "entered", alone),
						If("L2", Var("entered"),
							Set("L2", "kk", Read(Reg("k"))),
							Set("L2", "entered", turnFree),
						),
					), Write("L6", Elem("control", Self), idle), Fail("L6")),
					Write("L3", Reg("k"), Self),
				),
				Release: Code(
					Set("L4", "next", Mod(Plus(Read(Reg("k")), Lit(1)), N)),
					While("L4", Eq(Read(Elem("control", Var("next"))), idle),
						Set("L4", "next", Mod(Plus(Var("next"), Lit(1)), N)),
					),
					Write("L5", Reg("k"), Var("next")),
					Write("L6", Elem("control", Self), idle),
				),
				TryAcquire: Code(
					Write("L0", Elem("control", Self), wantIn),
					Set("L1", "kk", Read(Reg("k"))),
					If("L1", Not(l1Free),
						Write("L6", Elem("control", Self), idle),
						Fail("L1"),
					),
					Write("L2", Elem("control", Self), inCS),
					Set("L2", "entered", alone),
					If("L2", Var("entered"),
						Set("L2", "kk", Read(Reg("k"))),
						Set("L2", "entered", turnFree),
					),
					If("L2", Not(Var("entered")),
						Write("L6", Elem("control", Self), idle),
						Fail("L2"),
					),
					Write("L3", Reg("k"), Self),
				),
			}
		},
	})
}
