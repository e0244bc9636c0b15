package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// Dvir & Taubenfeld's algorithm 1 (seed 000, section 3.2, lines 1–16): an
// MCS-like queue lock whose exit is wait-free. The exiting process leaves
// UNLOCKED in its own node's status (line 10) for a successor it may not
// know yet; whichever of the two CASes on that status (line 8 by the
// successor, line 13 by the predecessor) succeeds decides who lets the
// successor in. Each process alternates between two nodes (line 1, 16).
func init() {
	// LOCKED is the zero value, so fresh nodes start as the paper's
	// {NIL, false, LOCKED}.
	locked, unlocked := Named("LOCKED", 0), Named("UNLOCKED", 1)
	register(&Entry{
		Name:  "dvir-taubenfeld-1",
		Title: "Dvir & Taubenfeld algorithm 1 (MCS-like queue lock with wait-free exit, two nodes per process)",
		Refs: []Ref{{Seed: "000_175dd44c210ae396.txt", Where: "section 3, Algorithm 1 (lines 1–16); pitfalls in section 3.3",
			Cite: "R. Dvir, G. Taubenfeld, Mutual exclusion algorithms with constant RMR complexity and wait-free exit code, OPODIS 2017"}},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "strong FIFO", Exit: "wait-free",
			RMRCC: "O(1)", RMRDSM: "O(1)", Space: "two nodes per process + T",
			Instructions: []string{"read", "write", "swap (FAS)", "CAS"},
			Identity:     "anonymous (two nodes per process)",
		},
		Modes: []mode.Mode{mode.Mutex},
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "", nodes.Array: "", nodes.Heap: "", nodes.Caller: "",
			nodes.Pool: "no process learns when one of its nodes is free again: after a release the successor may still link itself and CAS the node's status (lines 7–8), and after the successor has entered, the predecessor may still CAS it (line 13); a pool could only take nodes back at a wrong time (section 3.3 of Dvir & Taubenfeld 2017 shows the deadlock that node reuse causes). Use handles or caller nodes, which keep the paper's two nodes per process, or heap.",
		},
		DefaultNodes: nodes.Handle,
		NoAbort:      "a waiter cannot leave: its predecessor hands the lock to its node (lines 13–15) and its successor links behind it (line 7); Dvir & Taubenfeld name abortable variants as future work (section 6), and the paper gives no abort",
		Deviations: []string{
			"A caller node holds the paper's q_p[0,1] and current, so reusing one node for successive passages alternates its two records exactly as a process does; a node must serve one passage at a time.",
			"status is an integer register with LOCKED = 0 and UNLOCKED = 1, so a fresh node is the paper's {NIL, false, LOCKED}.",
			"With nodes = \"heap\" every passage takes a fresh node (line 1) that is never reused, so the two-node alternation (lines 1, 16) is unnecessary; the garbage collector frees a node once no successor references it.",
			"Line 2 reads mynode.next and writes NIL only if it is not NIL already. The node was last used two passages earlier; the successor that linked itself behind it then (line 7, the only write of next by another process) did so before entering its critical section, so before this process's previous passage entered its own. So the read sees the value the write would overwrite, and an atomic pointer store is saved whenever that passage had no successor.",
			"TryLock is not in the paper: it prepares the current node (lines 1–3) and enters only if a CAS of T from NIL to the node succeeds (an empty queue), then exits as usual.",
		},
		Def: func(Options) *ir.Algorithm {
			me := Var("mynode")
			return &ir.Algorithm{
				Name: "dvir-taubenfeld-1",
				Records: []ir.Record{{Name: "QNode", Fields: []ir.Field{
					{Name: "next", Type: ir.TRef("QNode"), Doc: "the successor, once it has linked itself (line 7)"},
					{Name: "locked", Type: ir.TBool, Doc: "the successor spins on its own locked (line 9)"},
					{Name: "status", Type: ir.TInt, Init: 0, Doc: "LOCKED (0) or UNLOCKED (1): the exit's signal to a successor it may not know yet"},
				}}},
				Shared: []ir.Shared{{Name: "T", Type: ir.TRef("QNode"), Doc: "the tail of the queue"}},
				Procs:  []ir.ProcRecords{{Name: "q", Rec: "QNode", Count: 2, Doc: "q_p[0,1], used alternately"}},
				Locals: []ir.Local{
					{Name: "mynode", Type: ir.TRef("QNode"), Scope: ir.Passage},
					{Name: "current", Type: ir.TInt, Scope: ir.Process, Doc: "which of the two nodes this passage uses"},
					{Name: "pred", Type: ir.TRef("QNode")},
					{Name: "succ", Type: ir.TRef("QNode")},
					{Name: "ok", Type: ir.TBool},
				},
				Acquire: Code(
					Set("1", "mynode", Own("q", Var("current"))),
					WriteIfChanged("2", Field(me, "next"), Null),
					Write("3", Field(me, "status"), locked),
					Swap("4", "pred", Reg("T"), me),
					If("5", Ne(Var("pred"), Null),
						Write("6", Field(me, "locked"), True),
						Write("7", Field(Var("pred"), "next"), me),
						CAS("8", "ok", Field(Var("pred"), "status"), unlocked, locked),
						If("8", Not(Var("ok")),
							Await("9", Ne(Read(Field(me, "locked")), True)),
						),
					),
				),
				Release: Code(
					Write("10", Field(me, "status"), unlocked),
					IfElse("11", Eq(Read(Field(me, "next")), Null),
						Code(CAS("12", "", Reg("T"), me, Null)),
						Code(
							CAS("13", "ok", Field(me, "status"), unlocked, locked),
							If("13", Var("ok"),
								Set("14", "succ", Read(Field(me, "next"))),
								Write("15", Field(Var("succ"), "locked"), False),
							),
						)),
					Set("16", "current", Minus(Lit(1), Var("current"))),
				),
				TryAcquire: Code(
					Set("1", "mynode", Own("q", Var("current"))),
					WriteIfChanged("2", Field(me, "next"), Null),
					Write("3", Field(me, "status"), locked),
					CAS("4", "ok", Reg("T"), Null, me),
					If("", Not(Var("ok")), Fail("")),
				),
				DoorwayEnd: "4",
			}
		},
	})
}
