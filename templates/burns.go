package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Burns's n-bit algorithm (Burns & Lynch, the "one-bit" algorithm): one
// shared bit per process, the fewest registers any read/write mutex can use.
// A process yields to every lower id twice (before and after raising its
// flag) and then waits for every higher id to lower its flag.
func init() {
	register(&Entry{
		Name:  "burns",
		Title: "Burns's n-bit algorithm",
		Refs: []Ref{
			{Where: "the n-bit algorithm (labels L and M)",
				Cite: "J. E. Burns, N. A. Lynch, Mutual exclusion using indivisible reads and writes, Proc. 18th Allerton Conference on Communication, Control and Computing, 1980, pp. 833–842; journal version: Bounds on shared memory for mutual exclusion, Information and Computation 107(2), 1993"},
			{Where: "the same algorithm in Burns's thesis",
				Cite: "J. E. Burns, Complexity of communication among asynchronous parallel processes, PhD thesis, Georgia Institute of Technology, GIT-ICS-81/01, 1981"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.10 (\"Minimizing the number of values used: Burns' algorithm (1981)\")"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free",
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "n SWMR bits",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		AbortFinitely: "a process that gives up and comes back for ever raises flag[i] again each time, and a process scanning at L3 or M can find it up at every scan. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process waiting in the loop of L or at M leaves as the exit does (line X, flag[i] := false); the loop of L itself lowers the flag on every pass.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); lower ids have priority, as in the paper.",
			"The jumps are loops: \"goto L\" repeats the busy-wait loop L (which first rewrites flag[i] := false), and M's \"goto M\" is an await over flag[i+1..n-1], read in order and restarted at the first raised flag.",
			"Labels L and M are the paper's; L1–L3 (the two scans of lower ids and the raising of the flag between them) and X (the exit) are ours.",
			"TryLock is ours: one pass of L, L1–L3 and M; where the algorithm would go back to L or wait at M, it lowers flag[i] and fails.",
		},
		Notes: []string{
			"Which Burns algorithm: Raynal's section 2.10 is titled \"Minimizing the number of values used\", i.e. the algorithm with n shared bits. Burns and Lynch proved that any deadlock-free read/write mutex for n processes needs n shared registers (of any size), so n bits is optimal. It is deadlock-free only: a process with a high id can be overtaken forever by lower ones. Burns's 1978 SIGACT News note (\"Mutual exclusion with linear waiting using binary shared variables\", SIGACT News 10(2)) is about linear waiting (bounds of N and N+1 binary variables); its algorithm is a different one and could not be consulted, so this entry implements the n-bit algorithm.",
			"A failed TryLock leaves flag[i] = false, the register of a process in its remainder section, so it cannot block anyone.",
		},
		Def: func(Options) *ir.Algorithm {
			ok := Var("ok")
			lowerDown := ForAll("j", Lit(0), Minus(Self, Lit(1)), Not(Read(Elem("flag", Var("j")))))
			higherDown := ForAll("j", Plus(Self, Lit(1)), Minus(N, Lit(1)), Not(Read(Elem("flag", Var("j")))))
			return &ir.Algorithm{
				Name: "burns",
				Shared: []ir.Shared{
					{Name: "flag", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "process i competes for or holds the lock"},
				},
				Locals: []ir.Local{{Name: "ok", Type: ir.TBool, Doc: "the scans of this pass found no lower flag raised"}},
				Acquire: Code(
					OnAbort(BusyRepeat("L", ok,
						Write("L", Elem("flag", Self), False),
						Set("L1", "ok", lowerDown),
						If("L1", ok,
							Write("L2", Elem("flag", Self), True),
							Set("L3", "ok", lowerDown),
						),
					), Write("X", Elem("flag", Self), False), Fail("X")),
					OnAbort(Await("M", higherDown), Write("X", Elem("flag", Self), False), Fail("X")),
				),
				Release: Code(
					Write("X", Elem("flag", Self), False),
				),
				TryAcquire: Code(
					Write("L", Elem("flag", Self), False),
					If("L1", Not(lowerDown), Fail("L1")),
					Write("L2", Elem("flag", Self), True),
					If("L3", Not(lowerDown),
						Write("L", Elem("flag", Self), False),
						Fail("L3"),
					),
					If("M", Not(higherDown),
						Write("X", Elem("flag", Self), False),
						Fail("M"),
					),
				),
			}
		},
	})
}
