package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Dekker's two-process algorithm as Dijkstra presented it in "Cooperating
// sequential processes" (EWD123, section 2.1): announce (A1); while the
// other process also wants to enter, the one that does not have the turn
// withdraws (B1) until the turn comes to it, and the one that has the turn
// keeps testing (L1). The exit hands the turn over.
func init() {
	register(&Entry{
		Name:  "dekker",
		Title: "Dekker's two-process algorithm (Dijkstra's presentation)",
		Refs: []Ref{
			{Where: "section 2.1, the solution attributed to Th. J. Dekker (labels A1, L1, B1)",
				Cite: "E. W. Dijkstra, Cooperating sequential processes, EWD123, Technological University Eindhoven, 1965; in F. Genuys (ed.), Programming Languages, Academic Press, 1968"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "section 2.2"},
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 1 (Dekker's is the first mutex algorithm)"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "none", Exit: "wait-free",
			RMRCC: "O(1)", RMRDSM: "unbounded", Space: "2 SWMR registers + 1 MWMR register (turn)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		MaxProcs:   2,
		TryLock:    "no natural non-blocking attempt: the process that has the turn must not withdraw, since the other may be waiting at B1 for the turn to change, which only an exit does; a failed attempt by the turn holder would leave the other waiting forever",
		NoAbort:    "the paper gives no abort, and neither way out keeps the lock live: a process that gives up at L1, where it spins holding the turn, must hand the turn on (the other waits for it at B1), but handing it on can undo the turn the other's exit has just given it, and the other, leaving for good, never hands it back; SPIN at n = 2 finds the next patient passage waiting at B1 for ever, with the turn handed on by the exit's E1 and unconditionally alike",
		Deviations: []string{
			"Process ids are 0 and 1 (the paper's 1 and 2); j is 1 - i; c[i] = 0 means p_i wants to enter, as in the paper; turn starts at 0 (the paper's turn = 1).",
			"The paper's jumps (goto L1, goto B1, goto A1) are loops: L1 re-reads c[j] and, when c[j] = 0, turn, until c[j] ≠ 0 or turn ≠ i; B1 is an await; the outer loop goes back to A1.",
			"Labels X1 (c[i] := 1 before B1), E1 and E2 (the exit) are ours; the paper leaves those lines unlabelled.",
		},
		Notes: []string{
			"Starvation-free but with no FIFO guarantee: a process slow to leave B1 can be overtaken by the other any number of times, though never once it is back at L1 with the turn.",
		},
		Def: func(Options) *ir.Algorithm {
			j := Minus(Lit(1), Self)
			cj, t := Var("cj"), Var("t")
			return &ir.Algorithm{
				Name: "dekker",
				Shared: []ir.Shared{
					{Name: "c", Type: ir.TInt, Len: func(ir.Params) int { return 2 }, Owner: "proc",
						Init: func(ir.Params, int) int64 { return 1 },
						Doc:  "0: process i wants to enter or is inside; 1: it does not"},
					{Name: "turn", Type: ir.TInt, Doc: "which process insists when both want to enter"},
				},
				Locals: []ir.Local{
					{Name: "cj", Type: ir.TInt, Doc: "c[j] as last read at L1"},
					{Name: "t", Type: ir.TInt, Doc: "turn as last read at L1"},
					{Name: "entered", Type: ir.TBool},
				},
				Acquire: Code(
					Set("A1", "entered", False),
					While("A1", Not(Var("entered")),
						Write("A1", Elem("c", Self), Lit(0)),
						// L1: if c[j] = 0 then (if turn = i then goto L1; ...).
						BusyRepeat("L1", Or(Ne(cj, Lit(0)), Ne(t, Self)),
							Set("L1", "cj", Read(Elem("c", j))),
							If("L1", Eq(cj, Lit(0)), Set("L1", "t", Read(Reg("turn")))),
						),
						IfElse("L1", Eq(cj, Lit(0)),
							Code(
								Write("X1", Elem("c", Self), Lit(1)),
								Await("B1", Ne(Read(Reg("turn")), j)),
							),
							Code(Set("L1", "entered", True)),
						),
					),
				),
				Release: Code(
					Write("E1", Reg("turn"), j),
					Write("E2", Elem("c", Self), Lit(1)),
				),
			}
		},
	})
}
