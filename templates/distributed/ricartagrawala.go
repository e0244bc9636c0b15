package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Ricart & Agrawala 1981: a process asks every other for permission
// (REQUEST with a sequence number) and enters with all n − 1 REPLYs; a
// process defers its reply while it requests with priority (a smaller
// sequence number, ties to the smaller id) and sends the deferred replies
// when it leaves. 2(n − 1) messages per entry, at any load.
func init() {
	register(&Entry{
		Name:  "ricart-agrawala",
		Title: "Ricart–Agrawala permission-based mutex (timestamps, 2(n − 1) messages per entry)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5 (message passing), named in the contents"},
			{Where: "the algorithm (variables Our_Sequence_Number, Highest_Sequence_Number, Outstanding_Reply_Count, Requesting_Critical_Section, Reply_Deferred)",
				Cite: "G. Ricart, A. K. Agrawala, An optimal algorithm for mutual exclusion in computer networks, Communications of the ACM 24(1), 1981 (reference [18] of Johnson & Yoon)"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion",
			Liveness: "starvation-free",
			Fairness: "FCFS by sequence number (ties to the smaller id)",
			Messages: "2(n − 1) per entry at any load: n − 1 REQUESTs and n − 1 REPLYs",
			Delay:    "one message: the deferred REPLY",
			Space:    "n bits of deferred replies and unbounded sequence numbers per process",
			Channels: "reliable; order is not needed: SPIN passes it with channels that reorder messages",
			Steps:    "a handler runs to completion; the paper's shared-variable semaphore makes each routine step atomic, as netrt does",
		},
		Routines:  map[string]string{"Acquire": "the invoking process's request", "Release": "its release"},
		NoTryLock: "every entry needs the n − 1 other processes' permission, so an acquire never completes without waiting",
		Restart:   "every sequence number starts again at 0, no reply deferred",
		Deviations: []string{
			"The paper is not in our sources; the code follows its published statement (its variable names, a process's request and release, and the treatment of REQUEST and REPLY messages), and the labels A, L, Q, P with their numbers are ours.",
			"Process ids are 0..n−1; the tie-break compares ids, as the paper does with its node numbers.",
			"Highest_Sequence_Number := max(Highest_Sequence_Number, k) is written as a conditional assignment (Q1), and the request's loop over the other processes as a for loop (A4), whose sends are one step.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock, starvation freedom and FCFS by (sequence number, id) hold at n = 2 (three passages) and n = 3 (two passages); exclusion and starvation freedom also with reordering channels and either resumption order. The control that breaks ties the other way keeps exclusion and fails FCFS (TestNetworkControls).",
			"Messages per entry: exactly 2(n − 1) in the simulator at every size and load it was run at (netsim TestRicartAgrawalaMessages: n = 2, 5, 20; docs/distributed.md: n = 10 to 160; loads 50% and 200%).",
		},
		Def: ricartAgrawala,
	})
}

func ricartAgrawala() *ir.Algorithm {
	deferred := perProcess(State("Reply_Deferred", ir.TBool, "Reply_Deferred[j]: the reply to j's request waits for this process's release", nil))
	return &ir.Algorithm{
		Name: "ricart-agrawala",
		Locals: []ir.Local{
			State("Our_Sequence_Number", ir.TInt, "the sequence number of this process's request", nil),
			State("Highest_Sequence_Number", ir.TInt, "the highest sequence number seen in a REQUEST", nil),
			State("Outstanding_Reply_Count", ir.TInt, "REPLYs still awaited", nil),
			State("Requesting_Critical_Section", ir.TBool, "the process requests the critical section or is in it", nil),
			deferred,
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "a request for permission, with its sequence number and the requester",
				Params: []ir.Local{{Name: "k", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
			{Name: "REPLY", Doc: "a permission"},
		},
		Acquire: Code(
			Set("A1", "Requesting_Critical_Section", True),
			Set("A2", "Our_Sequence_Number", Plus(Var("Highest_Sequence_Number"), Lit(1))),
			Set("A3", "Outstanding_Reply_Count", Minus(N, Lit(1))),
			ForOthers("A4", "j", Lit(0), Minus(N, Lit(1)),
				Send("A5", Var("j"), "REQUEST", Var("Our_Sequence_Number"), Self),
			),
			Await("A6", Eq(Var("Outstanding_Reply_Count"), Lit(0))),
		),
		Release: Code(
			Set("L1", "Requesting_Critical_Section", False),
			ForOthers("L2", "j", Lit(0), Minus(N, Lit(1)),
				If("L3", VarAt("Reply_Deferred", Var("j")),
					SetAt("L4", "Reply_Deferred", Var("j"), False),
					Send("L5", Var("j"), "REPLY"),
				),
			),
		),
		// The order is by sequence number, ties to the smaller id: a
		// request takes its place when it draws its number (A2).
		Joins: []ir.Join{{Label: "A2", Who: Self, Key: Plus(Times(Var("Our_Sequence_Number"), N), Self)}},
		Handlers: []ir.Handler{
			On("REQUEST",
				If("Q1", Gt(Var("k"), Var("Highest_Sequence_Number")),
					Set("Q2", "Highest_Sequence_Number", Var("k")),
				),
				IfElse("Q3", And(Var("Requesting_Critical_Section"),
					Or(Gt(Var("k"), Var("Our_Sequence_Number")),
						And(Eq(Var("k"), Var("Our_Sequence_Number")), Gt(Var("j"), Self)))),
					Code(SetAt("Q4", "Reply_Deferred", Var("j"), True)),
					Code(Send("Q5", Var("j"), "REPLY")),
				),
			),
			On("REPLY",
				Set("P1", "Outstanding_Reply_Count", Minus(Var("Outstanding_Reply_Count"), Lit(1))),
			),
		},
	}
}
