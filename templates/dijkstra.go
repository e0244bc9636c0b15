package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Dijkstra's 1965 n-process algorithm, as seed 003 writes it (fig. 1,
// lines 1–10): raise FLAG[i]; then loop, trying to become NEXT while the
// current NEXT is not interested (lines 3–5), and, once NEXT, entering if
// no other process claims to be next (lines 6–7).
func init() {
	register(&Entry{
		Name:  "dijkstra",
		Title: "Dijkstra's n-process algorithm (1965)",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 3, fig. 1, lines 1–10",
				Cite: "E. W. Dijkstra, Solution of a problem in concurrent programming control, CACM 8(9), 1965, p. 569"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.3"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free",
			RMRCC: "unbounded", RMRDSM: "unbounded", Space: "2n SWMR bits + 1 MWMR register (NEXT)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		AbortFinitely: "a process that gives up and comes back for ever raises FLAG[i] again at line 1 each time, and a process reading FLAG[NEXT] at line 5 can find it up at every check. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process in the loop of lines 2–7 leaves as the exit does (line 10: FLAG[i] := false, NOTN[i] := true); NEXT may still name it, which the others' line 5 reads as an idle process, as after an exit.",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); NEXT starts at 0 (the paper leaves it arbitrary).",
			"The repeat loop of lines 2–9 is a busy-wait loop: the waiting policy applies at its back edge (an iteration that changed nothing it read sleeps until another process writes).",
			"Line 5 reads NEXT again to index FLAG[NEXT] (two accesses, as Raynal & Taubenfeld 2022 point out); line 7's ∀ is n-1 separate reads, stopping at the first NOTN[j] = false.",
			"TryLock is ours: one pass of lines 3–5 (giving up if FLAG[NEXT] is true) and one of lines 6–7 without re-testing NEXT, withdrawing with line 10 on failure. Mutual exclusion rests on lines 6–7 alone (each process writes NOTN[i] := false before reading the others'), so skipping the re-test cannot let two processes in.",
		},
		Notes: []string{
			"Deadlock-free only: a process can loop forever while others enter (Knuth 1966 extended it to starvation-freedom; see knuth).",
			"A failed TryLock leaves FLAG[i] = false and NOTN[i] = true, the registers of a process in its remainder section; no process ever waits for such a process, so it cannot block the others.",
		},
		Def: func(Options) *ir.Algorithm {
			notNext := Ne(Read(Reg("NEXT")), Self)
			nextIdle := Eq(Read(Elem("FLAG", Read(Reg("NEXT")))), False)
			alone := ForAllOthers("j", Lit(0), Minus(N, Lit(1)), Read(Elem("NOTN", Var("j"))))
			withdraw := func() []ir.Stmt {
				return []ir.Stmt{
					Write("10", Elem("FLAG", Self), False),
					Write("10", Elem("NOTN", Self), True),
				}
			}
			return &ir.Algorithm{
				Name: "dijkstra",
				Shared: []ir.Shared{
					{Name: "FLAG", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "process i competes for or holds the lock"},
					{Name: "NOTN", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Init: func(ir.Params, int) int64 { return 1 },
						Doc:  "false while process i, being NEXT, tries to enter"},
					{Name: "NEXT", Type: ir.TInt, Doc: "the process considered next to enter"},
				},
				Acquire: Code(
					Write("1", Elem("FLAG", Self), True),
					OnAbort(BusyRepeat("2", False,
						IfElse("3", notNext,
							Code(
								Write("4", Elem("NOTN", Self), True),
								If("5", nextIdle, Write("5", Reg("NEXT"), Self)),
							),
							Code(
								Write("6", Elem("NOTN", Self), False),
								If("7", alone, Succeed("7")),
							),
						),
					), append(withdraw(), Fail("10"))...),
				),
				Release: Code(withdraw()...),
				TryAcquire: Code(
					Write("1", Elem("FLAG", Self), True),
					If("3", notNext,
						Write("4", Elem("NOTN", Self), True),
						If("5", Not(nextIdle), append(withdraw(), Fail("5"))...),
						Write("5", Reg("NEXT"), Self),
					),
					Write("6", Elem("NOTN", Self), False),
					If("7", Not(alone), append(withdraw(), Fail("7"))...),
				),
			}
		},
	})
}
