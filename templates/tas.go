package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// The test-and-set lock of Raynal's chapter 3 (seed 002 lists only the
// contents: 3.2.1 the exchange instruction, 3.2.2 test-and-set). Both
// instructions give the same lock: one register, 0 when free; a process
// swaps 1 into it until the old value it gets back is 0, and leaves by
// writing 0. test-and-set(L) is exchange with the constant 1. The labels
// 1–2 are ours: the seed has no code for chapter 3.
func init() {
	free, busy := Named("FREE", 0), Named("BUSY", 1)
	register(&Entry{
		Name:  "tas",
		Title: "test-and-set lock (exchange)",
		Refs: []Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 3.2.1 (exchange instruction) and 3.2.2 (test-and-set instruction)",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
			{Where: "spin on test-and-set",
				Cite: "T. E. Anderson, The performance of spin lock alternatives for shared-memory multiprocessors, IEEE TPDS 1(1), 1990 (reference [1] of Dvir & Taubenfeld 2017)"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free (one write)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "1 register",
			Instructions: []string{"read", "write", "swap (exchange / test-and-set)"},
			Identity:     "anonymous",
		},
		Modes: []mode.Mode{mode.Mutex},
		Deviations: []string{
			"Our copy of Raynal 1986 has only the book's contents; the code is the standard form of the exchange / test-and-set lock (one register, FREE = 0, BUSY = 1), and the labels 1–2 are ours.",
			"test-and-set(L) is written as exchange(L, BUSY): the two instructions differ only in whether the value written is a constant, so they give the same lock.",
			"TryLock is one exchange: it enters if the old value was FREE (a failed attempt writes BUSY over BUSY, which changes nothing).",
			"The release writes FREE by exchange (line 2) rather than by a plain write, so that it can tell from the old value a release of a lock nobody holds (misuse: the old value was FREE). The write is the same; only its old value is kept.",
			"In Go, the release's exchange is a fetch-and-and that keeps the waiting layer's count, which shares L's word when waiters may sleep: its old value tells at once that the lock was held and nobody waits, so that Unlock is one atomic step and one comparison, and inlines (Go backend, guards). The acquire's exchange is a fetch-and-or likewise.",
		},
		AbortNotes: []string{
			"A waiting process holds nothing: each failed exchange wrote BUSY over BUSY, so it may give up before any attempt and leave at once, as the test-and-set try lock does (M. L. Scott, W. N. Scherer III, Scalable queue-based spin locks with timeout, PPoPP 2001, section 2, figure 5).",
		},
		Notes: []string{
			"RMR: every failed exchange is a write that invalidates the other waiters' cached copies, so a waiting process makes remote references for as long as it waits.",
			"Every waiting process keeps writing the lock word, so under contention it is the slowest lock in the catalogue on a cache-coherent machine; ttas (spin on read, then exchange, with backoff) is Anderson's remedy.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "tas",
				Shared: []ir.Shared{
					{Name: "L", Type: ir.TInt, Doc: "FREE (0) or BUSY (1)"},
				},
				Locals: []ir.Local{
					{Name: "old", Type: ir.TInt, Doc: "the value the exchange returned"},
					{Name: "prev", Type: ir.TInt, Doc: "the value the release's exchange returned"},
				},
				Acquire: Code(
					// repeat old := exchange(L, BUSY) until old = FREE
					OnAbort(BusyRepeat("1", Eq(Var("old"), free),
						Swap("1", "old", Reg("L"), busy),
					), Fail("1")),
				),
				Release: Code(
					Swap("2", "prev", Reg("L"), free),
				),
				ReleaseMisuse: Ne(Var("prev"), busy),
				TryAcquire: Code(
					Swap("1", "old", Reg("L"), busy),
					If("1", Ne(Var("old"), free), Fail("1")),
				),
			}
		},
	})
}
