package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Lamport's fast mutex (seed 003, fig. 8): the splitter of fig. 7 (lines
// 1–9) wrapped in a repeat loop (N0, N10) with a flag per process (N1,
// R3, R7.1–R7.5). Without contention a passage costs five shared accesses
// to enter (N1, 1, 2, 4, 5) and two to leave (11).
//
// The try-acquire is the paper's abortable variant ("Abortable mutex",
// section 7): both waiting statements R3 and R7.4 become return(⊥).
func init() {
	bot := Named("⊥", -1)
	register(&Entry{
		Name:  "lamport-fast",
		Title: "Lamport's fast mutex (splitter-based, constant-time without contention)",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 7, fig. 7 (splitter) and fig. 8; abortable variant in \"Abortable mutex\"",
				Cite: "L. Lamport, A fast mutual exclusion algorithm, ACM TOCS 5(1), 1987"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free (two writes, line 11)",
			RMRCC: "unbounded (O(1) without contention: 5 accesses to enter, 2 to leave)", RMRDSM: "unbounded",
			Space:        "n + 2 registers (FLAG[1..n], X, Y)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		TryLockDoc:    "TryLock is the paper's abortable acquire: it gives up where the acquire would wait at R3 or R7.4, and reports whether it entered. It may still wait at R7.2, after losing the race at line 5, until every flag is down (a holder's flag stays up for its whole critical section): unlike sync.Mutex.TryLock it is not wait-free under contention.",
		AbortFinitely: "a process that gives up at R3 and comes back for ever raises FLAG[i] again at N1 each time, and a process waiting at R7.2 for every flag down, holding Y, can read that flag up at every scan; nobody else gets past line 2 while Y is held, so nobody enters. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"The paper's abortable variant (Raynal & Taubenfeld 2022, section 7, \"Abortable mutex\"): the waits at R3 and R7.4 become return(⊥). Both come after FLAG[i] := false (R3, R7.1) and before any write of Y by this pass, so the process leaves nothing behind.",
			"R7.2 cannot be abandoned: the process wrote Y = i at line 4, which only its exit resets (line 11); giving up there would leave every other process waiting at R3 or R7.4 for ever (the negative control lamport-fast-abort-r7.2).",
		},
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); ⊥ is -1, so X and Y hold an id or ⊥. X starts at ⊥ too (the paper leaves its initial value open).",
			"The repeat loop N0–N10 is a loop left only through return() (lines 6 and R7.3); lines 8, 9 and N10 close blocks and carry no statement.",
			"R7.2 reads FLAG[0..n-1] one by one (including the process's own, which is false), stopping at the first raised flag; the whole scan is repeated until it sees every flag down.",
			"TryLock is the paper's abortable acquire with BOTH waits (R3 and R7.4) replaced by return(⊥), written without the repeat loop (it never goes round again) and with the tests of lines 5 and R7.3 negated so that both ways in (lines 6 and R7.3) fall through to the end of the try-acquire.",
			"R7.2 cannot be replaced by return(⊥) (a process aborting there would leave Y = i, which nobody resets, and every other process would wait at R3 or R7.4 forever), so TryLock may still wait at R7.2 — only after losing the race at line 5 — until it sees every flag down: that includes a holder that entered at line 6 (its flag stays up for its whole critical section) and processes passing N1–R3. Unlike sync.Mutex.TryLock, it is therefore not wait-free under contention: it is the paper's abortable acquire.",
		},
		Notes: []string{
			"Deadlock-free but not starvation-free: a process can lose the splitter forever to faster ones.",
			"TryLock rather than a separate lamport-fast-abortable entry: the abortable variant's acquire, which may return ⊥, is exactly Go's TryLock, and keeping it in this entry means one definition with both operations (same registers, same release).",
			"Fast path (no contention): N1, 1, 2, 4, 5 then line 6 — 5 shared accesses to enter and 2 to leave (line 11), whatever n is.",
		},
		Def: func(Options) *ir.Algorithm {
			flagsDown := ForAll("j", Lit(0), Minus(N, Lit(1)), Eq(Read(Elem("FLAG", Var("j"))), False))
			waitY := func(l string) ir.Stmt { return OnAbort(Await(l, Eq(Read(Reg("Y")), bot)), Fail(l)) }
			acquire := Code(While("N0", True,
				Write("N1", Elem("FLAG", Self), True),
				Write("1", Reg("X"), Self),
				IfElse("2", Ne(Read(Reg("Y")), bot),
					Code(Write("R3", Elem("FLAG", Self), False), waitY("R3")),
					Code(
						Write("4", Reg("Y"), Self),
						IfElse("5", Eq(Read(Reg("X")), Self),
							Code(Succeed("6")),
							Code(
								Write("R7.1", Elem("FLAG", Self), False),
								Await("R7.2", flagsDown),
								IfElse("R7.3", Eq(Read(Reg("Y")), Self),
									Code(Succeed("R7.3")),
									Code(waitY("R7.4"))),
							)),
					)),
			))
			// The abortable variant, with the tests of lines 5 and R7.3
			// negated so that both ways in (6, R7.3) fall through to the
			// end of the try-acquire, which enters.
			try := Code(
				Write("N1", Elem("FLAG", Self), True),
				Write("1", Reg("X"), Self),
				If("2", Ne(Read(Reg("Y")), bot),
					Write("R3", Elem("FLAG", Self), False),
					Fail("R3")),
				Write("4", Reg("Y"), Self),
				If("5", Ne(Read(Reg("X")), Self),
					Write("R7.1", Elem("FLAG", Self), False),
					Await("R7.2", flagsDown),
					If("R7.3", Ne(Read(Reg("Y")), Self), Fail("R7.4")),
				),
			)
			return &ir.Algorithm{
				Name: "lamport-fast",
				Shared: []ir.Shared{
					{Name: "FLAG", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc",
						Doc: "process i is competing (SWMR)"},
					{Name: "X", Type: ir.TInt, Init: func(ir.Params, int) int64 { return -1 },
						Doc: "the splitter's door: the last process to arrive (⊥ = -1)"},
					{Name: "Y", Type: ir.TInt, Init: func(ir.Params, int) int64 { return -1 },
						Doc: "the splitter's lock: ⊥ (-1) when nobody is past line 4"},
				},
				Acquire:    acquire,
				TryAcquire: try,
				Release: Code(
					Write("11", Reg("Y"), bot),
					Write("11", Elem("FLAG", Self), False),
				),
			}
		},
	})
}
