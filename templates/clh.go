package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// The CLH queue lock (Craig; Magnusson, Landin & Hagersten; references [2],
// [11], [12] of seed 000): a process marks its node locked, swaps it into
// the tail, and spins on its predecessor's node until the predecessor
// unlocks it. On release it unlocks its own node, which its successor
// watches, and takes over the predecessor's node for its next passage:
// nobody looks at that node any more.
//
// The papers start the tail at a dummy node in the unlocked state. The IR
// cannot give the lock a record of its own, so TAIL starts at ⊥ and the
// first process to swap finds ⊥ and uses its spare record, which is in the
// dummy's initial state, as the dummy (line 3): from then on the code runs
// as in the papers. The seeds have no code for CLH; the labels 0–6 are ours.
func init() {
	me, pred := Var("mynode"), Var("pred")
	register(&Entry{
		Name:  "clh",
		Title: "CLH queue lock (Craig; Magnusson, Landin & Hagersten)",
		Refs: []Ref{
			{Seed: "000_175dd44c210ae396.txt", Where: "section 5 (related work), references [2], [11], [12]",
				Cite: "T. S. Craig, Building FIFO and priority-queuing spin locks from atomic swap, TR 93-02-02, University of Washington, 1993"},
			{Cite: "P. S. Magnusson, A. Landin, E. Hagersten, Queue locks on cache coherent multiprocessors, 8th International Parallel Processing Symposium, 1994 (and SICS TR T94:07)"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "wait-free (one write)",
			RMRCC: "O(1)", RMRDSM: "unbounded",
			Space:        "n+1 nodes + TAIL (plus one unused spare per process here)",
			Instructions: []string{"read", "write", "swap"},
			Identity:     "anonymous (a node per process)",
		},
		Modes: []mode.Mode{mode.Mutex},
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "", nodes.Heap: "", nodes.Pool: "", nodes.Caller: "", nodes.Array: "",
		},
		DefaultNodes: nodes.Handle,
		TryLock:      "a try-acquire would CAS TAIL from a node it saw unlocked to its own; but nodes are recycled (line 6), so TAIL can hold the same node again, locked by a new holder, when the CAS runs (ABA), and the try-acquire would then have to wait behind it; only nodes = \"heap\" avoids the reuse, and TryLock support is not per node policy",
		NoAbort:      "a waiter cannot leave: its node is what its successor spins on, and only its release unlocks it (line 5); the successor would wait for ever. Scott & Scherer's CLH-try (clh-try) is the abortable variant: a leaver marks its node so that the successor skips it",
		Deviations: []string{
			"TAIL starts at ⊥ instead of at a dummy node in the unlocked state: the IR has no records owned by the lock. The first process to swap finds ⊥ and takes its spare record NODE[1], which is in the dummy's initial state (unlocked), as the dummy (line 3). TAIL never returns to ⊥, so this happens once per lock; with handles or ids every process carries one spare that only the first one uses.",
			"The papers give the lock in prose and figures our copies lack; the labels 0–6 are ours.",
			"locked is a boolean (Craig's PENDING = true, GRANTED = false).",
			"mynode starts at ⊥ and line 0 (ours) points it at the process's own NODE[0] on its first passage, instead of initialising it before the first passage.",
			"With nodes = \"caller\" the caller's node carries mynode and two records: its first passage enqueues the node's own NODE[0], later passages through the same node enqueue the record taken over at line 6 (which may sit in another caller's node). A node must not be copied or reset while the lock is in use, since its records may still be in the queue after Unlock returns.",
			"With nodes = \"heap\" or \"pool\" each passage takes a fresh node (line 1) and line 6's takeover ends with the passage: the predecessor's node is unreferenced once its successor has seen it unlocked, so the garbage collector reclaims it (heap) or release returns it to the pool (pool). The node a process leaves in the queue is freed by its successor in turn.",
		},
		Notes: []string{
			"RMR: in the CC model a process spins on its cached copy of its predecessor's node, written once; in the DSM model that node is the predecessor's (or whoever took it over), so the spinning is remote. Craig also gives a variant with O(1) RMR in the DSM model, which swaps a pointer and a bit packed into one word (Dvir & Taubenfeld 2017, section 5); it is not this entry.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "clh",
				Records: []ir.Record{{Name: "QNode", Fields: []ir.Field{
					{Name: "locked", Type: ir.TBool, Doc: "true while the node's owner holds or waits for the lock (Craig: PENDING)"},
				}}},
				Shared: []ir.Shared{{Name: "TAIL", Type: ir.TRef("QNode"), Doc: "the last node of the queue (⊥ until the first swap)"}},
				Procs: []ir.ProcRecords{{Name: "NODE", Rec: "QNode", Count: 2,
					Doc: "NODE[0], the node a process starts with; NODE[1], the spare that becomes the dummy if this process is the first to swap"}},
				Locals: []ir.Local{
					{Name: "mynode", Type: ir.TRef("QNode"), Scope: ir.Process,
						Doc: "the node this process enqueues: NODE[0] at first, then the predecessor's of the last passage"},
					{Name: "pred", Type: ir.TRef("QNode"), Scope: ir.Passage, Doc: "the predecessor's node"},
				},
				Acquire: Code(
					If("0", Eq(me, Null), Set("0", "mynode", Own("NODE", Lit(0)))),
					Write("1", Field(me, "locked"), True),
					Swap("2", "pred", Reg("TAIL"), me),
					If("3", Eq(pred, Null), Set("3", "pred", Own("NODE", Lit(1)))),
					Await("4", Eq(Read(Field(pred, "locked")), False)),
				),
				Release: Code(
					Write("5", Field(me, "locked"), False),
					Set("6", "mynode", pred),
					Free("6", pred),
				),
				DoorwayEnd: "2",
			}
		},
	})
}
