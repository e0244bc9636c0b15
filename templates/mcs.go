package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// MCS: Mellor-Crummey & Scott's queue lock, as in seed 003, fig. 11 (lines
// 1–16). The exit waits (line 14) for a successor that has swapped itself
// onto TAIL but not yet linked itself behind us.
func init() {
	register(&Entry{
		Name:  "mcs",
		Title: "Mellor-Crummey & Scott queue lock",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 8.2, fig. 11",
				Cite: "J. M. Mellor-Crummey, M. L. Scott, Algorithms for scalable synchronization on shared-memory multiprocessors, ACM TOCS 9(1), 1991"},
			{Seed: "000_175dd44c210ae396.txt", Where: "section 1 (the baseline of Dvir–Taubenfeld)"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "waits (line 14: for the successor to link itself)",
			RMRCC: "O(1)", RMRDSM: "O(1)", Space: "one node per process + TAIL",
			Instructions: []string{"read", "write", "swap", "CAS"},
			Identity:     "anonymous (a node per process)",
		},
		Modes: []mode.Mode{mode.Mutex},
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "", nodes.Pool: "", nodes.Heap: "", nodes.Caller: "", nodes.Array: "",
		},
		DefaultNodes: nodes.Handle,
		NoAbort:      "a waiter cannot leave: its predecessor links to its node (line 6) and hands the lock to it (line 12 or 16), and its successor links behind it; a leaver would receive the lock with nobody to pass it on. Scott & Scherer's MCS-try (mcs-try) is the paper's abortable variant, a doubly linked queue a leaver unlinks itself from, but SPIN finds a race in its timeout code at n = 3",
		Deviations: []string{
			"The paper's value bit is the boolean field value (1 = true = go).",
			"Lines 10–16 read (↓mynode).next once per test, as the paper's two-line form implies.",
			"Line 1 reads mynode.next and writes ⊥ only if it is not ⊥ already: no other process writes the node's next until line 3 puts the node on TAIL (its last writer, the successor of its previous passage, linked itself before that passage's release returned), so the read sees the value the write would overwrite. It saves the passage's only atomic pointer store when the previous passage had no successor, as every uncontended one has.",
			"With nodes = \"pool\" or \"heap\" the node is taken at the start of acquire instead of being NODE[i]; it is free again once release returns (a successor has linked itself and been signalled, or TAIL was reset).",
		},
		Def: func(Options) *ir.Algorithm {
			me := Var("mynode")
			return &ir.Algorithm{
				Name: "mcs",
				Records: []ir.Record{{Name: "QNode", Fields: []ir.Field{
					{Name: "next", Type: ir.TRef("QNode"), Doc: "the successor, once it has linked itself"},
					{Name: "value", Type: ir.TBool, Doc: "set by the predecessor: enter"},
				}}},
				Shared: []ir.Shared{{Name: "TAIL", Type: ir.TRef("QNode"), Doc: "the last node of the queue"}},
				Procs:  []ir.ProcRecords{{Name: "NODE", Rec: "QNode", Count: 1, Doc: "NODE[i], this process's node"}},
				Locals: []ir.Local{
					{Name: "mynode", Type: ir.TRef("QNode"), Scope: ir.Passage},
					{Name: "previous", Type: ir.TRef("QNode")},
					{Name: "successor", Type: ir.TRef("QNode")},
					{Name: "ok", Type: ir.TBool},
				},
				Acquire: Code(
					Set("", "mynode", Own("NODE", Lit(0))),
					WriteIfChanged("1", Field(me, "next"), Null),
					Set("2", "previous", me),
					Swap("3", "previous", Reg("TAIL"), Var("previous")),
					If("4", Ne(Var("previous"), Null),
						Write("5", Field(me, "value"), False),
						Write("6", Field(Var("previous"), "next"), me),
						Await("7", Eq(Read(Field(me, "value")), True)),
					),
				),
				Release: Code(
					IfElse("10", Ne(Read(Field(me, "next")), Null),
						Code(
							Set("11", "successor", Read(Field(me, "next"))),
							Write("12", Field(Var("successor"), "value"), True),
						),
						Code(
							CAS("13", "ok", Reg("TAIL"), me, Null),
							If("13", Not(Var("ok")),
								Await("14", Ne(Read(Field(me, "next")), Null)),
								Set("15", "successor", Read(Field(me, "next"))),
								Write("16", Field(Var("successor"), "value"), True),
							),
						)),
					Free("", me),
				),
				TryAcquire: Code(
					Set("", "mynode", Own("NODE", Lit(0))),
					WriteIfChanged("1", Field(me, "next"), Null),
					CAS("3", "ok", Reg("TAIL"), Null, me),
					If("", Not(Var("ok")), Free("", me), Fail("")),
				),
				DoorwayEnd: "3",
			}
		},
	})
}
