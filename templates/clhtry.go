package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// CLH-try: Scott & Scherer's CLH lock with timeout ("Scalable queue-based
// spin locks with timeout", PPoPP 2001, section 3.1, figure 6 and the
// pseudo-code published with the paper). A node's status is one of five
// values instead of CLH's locked bit. A waiter that gives up in the middle
// of the queue marks its node leaving, and its successor, which spins on
// that node, skips it (marking it recycled, the handshake that frees it);
// one at the end of the queue swings the tail back to its predecessor. A
// leaver first marks its predecessor's node transient, so that the
// predecessor cannot release (or leave) under it, and restores it when it
// is gone. The paper numbers no lines; the labels 0–26 are ours, in the
// order of the published code.
func init() {
	waiting, available := Named("waiting", 0), Named("available", 1)
	leaving, transient, recycled := Named("leaving", 2), Named("transient", 3), Named("recycled", 4)
	me, pred, stat, temp, ok := Var("mynode"), Var("pred"), Var("stat"), Var("temp"), Var("ok")
	status := func(n ir.Expr) ir.Loc { return Field(n, "status") }
	register(&Entry{
		Name:  "clh-try",
		Title: "CLH-try: CLH queue lock with timeout (Scott & Scherer)",
		Refs: []Ref{
			{Where: "section 3.1, figure 6, and the pseudo-code published with the paper (clh_try_acquire, clh_release)",
				Cite: "M. L. Scott, W. N. Scherer III, Scalable queue-based spin locks with timeout, 8th ACM SIGPLAN Symposium on Principles and Practice of Parallel Programming (PPoPP), 2001"},
			{Seed: "000_175dd44c210ae396.txt", Where: "section 5 (related work), references [2], [11], [12]: the CLH lock it extends"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "waits (line 25: while a leaving successor holds its node transient)",
			RMRCC: "O(1) without timeouts (a waiter spins on its predecessor's node)", RMRDSM: "unbounded",
			Space:        "n+1 nodes + TAIL (plus one unused spare per process here)",
			Instructions: []string{"read", "write", "swap", "CAS"},
			Identity:     "anonymous (a node per process)",
		},
		Modes: []mode.Mode{mode.Mutex},
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "", nodes.Array: "",
			nodes.Caller: "a process that gave up keeps its node for its next attempt while its successor may still be skipping it, and a release takes over the predecessor's node as CLH's does; with caller-owned nodes both would have to be spelled out to the caller, which this entry does not do",
			nodes.Heap:   "a release takes over its predecessor's node and a leaver keeps its own for the next attempt: with a fresh node per passage the leaver's node would have to outlive the passage, which the heap policy does not model",
			nodes.Pool:   "as for heap: a leaver's node must stay with it until its successor has recycled it",
		},
		DefaultNodes: nodes.Handle,
		TryLock:      "a TryLock would be an acquire whose deadline has already passed, and the paper's timeout path waits for the neighbours' handshakes (lines 10, 17 and 20): it would not be non-blocking",
		AbortNotes: []string{
			"The paper's timeout code, with its waits: a leaver waits for its predecessor to stop being transient (line 10, a neighbour that is itself leaving), for its own node to stop being transient (line 17) and, in the middle of the queue, for its successor to recycle its node (line 20). So an abort's length is bounded by its neighbours' steps, not its own: the preemption vulnerability that Scott's non-blocking variants (PODC 2002) remove.",
			"A leaver can still be granted the lock (line 12): its swap finds its predecessor's node available, and it enters instead of giving up.",
			"A process that gave up keeps its node for the next attempt: when it returns, no pointer to the node remains (its successor recycled it, or it swung TAIL back).",
		},
		Deviations: []string{
			"TAIL starts at ⊥ instead of at a dummy node in the available state, as in the catalogue's CLH: the first process to swap finds ⊥ and takes its spare record NODE[1], whose status starts available, as the dummy (line 3).",
			"The paper gives no line numbers; the labels 0–26 are ours, in the order of its code. The statuses are numbered waiting 0, available 1, leaving 2, transient 3, recycled 4, the order of the paper's enumeration.",
			"compare_and_swap(&I->status, waiting, leaving), which returns the old status, is a CAS that reports success (line 16): the paper only compares that status with waiting.",
			"The timeout is not a clock here: the abort path is taken when the waiting process gives up (in Go, when its context is cancelled), at the head of the loop at line 5, which is where the paper tests its clock.",
			"mynode starts at ⊥ and line 0 points it at the process's own NODE[0] on its first passage, as in the catalogue's CLH.",
		},
		Notes: []string{
			"Without timeouts the lock is CLH with five statuses instead of a bit: the release is a CAS from waiting to available (line 24) rather than a write, so that it cannot overwrite a transient mark.",
			"Two processes may spin on one node (the paper's section 3.1): a releasing predecessor waiting at line 25 for a leaving successor's transient mark to clear, and a newcomer behind that successor.",
		},
		Def: func(Options) *ir.Algorithm {
			// skip is the successor's half of a leaver's handshake: step
			// over its node to its predecessor, and mark the node
			// recycled so that its owner may go.
			skip := func(l string) []ir.Stmt {
				return []ir.Stmt{
					Set(l, "temp", Read(Field(pred, "prev"))),
					Write(l, status(pred), recycled),
					Set(l, "pred", temp),
				}
			}
			enter := func(l string) []ir.Stmt {
				return []ir.Stmt{Write(l, Field(me, "prev"), pred), Succeed(l)}
			}
			timeout := Code(
				// Mark the predecessor's node transient, skipping leavers.
				Repeat("9", Ne(stat, leaving),
					Await("10", Ne(Read(status(pred)), transient)),
					Swap("11", "stat", status(pred), transient),
					If("12", Eq(stat, available), enter("12")...),
					If("13", Eq(stat, leaving), skip("13")...),
				),
				Write("14", Field(me, "prev"), pred),
				// Mark this node leaving, so that the successor cannot leave.
				Repeat("15", ok,
					CAS("16", "ok", status(me), waiting, leaving),
					If("17", Not(ok), Await("17", Eq(Read(status(me)), waiting))),
				),
				// Last in line: swing TAIL back to the predecessor.
				CAS("18", "ok", Reg("TAIL"), me, pred),
				If("19", ok, Write("19", status(pred), waiting), Fail("19")),
				// Not last: wait for the successor's handshake.
				Await("20", Eq(Read(status(me)), recycled)),
				Write("21", status(pred), waiting),
				Fail("21"),
			)
			return &ir.Algorithm{
				Name: "clh-try",
				Records: []ir.Record{{Name: "QNode", Fields: []ir.Field{
					{Name: "status", Type: ir.TInt, Init: 1,
						Doc: "waiting, available, leaving (its owner gives up), transient (its successor gives up) or recycled (no pointer to it remains); a fresh node is available, as the papers' dummy is"},
					{Name: "prev", Type: ir.TRef("QNode"), Doc: "the predecessor's node: for the release to take over, for a successor to skip a leaver"},
				}}},
				Shared: []ir.Shared{{Name: "TAIL", Type: ir.TRef("QNode"), Doc: "the last node of the queue (the paper's L; ⊥ until the first swap)"}},
				Procs: []ir.ProcRecords{{Name: "NODE", Rec: "QNode", Count: 2,
					Doc: "NODE[0], the node a process starts with; NODE[1], the spare that becomes the dummy if this process is the first to swap"}},
				Locals: []ir.Local{
					{Name: "mynode", Type: ir.TRef("QNode"), Scope: ir.Process,
						Doc: "the paper's I: NODE[0] at first, then the predecessor's of the last passage"},
					{Name: "pred", Type: ir.TRef("QNode"), Doc: "the node this process waits on"},
					{Name: "temp", Type: ir.TRef("QNode"), Doc: "a leaver's predecessor, when skipping it"},
					{Name: "stat", Type: ir.TInt, Doc: "the status last read or swapped"},
					{Name: "ok", Type: ir.TBool, Doc: "the last CAS succeeded"},
				},
				Acquire: Code(
					If("0", Eq(me, Null), Set("0", "mynode", Own("NODE", Lit(0)))),
					Write("1", status(me), waiting),
					Swap("2", "pred", Reg("TAIL"), me),
					If("3", Eq(pred, Null), Set("3", "pred", Own("NODE", Lit(1)))),
					// Check once before the loop (the paper's optimisation).
					If("4", Eq(Read(status(pred)), available), enter("4")...),
					OnAbort(BusyWhile("5", True,
						Set("6", "stat", Read(status(pred))),
						If("7", Eq(stat, available), enter("7")...),
						If("8", Eq(stat, leaving), skip("8")...),
					), timeout...),
				),
				Release: Code(
					Set("22", "pred", Read(Field(me, "prev"))),
					Repeat("23", ok,
						CAS("24", "ok", status(me), waiting, available),
						If("25", Not(ok), Await("25", Ne(Read(status(me)), transient))),
					),
					Set("26", "mynode", pred),
				),
				DoorwayEnd: "2",
			}
		},
	})
}
