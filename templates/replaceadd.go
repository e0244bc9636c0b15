package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// The replace-add lock: the busy-waiting semaphore of the NYU
// Ultracomputer, which Raynal's book lists under the replace-add
// instruction (chapter 3.2.5; seed 002 has only the contents).
// replace-add(S, e) atomically adds e to S and returns the new value. S
// counts the free places (1 for a mutex, k for k-exclusion); a process
// waits until S looks positive, takes a place with replace-add(S, -1), and
// if the result is negative (others took the last place first) gives it
// back with replace-add(S, +1) and waits again. Release gives a place back.
//
// It is not the ticket lock (chapter 3.2.4, catalogue entry "ticket"): the
// counter holds free places, not tickets, nobody is served in order, and a
// failed decrement is undone.
//
// The labels 1–5 are ours; the code is the P/V of Gottlieb, Lubachevsky &
// Rudolph, written with replace-add as the Ultracomputer papers define it.
func init() {
	s := Reg("S")
	register(&Entry{
		Name:  "replace-add",
		Title: "replace-add (fetch&add) busy-waiting semaphore lock",
		Refs: []Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 3.2.5 (replace-add instruction)",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
			{Where: "the busy-waiting semaphore P and V built on fetch-and-add",
				Cite: "A. Gottlieb, B. D. Lubachevsky, L. Rudolph, Basic techniques for the efficient coordination of very large numbers of cooperating sequential processors, ACM TOPLAS 5(2), 1983"},
			{Where: "the replace-add (fetch-and-add) operation",
				Cite: "A. Gottlieb, R. Grishman, C. P. Kruskal, K. P. McAuliffe, L. Rudolph, M. Snir, The NYU Ultracomputer: designing an MIMD shared memory parallel computer, IEEE Trans. Computers C-32(2), 1983"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free (one replace-add)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:         "1 register",
			Instructions:  []string{"read", "replace-add (fetch&add)"},
			Identity:      "anonymous",
			CrashTolerant: true,
			Crashes: "k-exclusion keeps its deadlock freedom while up to k − 1 processes crash: each holds at most one unit of S, wherever it stops. " +
				"Checked by the crash phase of every generated lock's Explore test: anywhere under the spin and yield policies (generated/replace-add's ReplaceAddKSpin), inside the critical section under the parking ones (ReplaceAddK). " +
				"SPIN checks the algorithm with one crash anywhere at n = 3, k = 2: deadlock freedom of the others holds (lab/spin TestCrashTolerance).",
		},
		Modes: []mode.Mode{mode.Mutex, mode.KExclusion},
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 1 holds no place (a failed decrement was undone at line 4), so it may leave at once. Checked by SPIN with aborts, in both modes' definitions (they are the same code).",
		},
		Deviations: []string{
			"Raynal 1986's chapter 3 is not in our copy and the Ultracomputer papers were not available to check against; the code is the busy-waiting semaphore usually attributed to them (Gottlieb, Lubachevsky & Rudolph 1983), initialised to 1 for mutual exclusion or k for k-exclusion, and the labels 1–5 are ours.",
			"replace-add(S, e), which returns the new value, is fetch&add(S, e), which returns the old one, plus e: line 3 tests old − 1 < 0.",
			"The paper's \"while S ≤ 0 do nothing\" before the decrement is an await (line 1); the retry after an undone decrement goes back to it.",
			"Release keeps what its replace-add(S, +1) returned: a k-exclusion lock's release finds S already k when no process held a place, and panics (as semaphore.Weighted does on a release of more than is held), with no count of holders kept beside S. The check can miss a release without a place made while another process's failed decrement is not undone yet.",
			"TryLock is lines 2–4 once: it may fail while another process's failed decrement has not been undone yet (a spurious failure, as C++'s try_lock allows).",
		},
		Notes: []string{
			"Not starvation-free: a waiting process can lose every race for a freed place. It never livelocks, though: when S becomes positive with no undo pending, the next decrement succeeds.",
			"With k > 1 the same code is a k-exclusion lock (S starts at k).",
		},
		Def: func(o Options) *ir.Algorithm {
			a := &ir.Algorithm{
				Name: "replace-add",
				Shared: []ir.Shared{
					{Name: "S", Type: ir.TInt, Init: func(p ir.Params, _ int) int64 { return int64(p.K) },
						Doc: "the free places: k minus holders minus pending failed decrements"},
				},
				Locals: []ir.Local{
					{Name: "old", Type: ir.TInt, Doc: "S before this process's replace-add(S, -1)"},
					{Name: "ok", Type: ir.TBool, Doc: "the decrement took a place"},
				},
				Acquire: Code(
					Set("", "ok", False),
					While("1", Not(Var("ok")),
						OnAbort(Await("1", Gt(Read(s), Lit(0))), Fail("1")),
						FetchAdd("2", "old", s, Lit(-1)),
						IfElse("3", Lt(Minus(Var("old"), Lit(1)), Lit(0)),
							Code(FetchAdd("4", "", s, Lit(1))),
							Code(Set("3", "ok", True))),
					),
				),
				Release: Code(
					FetchAdd("5", "", s, Lit(1)),
				),
				TryAcquire: Code(
					FetchAdd("2", "old", s, Lit(-1)),
					If("3", Lt(Minus(Var("old"), Lit(1)), Lit(0)),
						FetchAdd("4", "", s, Lit(1)),
						Fail("4"),
					),
				),
			}
			if o.Mode == mode.KExclusion {
				// The release keeps what it read of S: already k, no
				// process held a place to give back.
				a.Locals = append(a.Locals, ir.Local{Name: "prev", Type: ir.TInt, Doc: "S before the release's replace-add(S, +1)"})
				a.Release = Code(FetchAdd("5", "prev", s, Lit(1)))
				a.ReleaseMisuse = Ge(Var("prev"), Param("k"))
			}
			return a
		},
	})
}
