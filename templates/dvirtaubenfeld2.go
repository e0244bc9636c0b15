package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// Dvir & Taubenfeld's algorithm 2 (seed 000, section 4.2, lines 1–15): the
// MCS-like queue of algorithm 1 with node recycling. A process's record is
// split in two: q_p (LocalNode, its spin flag, local to p) and the QNode it
// threads into the queue, which it hands on: at the end of its exit it
// leaves its QNode in the queue as the new dummy (status = pid = p) and
// takes over its predecessor's (line 15).
//
// Identity. Lines 2, 11 and 13 use the process id p, which must differ
// from ZERO = 0; here p is id+1 (ids are 0..n-1). Section 4.3 (item 1)
// allows the value of the q_p pointer instead, which would free the
// algorithm from ids; this definition keeps the paper's presentation
// (integer ids) because section 4.3 (item 3) is about exactly this value:
// with UNLOCKED in its place the algorithm deadlocks, and that mistake must
// stay a one-line change (the identity expression below) for the negative
// control. A reference-typed identity could not express UNLOCKED, since
// the IR has no non-⊥ reference constants.
//
// The dummy node_0. The IR cannot give the lock a record of its own, so T
// starts at ⊥ and the first process to swap finds ⊥ and takes its own
// spare record node0_p, which is in node_0's initial state {⊥, ⊥, 0, 0},
// as node_0 (right after line 6). From there lines 7–15 run as in the paper: the first
// process passes line 9 on node_0 and takes it over at line 15.
func init() {
	// identity is the value lines 2, 11 and 13 write and compare: the
	// process id (never ZERO). Section 4.3's deadlocking mistake is this one
	// line with Named("UNLOCKED", 1) in place of the id.
	identity := Plus(Self, Lit(1))

	zero := Named("ZERO", 0)
	qn, pred, q := Var("qnode"), Var("pred"), Var("myq")
	register(&Entry{
		Name:  "dvir-taubenfeld-2",
		Title: "Dvir & Taubenfeld algorithm 2 (queue lock with wait-free exit and node recycling)",
		Refs: []Ref{{Seed: "000_175dd44c210ae396.txt", Where: "section 4, Algorithm 2 (lines 1–15); identity and pitfalls in section 4.3",
			Cite: "R. Dvir, G. Taubenfeld, Mutual exclusion algorithms with constant RMR complexity and wait-free exit code, OPODIS 2017"}},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "strong FIFO", Exit: "wait-free",
			RMRCC: "O(1)", RMRDSM: "O(1)",
			Space:        "per lock: n LocalNodes, n+1 QNodes in use (+ n-1 unused spares); the paper's O(L+n) across L locks needs one q_p shared by all locks",
			Instructions: []string{"read", "write", "swap (FAS)", "CAS"},
			Identity:     "ids (lines 2, 11, 13; section 4.3 allows the q_p pointer instead)",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		Nodes: map[nodes.Policy]string{
			nodes.Array:  "",
			nodes.Handle: "this definition uses process ids at lines 2, 11 and 13 (the paper's presentation, kept so that section 4.3's UNLOCKED mistake is a one-line change), so it needs Lock(id) and per-id records",
			nodes.Pool:   "this definition uses process ids at lines 2, 11 and 13, so it needs Lock(id) and per-id records",
			nodes.Heap:   "this definition uses process ids at lines 2, 11 and 13, so it needs Lock(id) and per-id records",
			nodes.Caller: "this definition uses process ids at lines 2, 11 and 13, so it needs Lock(id) and per-id records",
		},
		DefaultNodes: nodes.Array,
		TryLock:      "a try-acquire would CAS T from a node whose status equals its pid (released) to its own; but QNodes are recycled (line 15), so T can hold the same node again, reinitialised by a new holder, when the CAS runs (ABA), and once in the queue a process cannot leave without waiting",
		NoAbort:      "a waiter cannot leave: its predecessor hands the lock to its node (lines 13–14) and its successor links behind it (line 7); Dvir & Taubenfeld name abortable variants as future work (section 6), and the paper gives no abort",
		Deviations: []string{
			"Process ids are 0..n-1 and the id written and compared at lines 2, 11 and 13 is id+1, so that it is never ZERO (the paper assumes ids different from 0).",
			"T starts at ⊥ instead of &node_0: the IR has no records owned by the lock. The first process to swap finds ⊥ and uses its own spare record node0_p, in node_0's initial state {⊥, ⊥, 0, 0}, as node_0 (the unlabelled test after line 6); T never returns to ⊥, so this happens once per lock, and each process carries one spare that only the first one uses.",
			"q_p.qnode, which only p reads and writes, is the process-local variable qnode (initially ⊥; line 0, ours, points it at node_p before the first passage) instead of a field of q_p; the LocalNode q_p keeps locked, the only field other processes touch.",
			"Multi-reference statements are split into single accesses, as section 4.2 prescribes: line 7 writes pred.next, and line 14 reads q_p.qnode.next, then its local, then writes locked, each a separate step labelled 14.",
			"Lines 2–5 read the field first and write only if it differs. Nobody else can write those fields between the read and the write: pid and local are written only by the node's holder (lines 2, 3); status is ZERO already when the node is taken over at line 15 (whichever of the two CASes on it succeeded, this process's at line 9 or the predecessor's at line 13, wrote ZERO, and the other then fails), so line 4 never writes; q_p.locked is cleared by a predecessor (line 14) only before this process's await of the passage in which it was the successor ends. In an uncontended passage the node is one of the process's own two, so all four already hold their values: four of the passage's seven atomic stores are saved.",
			"Each lock has its own per-process records, so the recycling across L locks that gives the paper's O(L+n) space does not happen: space is O(n) per lock.",
		},
		Notes: []string{
			"Section 4.3, item 3: with UNLOCKED in place of the process id at lines 2, 11 and 13 the algorithm breaks (p, still in its exit after line 12, and its successor q, back in its next passage, share p's old QNode; p's CAS at line 13 then succeeds on the status q wrote at line 11). In this definition that mistake is one line: the identity expression (Self+1) replaced by the constant UNLOCKED, which changes the writes at lines 2 and 11 and the CAS at line 13.",
			"How that mistake shows here: line 14 re-reads q_p.qnode.next (section 4.2 expands multi-reference statements into single accesses), and q has reset it to ⊥ at line 1 of its second passage, so p dereferences ⊥ and panics in its exit code; the paper's deadlock (the dummy left with status ZERO, the next process spinning at line 10 forever) is what follows when that write is skipped. Two processes with two passages each reach it: verify.Explore finds it with DFS at 3 preemptions (2×2) or PCT at depth 4, not with its defaults.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "dvir-taubenfeld-2",
				Records: []ir.Record{
					{Name: "QNode", Fields: []ir.Field{
						{Name: "next", Type: ir.TRef("QNode"), Doc: "the successor's QNode, once it has linked itself (line 7)"},
						{Name: "local", Type: ir.TRef("LocalNode"), Doc: "the owner's q_p, through which the predecessor signals it (line 14)"},
						{Name: "status", Type: ir.TInt, Doc: "ZERO, or the owner's id once it has released (line 11)"},
						{Name: "pid", Type: ir.TInt, Doc: "the owner's id (line 2)"},
					}},
					{Name: "LocalNode", Fields: []ir.Field{
						{Name: "locked", Type: ir.TBool, Doc: "the owner spins on it (line 10); the predecessor clears it (line 14)"},
					}},
				},
				Shared: []ir.Shared{{Name: "T", Type: ir.TRef("QNode"), Doc: "the tail of the queue (⊥ stands for &node_0 until the first swap)"}},
				Procs: []ir.ProcRecords{
					{Name: "node", Rec: "QNode", Count: 1, Doc: "node_p, the QNode p starts with"},
					{Name: "node0", Rec: "QNode", Count: 1, Doc: "a spare in node_0's initial state, used as node_0 if p is the first to swap"},
					{Name: "q", Rec: "LocalNode", Count: 1, Doc: "q_p, local to p"},
				},
				Locals: []ir.Local{
					{Name: "qnode", Type: ir.TRef("QNode"), Scope: ir.Process, Doc: "q_p.qnode: node_p at first, then the predecessor's QNode of the last passage"},
					{Name: "pred", Type: ir.TRef("QNode"), Scope: ir.Passage, Doc: "the predecessor's QNode, taken over at line 15"},
					{Name: "myq", Type: ir.TRef("LocalNode"), Doc: "q_p (a reference to the process's own LocalNode)"},
					{Name: "predPid", Type: ir.TInt, Doc: "the predecessor's id (line 8)"},
					{Name: "succ", Type: ir.TRef("QNode")},
					{Name: "succLocal", Type: ir.TRef("LocalNode")},
					{Name: "ok", Type: ir.TBool},
				},
				Acquire: Code(
					Set("", "myq", Own("q", Lit(0))),
					If("0", Eq(qn, Null), Set("0", "qnode", Own("node", Lit(0)))),
					Write("1", Field(qn, "next"), Null),
					WriteIfChanged("2", Field(qn, "pid"), identity),
					WriteIfChanged("3", Field(qn, "local"), q),
					WriteIfChanged("4", Field(qn, "status"), zero),
					WriteIfChanged("5", Field(q, "locked"), True),
					Swap("6", "pred", Reg("T"), qn),
					If("", Eq(pred, Null), Set("", "pred", Own("node0", Lit(0)))), // ⊥ stands for &node_0
					Write("7", Field(pred, "next"), qn),
					Set("8", "predPid", Read(Field(pred, "pid"))),
					CAS("9", "ok", Field(pred, "status"), Var("predPid"), zero),
					If("9", Not(Var("ok")),
						Await("10", Ne(Read(Field(q, "locked")), True)),
					),
				),
				Release: Code(
					Write("11", Field(qn, "status"), identity),
					If("12", Ne(Read(Field(qn, "next")), Null),
						CAS("13", "ok", Field(qn, "status"), identity, zero),
						If("13", Var("ok"),
							Set("14", "succ", Read(Field(qn, "next"))),
							Set("14", "succLocal", Read(Field(Var("succ"), "local"))),
							Write("14", Field(Var("succLocal"), "locked"), False),
						),
					),
					Set("15", "qnode", pred),
				),
				DoorwayEnd: "6",
			}
		},
	})
}
