package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Carvalho & Roucairol 1983: Ricart–Agrawala where a permission, once
// received, stays with its receiver until the other process asks for it
// back. A process asks only the processes whose permission it does not
// hold, so one that requests again before anybody else enters with no
// message at all; at heavy load it costs Ricart–Agrawala's 2(n − 1).
func init() {
	register(&Entry{
		Name:  "carvalho-roucairol",
		Title: "Carvalho–Roucairol mutex (Ricart–Agrawala keeping the permissions it received: 0 to 2(n − 1) messages per entry)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5.5, named in the contents (Minimizing the number of messages)"},
			{Where: "the algorithm: Ricart–Agrawala's variables plus one permission bit per other process",
				Cite: "O. S. F. Carvalho, G. Roucairol, On mutual exclusion in computer networks, Communications of the ACM 26(2), 1983 (technical correspondence on Ricart & Agrawala 1981)"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion",
			Liveness: "starvation-free",
			Fairness: "none claimed: a process that holds every permission enters again without telling a process whose request is still on its way",
			Messages: "0 to 2(n − 1) per entry: none when the requester holds every permission, 2(n − 1) when every other process asked for its own back",
			Delay:    "one message (the deferred REPLY), or a REQUEST and its REPLY where the next process gave a permission away since it asked",
			Space:    "2n bits (deferred replies, permissions held) and unbounded sequence numbers per process",
			Channels: "reliable; order is not needed: SPIN passes it with channels that reorder messages",
			Steps:    "a handler runs to completion, as in Ricart–Agrawala",
		},
		Routines:  map[string]string{"Acquire": "the invoking process's request", "Release": "its release"},
		NoTryLock: "a request may need other processes' permissions, so an acquire cannot promise to complete without waiting",
		Restart:   "no member holds another's permission again: each pair's first exchange is Ricart–Agrawala's",
		Deviations: []string{
			"The paper is not in our sources; the code follows its published statement as a change to Ricart–Agrawala's (whose variable names it keeps, plus Authorized[j]: this process holds j's permission), and the labels A, L, Q, P with their numbers are ours.",
			"Initially no process holds another's permission, so each pair's first exchange is Ricart–Agrawala's; a permission then stays with whoever received it last.",
			"Using (in the critical section) is kept apart from Requesting_Critical_Section: a process that re-enters on the permissions it holds may meet a request with a smaller sequence number while inside, and must defer it all the same.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock and starvation freedom hold at n = 2 (three passages) and n = 3 (two passages), also with reordering channels and either resumption order.",
			"Messages per entry: between 0 and 2(n − 1); in the simulator about n − 1 at light load, rising toward 2(n − 1) under contention and never above it (netsim TestCarvalhoRoucairolMessages; docs/distributed.md).",
		},
		Def: carvalhoRoucairol,
	})
}

func carvalhoRoucairol() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "carvalho-roucairol",
		Locals: []ir.Local{
			State("Our_Sequence_Number", ir.TInt, "the sequence number of this process's request", nil),
			State("Highest_Sequence_Number", ir.TInt, "the highest sequence number seen in a REQUEST", nil),
			State("Requesting_Critical_Section", ir.TBool, "the process requests the critical section or is in it", nil),
			State("Using", ir.TBool, "the process is in the critical section", nil),
			perProcess(State("Reply_Deferred", ir.TBool, "Reply_Deferred[j]: the reply to j's request waits for this process's release", nil)),
			perProcess(State("Authorized", ir.TBool, "Authorized[j]: this process holds j's permission (until j asks for it back)", nil)),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "a request for a permission, with its sequence number and the requester",
				Params: []ir.Local{{Name: "k", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
			{Name: "REPLY", Doc: "a permission, with its sender",
				Params: []ir.Local{{Name: "j", Type: ir.TInt}}},
		},
		Acquire: Code(
			Set("A1", "Requesting_Critical_Section", True),
			Set("A2", "Our_Sequence_Number", Plus(Var("Highest_Sequence_Number"), Lit(1))),
			ForOthers("A3", "j", Lit(0), Minus(N, Lit(1)),
				If("A4", Not(VarAt("Authorized", Var("j"))),
					Send("A5", Var("j"), "REQUEST", Var("Our_Sequence_Number"), Self),
				),
			),
			Await("A6", ForAllOthers("j", Lit(0), Minus(N, Lit(1)), VarAt("Authorized", Var("j")))),
			Set("A7", "Using", True),
		),
		Release: Code(
			Set("L1", "Using", False),
			Set("L2", "Requesting_Critical_Section", False),
			ForOthers("L3", "j", Lit(0), Minus(N, Lit(1)),
				If("L4", VarAt("Reply_Deferred", Var("j")),
					SetAt("L5", "Reply_Deferred", Var("j"), False),
					SetAt("L6", "Authorized", Var("j"), False),
					Send("L7", Var("j"), "REPLY", Self),
				),
			),
		),
		Handlers: []ir.Handler{
			On("REQUEST",
				If("Q1", Gt(Var("k"), Var("Highest_Sequence_Number")),
					Set("Q2", "Highest_Sequence_Number", Var("k")),
				),
				// Defer while inside, or while requesting with priority
				// (the smaller sequence number, ties to the smaller id).
				IfElse("Q3", Or(Var("Using"), And(Var("Requesting_Critical_Section"),
					Or(Gt(Var("k"), Var("Our_Sequence_Number")),
						And(Eq(Var("k"), Var("Our_Sequence_Number")), Gt(Var("j"), Self))))),
					Code(SetAt("Q4", "Reply_Deferred", Var("j"), True)),
					Code(
						// Giving back a permission this process's own
						// request relied on: ask for it again.
						If("Q5", And(Var("Requesting_Critical_Section"), VarAt("Authorized", Var("j"))),
							Send("Q6", Var("j"), "REQUEST", Var("Our_Sequence_Number"), Self),
						),
						SetAt("Q7", "Authorized", Var("j"), False),
						Send("Q8", Var("j"), "REPLY", Self),
					),
				),
			),
			On("REPLY",
				SetAt("P1", "Authorized", Var("j"), True),
			),
		},
	}
}
