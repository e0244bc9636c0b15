package templates

import (
	"fmt"
	"time"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Fischer's timing-based lock (seed 003, section 6). Fig. 6 is missing
// from the seed's text; the code is rebuilt from the seed's prose ("it first
// waits until it sees X = ⊥ ... writing its identity i into X, and stops
// during Δ units of time, after which it reads again X. If its identity is
// still in X, p_i terminates its invocation of acquire(), otherwise, it
// re-enters the repeat loop. The code of release() is a simple reset of X")
// and from the published forms (Abadi & Lamport 1994, section 3.4; Lynch
// 1996, section 24.2). The labels 1–5 are ours.
//
// Correctness rests on a timing assumption Go cannot give: see Notes.
func init() {
	bot := Named("⊥", -1)
	unsafe := "Go gives no bound on the time between a goroutine's read of X = ⊥ (line 1) and its write X := i (line 2): the goroutine can be preempted, descheduled by the OS, or stopped by the garbage collector in between, for longer than Δ. A process that wrote X, waited Δ and still reads its own id then enters, and the delayed process overwrites X and, after its own Δ, enters too: mutual exclusion is violated. Fischer's algorithm is correct only under its timing assumption (every step between the read at line 1 and the write at line 2 takes at most Δ), which no Go program can guarantee, so this lock is NOT safe; it is in the catalogue as the paper's real-time algorithm and as a subject for verify (the controlled scheduler, where delay gives no timing guarantee, breaks it)."
	register(&Entry{
		Name:  "fischer",
		Title: "Fischer's timing-based mutex (needs a known bound Δ on step time)",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 6 (fig. 6, missing from the text: rebuilt from the prose)",
				Cite: "M. J. Fischer, Re: Where are you?, e-mail to L. Lamport, 25 June 1985 (unpublished)"},
			{Where: "section 3.4 (history and the algorithm)",
				Cite: "M. Abadi, L. Lamport, An old-fashioned recipe for real time, ACM TOPLAS 16(5), 1994"},
			{Where: "section 24.2 (Fischer's algorithm, with its proof)",
				Cite: "N. A. Lynch, Distributed Algorithms, Morgan Kaufmann, 1996"},
		},
		Props: Properties{
			Liveness: "deadlock-free (under the timing assumption)", Fairness: "none", Exit: "wait-free (one write)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "1 register (X)",
			Instructions: []string{"read", "write", "delay(Δ)"},
			Identity:     "ids (symmetric with equality: ids are only compared)",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "the algorithm has no try path: a process may only enter after its delay(Δ) at line 3 and the re-read at line 4, and a failed attempt has already written X",
		Params: []ParamSpec{{
			Key:      "delta",
			Doc:      "Δ, the known bound on the time between two consecutive shared accesses of a process (line 3 delays for it); a Go duration",
			Duration: true,
			Required: true,
			Default:  int64(100 * time.Microsecond),
			Check: func(v int64, _ int) error {
				if v <= 0 {
					return fmt.Errorf("Δ must be a positive duration")
				}
				if v > int64(time.Second) {
					return fmt.Errorf("Δ over 1s would stall every contended passage for that long")
				}
				return nil
			},
		}},
		AbortNotes: []string{
			"A process waiting at line 1 has not yet written X in this pass (or found X overwritten by another), so it may leave at once. Fischer's lock remains a negative control: with aborts as without, it is correct only when steps are timed, which Go cannot promise.",
		},
		Deviations: []string{
			"UNSAFE IN GO: " + unsafe,
			"Fig. 6 of Raynal & Taubenfeld 2022 is missing from our copy; the code is rebuilt from its prose and the published forms (Abadi & Lamport 1994; Lynch 1996), and the labels 1–5 are ours.",
			"Process ids are 0..n-1 and ⊥ is -1; the algorithm never needs n (procs only bounds the ids).",
			"The repeat's exit test (line 4, until X = i) reads X into a local at the end of the loop body, so its read carries label 4.",
			"delay(Δ) is time.Sleep(Δ): it stops the process for at least Δ, as the paper's delay() does, usually somewhat longer (timer granularity).",
		},
		Timing: unsafe,
		Notes: []string{
			unsafe,
			"In ordinary runs the window is tiny (line 1's last read and line 2's write are adjacent instructions), so the stress test usually passes; that is luck, not a proof. Raising Δ makes a violation rarer but never impossible.",
			"Without contention a passage costs 3 shared accesses and one delay(Δ): the delay is paid on every acquire, so the lock is slow by design.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "fischer",
				Shared: []ir.Shared{
					{Name: "X", Type: ir.TInt, Init: func(ir.Params, int) int64 { return -1 },
						Doc: "⊥ (-1) when free, else the id of the last process to claim it"},
				},
				Locals: []ir.Local{{Name: "mine", Type: ir.TBool, Doc: "line 4 read X = i"}},
				Acquire: Code(
					Repeat("1", Var("mine"),
						OnAbort(Await("1", Eq(Read(Reg("X")), bot)), Fail("1")),
						Write("2", Reg("X"), Self),
						Delay("3", "delta"),
						Set("4", "mine", Eq(Read(Reg("X")), Self)),
					),
				),
				Release: Code(
					Write("5", Reg("X"), bot),
				),
			}
		},
	})
}
