package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// MCS-try: Scott & Scherer's MCS lock with timeout ("Scalable queue-based
// spin locks with timeout", PPoPP 2001, section 3.2, figure 7 and the
// pseudo-code published with the paper). The queue is doubly linked: a
// waiter spins on its own prev pointer, and one that gives up replaces the
// pointers into and out of its node with marks (leaving_self,
// leaving_other), tells its successor who its predecessor is, and counts
// on the successor to link itself to that predecessor (steps 1–6), or,
// last in line, swings the tail back. Pointers carry tag bits: transient
// (a nil next that a leaver is about to restore, or a restored prev) and
// granted (the lock handed over).
//
// The paper's pointers are addresses with two low tag bits, and three
// small values stand for the marks. Here a process's one node is named by
// an id, 20 + 4·i (above the marks, word-aligned like the paper's), and a
// pointer is that number plus its tags, kept in the integer registers
// PREV[i] and NEXT[i] of process i's node: the paper's arithmetic on
// pointers is arithmetic here. The paper numbers no lines; the labels are
// ours: A for the acquire, R for its RELINK macro, S1–S6 for the timeout's
// steps (its "serendipity", the lock granted to a leaver, carries the
// label of the step that finds it), X for the release.
func init() {
	const base = 20 // the id of process 0's node; 4 apart (two tag bits)
	nilp := Named("nil", 0)
	leavingSelf, leavingOther, gone := Named("leaving_self", 4), Named("leaving_other", 8), Named("gone", 12)
	four := Lit(4)
	low := func(p ir.Expr) ir.Expr { return Mod(p, four) }
	cleaned := func(p ir.Expr) ir.Expr { return Minus(p, low(p)) }
	isTransient := func(p ir.Expr) ir.Expr { return Eq(Mod(p, Lit(2)), Lit(1)) } // also is_restored
	isGranted := func(p ir.Expr) ir.Expr { return Ge(low(p), Lit(2)) }
	transient := func(p ir.Expr) ir.Expr { return Plus(Minus(p, Mod(p, Lit(2))), Lit(1)) }       // p | 1; also restored
	granted := func(p ir.Expr) ir.Expr { return Plus(Plus(cleaned(p), Lit(2)), Mod(p, Lit(2))) } // p | 2
	isReal := func(p ir.Expr) ir.Expr { return And(Not(isGranted(p)), Gt(p, Lit(16))) }
	id := func(p ir.Expr) ir.Expr { return Div(Minus(cleaned(p), Lit(base)), four) }
	next := func(p ir.Expr) ir.Loc { return Elem("NEXT", id(p)) }
	prev := func(p ir.Expr) ir.Loc { return Elem("PREV", id(p)) }
	me := Plus(Lit(base), Times(four, Self)) // the paper's I
	myNext, myPrev := Elem("NEXT", Self), Elem("PREV", Self)
	pred, succ, temp, n, ok, again := Var("pred"), Var("succ"), Var("temp"), Var("n"), Var("ok"), Var("again")
	tnil := transient(nilp)

	// casOld is compare_and_swap returning the old value, as the paper's
	// is: read; if the value is not old, that read is the failed CAS's
	// result; if it is, a CAS (retried if it lost a race) makes the swap.
	casOld := func(l, dst string, loc ir.Loc, old, new ir.Expr) ir.Stmt {
		return Repeat(l, Var("ok"),
			Set(l, dst, Read(loc)),
			Set(l, "ok", True),
			If(l, Eq(Var(dst), old), CAS(l, "ok", loc, old, new)),
		)
	}
	// relink is the paper's RELINK: the prev pointer changed from pred to
	// temp, a real (perhaps restored) pointer; clear the restored tag, or
	// take temp as the new predecessor and link to it (its step 6).
	relink := func(l string) ir.Stmt {
		return Repeat(l, Not(And(again, isReal(temp))),
			Set(l, "again", False),
			IfElse(l, isTransient(temp),
				Code(
					CAS(l, "", myPrev, temp, cleaned(temp)),
					Set(l, "temp", cleaned(temp)),
				),
				Code(
					Set(l, "pred", temp),
					Swap(l, "temp", next(pred), me),
					If(l, Eq(temp, leavingSelf),
						// Wait for the predecessor to notice this node in
						// its next and move on (its step 2, or 5).
						BusyRepeat(l, Ne(temp, pred), Set(l, "temp", Read(myPrev))),
						Set(l, "again", True),
					),
				)),
		)
	}
	// serendipity: the lock came to a process that was giving up (temp
	// holds the granted pointer read from its prev): handshake with the
	// predecessor, undo steps 1 and 2, and enter.
	serendipity := func(l string) []ir.Stmt {
		return []ir.Stmt{
			Set(l, "pred", cleaned(temp)),
			Write(l, next(pred), nilp),
			IfElse(l, Eq(succ, nilp),
				Code(
					casOld(l, "temp", myNext, leavingSelf, succ),
					If(l, Ne(temp, leavingSelf), Write(l, prev(temp), transient(me))),
				),
				Code(
					Write(l, myNext, succ),
					Write(l, prev(succ), transient(me)),
				)),
			Succeed(l),
		}
	}
	waitNew := func(l string) ir.Stmt { // for the new predecessor (completion of the old one's step 5)
		return BusyRepeat(l, And(Ne(temp, leavingSelf), Ne(temp, leavingOther)), Set(l, "temp", Read(myPrev)))
	}
	timeout := Code(
		// Step 1: identify the successor (if any) and say this node is leaving.
		Repeat("S1", Var("done"),
			Set("S1", "done", True),
			Repeat("S1", ok,
				BusyRepeat("S1", Not(isTransient(succ)), Set("S1", "succ", Read(myNext))),
				CAS("S1", "ok", myNext, succ, leavingSelf),
			),
			If("S1", Eq(succ, gone), Set("S1", "succ", nilp)),
			If("S1", Eq(succ, leavingOther),
				// The new successor is completing its step 6.
				BusyRepeat("S1", Ne(temp, leavingSelf), Set("S1", "temp", Read(myNext))),
				Set("S1", "done", False),
			),
		),
		// Step 2: tell the successor; this takes precedence over its own leaving.
		If("S2", Ne(succ, nilp),
			Swap("S2", "temp", prev(succ), leavingOther),
			If("S2", Eq(temp, leavingSelf),
				// It beat this one to it: wait for it to fail its step 4.
				BusyRepeat("S2", Eq(temp, succ), Set("S2", "temp", Read(myNext))),
			),
		),
		// Steps 3 and 4: identify the predecessor and tell it.
		Repeat("S3", Var("done"),
			Set("S3", "done", True),
			Swap("S3", "temp", myPrev, leavingSelf),
			If("S3", isGranted(temp), serendipity("S3")...),
			IfElse("S3", Eq(temp, leavingOther),
				Code(
					// The predecessor is leaving too, and goes first.
					waitNew("S3"),
					If("S3", isGranted(temp), serendipity("S3")...),
					relink("R"),
					Set("S3", "done", False),
				),
				Code(
					If("S3", Ne(temp, pred), relink("R")),
					IfElse("S4", Eq(succ, nilp),
						Code(Swap("S4", "n", next(pred), tnil)),
						Code(Swap("S4", "n", next(pred), leavingOther))),
					If("S4", isGranted(n), append([]ir.Stmt{
						// The predecessor is passing the lock: wait for it.
						BusyRepeat("S4", Ne(temp, leavingSelf), Set("S4", "temp", Read(myPrev))),
					}, serendipity("S4")...)...),
					If("S4", Eq(n, leavingSelf),
						// The predecessor is leaving too; it waits in its
						// step 2 for this one to see its step 4 fail.
						Write("S4", next(pred), me),
						waitNew("S4"),
						If("S4", isGranted(temp), serendipity("S4")...),
						relink("R"),
						Set("S3", "done", False),
					),
				)),
		),
		IfElse("S5", Eq(succ, nilp),
			Code(
				// Step 5: last in line, swing L back to the predecessor.
				CAS("S5", "ok", Reg("L"), me, pred),
				IfElse("S5", ok,
					Code(
						// Step 6: clear the transient tag.
						casOld("S6", "temp", next(pred), tnil, gone),
						If("S6", Ne(temp, tnil),
							// A new successor came in the window and waits
							// to be told who its predecessor is.
							Write("S6", next(pred), cleaned(temp)),
							Set("S6", "temp", cleaned(temp)),
							CAS("S6", "", prev(temp), tnil, nilp),
						),
					),
					Code(
						// Someone got in line behind this node: it will
						// learn who its real predecessor is from here.
						BusyRepeat("S5", Ne(succ, leavingSelf), Set("S5", "succ", Read(myNext))),
						Write("S5", next(pred), leavingOther),
						Write("S5", prev(succ), pred),
					)),
			),
			Code(
				// Step 5: tell the successor its new predecessor (it links
				// itself to it: step 6).
				Write("S5", prev(succ), pred),
			)),
		Fail("S6"),
	)
	register(&Entry{
		Name:  "mcs-try",
		Title: "MCS-try: MCS queue lock with timeout (Scott & Scherer)",
		Refs: []Ref{
			{Where: "section 3.2, figure 7, and the pseudo-code published with the paper (mcs_try_acquire, mcs_release)",
				Cite: "M. L. Scott, W. N. Scherer III, Scalable queue-based spin locks with timeout, 8th ACM SIGPLAN Symposium on Principles and Practice of Parallel Programming (PPoPP), 2001"},
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 8.2, fig. 11: the MCS lock it extends"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "waits (lines X1–X8: for a leaving successor, and for the handshake of the one it grants)",
			RMRCC: "O(1) without timeouts (a waiter spins on its own node)", RMRDSM: "O(1) without timeouts",
			Space:        "one node per process + L",
			Instructions: []string{"read", "write", "swap", "CAS"},
			Identity:     "ids (a node per process, named by its id)",
		},
		Modes:          []mode.Mode{mode.Mutex},
		NeedsProcs:     true,
		MinProcs:       2,
		TryLock:        "a TryLock would be an acquire whose deadline has already passed, and the paper's timeout path waits for its neighbours (steps 1, 2, 4 and 5): it would not be non-blocking",
		AbortIncorrect: "SPIN at n = 3 finds a race in step 6 (abort-deadlock, an invalid array index, after about 460,000 states and 30 s; the shortest trail has 131 steps). A leaver last in line, whose CAS at S5 swung L back, finds at S6 that a new successor queued behind it meanwhile: it writes that successor into the predecessor's next, then clears the successor's transient mark with a CAS. Between the two, the predecessor's release grants the successor the lock (X7, X8), which frees it from its wait at A7; it passes its critical section, leaves, and queues again with a fresh transient mark (A4). The leaver's late CAS now finds that mark and clears it, so the successor's wait at A14 ends on nil, which it follows at R. Clearing the mark first does not help: the successor, freed at A7 by the CAS, may itself give up and rewrite the predecessor's next before the leaver's write, which then undoes it (found the same way). The plain lock, which nobody leaves, passes at n = 3.",
		AbortNotes: []string{
			"The paper's timeout code, steps 1–6 with their waits: a leaver waits for transient marks and for its neighbours to answer its marks (the handshakes the paper's section 3.2 describes), so an abort's length is bounded by its neighbours' steps, not its own.",
			"A leaver can still be granted the lock (the paper's serendipity, at steps 3 and 4): it then undoes its steps 1 and 2 and enters.",
			"When a process gives up, no pointer to its node remains (the paper's invariant (1)), so its next attempt reuses the node.",
		},
		Deviations: []string{
			"Pointers are ids, not addresses: process i's node is 20 + 4i, nil, leaving_self, leaving_other and gone are 0, 4, 8 and 12, and the tags are the two low bits as in the paper (1 transient or restored, 2 granted), computed with arithmetic (p | 1 is p − p mod 2 + 1). The nodes are the registers PREV[i] and NEXT[i] of the lock, so the lock takes procs and ids (Lock(id)).",
			"The paper's compare_and_swap returns the old value; IR's CAS reports success, so where the old value is used (step 6 and serendipity) it is a read followed, when the value is the expected one, by the CAS, repeated if the CAS loses a race: the same outcome as the atomic operation, one step more.",
			"The goto serendipity of the timeout code is written out at each place it jumps from, and the paper's loops with continue and break are repeat loops with a flag (done, again).",
			"The paper gives no line numbers; the labels are ours: A (acquire), R (RELINK), S1–S6 (the timeout's steps; serendipity, written out under the step that jumps to it, carries that step's label), X (release).",
			"The timeout is not a clock here: the abort path is taken when the waiting process gives up (in Go, when its context is cancelled), at the head of the wait at line A14, where the paper tests its clock. The waits the paper marks as not to be timed out (after a leave_self at line A5) have no abort code.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "mcs-try",
				Shared: []ir.Shared{
					{Name: "L", Type: ir.TInt, Doc: "the tail: the last node's id, or nil (0)"},
					{Name: "PREV", Type: ir.TInt, Len: func(p ir.Params) int { return p.N },
						Doc: "PREV[i]: node i's prev pointer (an id with tags, or a mark), on which its owner spins"},
					{Name: "NEXT", Type: ir.TInt, Len: func(p ir.Params) int { return p.N },
						Doc: "NEXT[i]: node i's next pointer (an id with tags, or a mark)"},
				},
				Locals: []ir.Local{
					{Name: "pred", Type: ir.TInt}, {Name: "succ", Type: ir.TInt}, {Name: "temp", Type: ir.TInt},
					{Name: "n", Type: ir.TInt, Doc: "step 4's old next of the predecessor"},
					{Name: "ok", Type: ir.TBool}, {Name: "again", Type: ir.TBool, Doc: "RELINK goes round again"},
					{Name: "done", Type: ir.TBool, Doc: "a loop of the timeout code or the release is over"},
				},
				Acquire: Code(
					Write("A1", myNext, nilp),
					Swap("A2", "pred", Reg("L"), me),
					If("A3", Eq(pred, nilp), Succeed("A3")),
					Write("A4", myPrev, tnil),
					// Make the predecessor point here, keeping its transient tag.
					Repeat("A5", ok,
						Set("A5", "temp", Read(next(pred))),
						IfElse("A5", isTransient(temp),
							Code(CAS("A5", "ok", next(pred), temp, transient(me))),
							Code(CAS("A5", "ok", next(pred), temp, me))),
					),
					IfElse("A6", isTransient(temp),
						Code(
							// The process this one replaces must clear the
							// tag on the common predecessor's next first.
							Await("A7", Ne(Read(myPrev), tnil)),
							CAS("A8", "", myPrev, nilp, pred),
						),
						Code(
							IfElse("A9", Eq(temp, leavingSelf),
								Code(
									// Probably the wrong predecessor: wait to
									// learn the real one, without timing out.
									BusyRepeat("A10", Ne(temp, tnil), Set("A10", "temp", Read(myPrev))),
									If("A11", isReal(temp), relink("R")),
								),
								Code(CAS("A12", "", myPrev, tnil, pred))),
						)),
					Repeat("A13", Var("done"),
						Set("A13", "done", True),
						OnAbort(BusyRepeat("A14", Ne(temp, pred), Set("A14", "temp", Read(myPrev))), timeout...),
						If("A15", Not(isGranted(temp)),
							If("A16", Eq(temp, leavingOther),
								// The predecessor is leaving: wait for the new one.
								BusyRepeat("A17", Ne(temp, leavingOther), Set("A17", "temp", Read(myPrev))),
							),
							If("A18", Not(isGranted(temp)),
								relink("R"),
								Set("A13", "done", False),
							),
						),
					),
					// Handshake with the predecessor.
					Set("A20", "pred", cleaned(temp)),
					Write("A20", next(pred), nilp),
				),
				Release: Code(
					Set("X1", "done", False),
					While("X1", Not(Var("done")),
						// A leaving successor will update this node: wait.
						BusyRepeat("X2", And(Ne(succ, leavingOther), Not(isTransient(succ))), Set("X2", "succ", Read(myNext))),
						If("X3", Eq(succ, gone),
							CAS("X3", "ok", myNext, gone, nilp),
							// Lost the CAS: go round again (succ is a mark that skips the rest).
							IfElse("X3", ok, Code(Set("X3", "succ", nilp)), Code(Set("X3", "succ", leavingOther))),
						),
						IfElse("X4", Eq(succ, nilp),
							Code(
								// Try to fix the global pointer.
								CAS("X4", "ok", Reg("L"), me, nilp),
								IfElse("X5", ok,
									Code(
										// Let anyone who sneaked in and left finish with this node.
										BusyRepeat("X5", Not(isTransient(temp)), Set("X5", "temp", Read(myNext))),
										Set("X5", "done", True),
									),
									Code(BusyRepeat("X6", Ne(temp, nilp), Set("X6", "temp", Read(myNext))))),
							),
							Code(If("X7", Ne(succ, leavingOther),
								CAS("X7", "ok", myNext, succ, granted(nilp)),
								If("X7", ok,
									// Tell the successor, then wait for its handshake.
									Swap("X8", "temp", prev(succ), granted(me)),
									BusyRepeat("X8", Eq(temp, nilp), Set("X8", "temp", Read(myNext))),
									Set("X8", "done", True),
								),
							))),
					),
				),
				DoorwayEnd: "A2",
			}
		},
	})
}
