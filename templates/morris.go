package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Morris's mutual exclusion from three binary semaphores (Raynal ch. 3.3.2;
// J. M. Morris, IPL 8(2), 1979). Processes gather in a first room (counted
// by na, which semaphore b protects), pass turnstile a one at a time into a
// second room (counted by nm); the last one through a opens turnstile m
// instead of a, and the second room then drains through m into the
// critical section, the last one out reopening a. A batch admitted through
// a is closed off from later arrivals, which is what bounds overtaking.
//
// Morris assumes weak semaphores: a V on a semaphore some process waits on
// hands it to one of the waiters. Go's registers give only a busy-waiting
// semaphore (await s = 1, then CAS s from 1 to 0), where whoever's CAS
// lands first wins, including the process that just did the V and
// processes that arrived after it. That weaker semaphore costs the
// algorithm its starvation-freedom at the entrance (line 1), and only
// there: see Notes. The labels 1–17 are ours.
func init() {
	a, b, m := Reg("A"), Reg("B"), Reg("M")
	na, nm := Reg("NA"), Reg("NM")
	// P is the busy-waiting semaphore: wait until s is 1, then take it with
	// a CAS, and start over if another process took it first.
	p := func(l string, s ir.Loc) ir.Stmt {
		return Repeat(l, Var("ok"),
			Await(l, Eq(Read(s), Lit(1))),
			CAS(l, "ok", s, Lit(1), Lit(0)),
		)
	}
	v := func(l string, s ir.Loc) ir.Stmt { return Write(l, s, Lit(1)) }
	sem := func(name string, init int64, doc string) ir.Shared {
		return ir.Shared{Name: name, Type: ir.TInt, Init: func(ir.Params, int) int64 { return init }, Doc: doc}
	}
	register(&Entry{
		Name:  "morris",
		Title: "Morris's two-turnstile algorithm from binary semaphores (busy-waiting semaphores)",
		Refs: []Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 3.3.2 (Morris's algorithm)",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
			{Cite: "J. M. Morris, A starvation-free solution to the mutual exclusion problem, Information Processing Letters 8(2), 1979"},
		},
		Props: Properties{
			Liveness: "deadlock-free (busy-waiting semaphores; see Notes)", Fairness: "none",
			Exit: "wait-free (one read, one write)", RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "3 semaphores + 2 counters",
			Instructions: []string{"read", "write", "CAS (the semaphores' P)"},
			Identity:     "anonymous (any number of processes)",
		},
		Modes:   []mode.Mode{mode.Mutex},
		TryLock: "a process must pass two turnstiles; once through a (line 4) it is counted in nm and may be the one that has to open m (line 10), so it cannot give up without blocking or misleading the others",
		NoAbort: "a process past line 2 is counted in NA, and past line 5 in NM, and the last to pass a turnstile must open the next (lines 8–12, 15–17): leaving would mean undoing those counts under the turnstiles' semaphores, which waits, and the paper gives no such path; the waits where a process is held longest (lines 4 and 13, behind the critical section) could not be left",
		Deviations: []string{
			"Morris's semaphores are weak binary semaphores: a V with waiters releases one of them. Here a semaphore is a register holding 0 or 1; P awaits 1 and takes it with CAS(s, 1, 0), retrying if another process took it first, and V writes 1. This busy-waiting semaphore has no waiters to hand over to, so it is weaker than a weak semaphore (see Notes).",
			"Our copy of Raynal 1986 has only the book's contents and Morris's paper was not available to check against; the code is the algorithm's usual form (semaphores a, b, m, counters na, nm, as reproduced in textbooks), and the labels 1–17 are ours, in the order of its statements.",
			"na := na ± 1 and nm := nm ± 1 are a read and a write (the counters are plain variables, each updated only by a process holding the semaphore that protects it).",
		},
		Notes: []string{
			"Why a busy-waiting semaphore is not Morris's weak semaphore: with a weak semaphore, V(s) while processes wait on s passes s to one of them, so neither the process that did the V nor a process arriving later can take it first. With await-then-CAS, V(s) sets s to 1 and the next CAS wins, whoever runs it. Turnstiles a and m do not need the hand-over: everyone who can take a belongs to the current batch (counted in na, and each passes a once before m opens), and everyone who can take m was admitted through a before it closed, so a waiting process is overtaken at most once per process before it is the only one left. Semaphore b does need it: a process at line 1 is not yet counted in na, batches keep closing without it, and the others take b twice per cycle, so an adversarial (even weakly fair) scheduler can make its CAS fail forever. Hence the claim here is deadlock-freedom, not starvation-freedom. SPIN agrees: starvation-freedom under weak fairness fails at n = 2 and 3 with a cycle in which one process keeps losing the CAS at line 1, while mutual exclusion and deadlock-freedom pass.",
			"Replacing b by fetch&add on na (lines 1–3: fetch&add(na, 1); lines 6–12: if fetch&add(na, −1) = 1 then V(m) else V(a)) restores starvation-freedom with busy-waiting turnstiles (SPIN, weak fairness: passes at n = 2, 3, 4 on exact models), but it is no longer Morris's semaphore-only algorithm, so this entry does not do it.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "morris",
				Shared: []ir.Shared{
					sem("A", 1, "turnstile a into the second room (1 = open)"),
					sem("B", 1, "semaphore b, protecting na"),
					sem("M", 0, "turnstile m into the critical section"),
					{Name: "NA", Type: ir.TInt, Doc: "na: processes in the first room (updated under b)"},
					{Name: "NM", Type: ir.TInt, Doc: "nm: processes in the second room (updated by the holder of a or m)"},
				},
				Locals: []ir.Local{
					{Name: "ok", Type: ir.TBool, Doc: "the P's CAS took the semaphore"},
				},
				Acquire: Code(
					p("1", b),
					Write("2", na, Plus(Read(na), Lit(1))),
					v("3", b),
					p("4", a),
					Write("5", nm, Plus(Read(nm), Lit(1))),
					p("6", b),
					Write("7", na, Minus(Read(na), Lit(1))),
					IfElse("8", Eq(Read(na), Lit(0)),
						Code(v("9", b), v("10", m)),
						Code(v("11", b), v("12", a))),
					p("13", m),
					Write("14", nm, Minus(Read(nm), Lit(1))),
				),
				Release: Code(
					IfElse("15", Eq(Read(nm), Lit(0)),
						Code(v("16", a)),
						Code(v("17", m))),
				),
			}
		},
	})
}
