package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Suzuki & Kasami 1985: one token, asked for by broadcast. Each process
// counts the requests it has heard of from each other (RN); the token
// carries, for each process, the number of its last request served (LN)
// and a queue of processes waiting. The holder re-enters with no message;
// anyone else broadcasts a numbered REQUEST and waits for the token, which
// a leaving holder passes to the head of its queue after queueing every
// process with a request outstanding.
func init() {
	register(&Entry{
		Name:  "suzuki-kasami",
		Title: "Suzuki–Kasami broadcast token (0 or n messages per entry)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5.6, named in the contents (Further optimization)"},
			{Where: "the algorithm: RN, the token's LN and queue Q, the request, the release and the two message handlers",
				Cite: "I. Suzuki, T. Kasami, A distributed mutual exclusion algorithm, ACM Transactions on Computer Systems 3(4), 1985"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion (one token)",
			Liveness: "starvation-free",
			Fairness: "none claimed: a leaving holder queues the waiting processes in the order of their ids, not of their requests",
			Messages: "0 when the holder enters again, otherwise n − 1 REQUESTs and one TOKEN: n per entry under contention, n − 1 on average at light load with requesters drawn uniformly",
			Delay:    "one message: the token, sent straight to the head of its queue",
			Space:    "n request counts per process; the token carries n counts and a queue of up to n ids",
			Channels: "reliable; order is not needed (requests are numbered): SPIN passes it with channels that reorder messages",
			Steps:    "a handler runs to completion",
		},
		Routines: map[string]string{"Acquire": "the request (a REQUEST to all unless the process holds the token)", "Release": "the release (queue the outstanding requests, pass the token to the first)"},
		Restart:  "the token starts again at the member with the lowest id, every request number at 0",
		Deviations: []string{
			"The paper is not in our sources; the code follows its published statement (RN, the token's LN and Q), and the labels R, X, Q, T with their numbers are ours.",
			"The token's queue is an array of n ids with a length (Q, QLen); the token is a message whose parameters are the queue, its length and LN, copied into the receiver's state (T1–T5) and cleared from the sender's when it leaves (X14–X17, Q6–Q9): a process holds the token's data only while it holds the token, as in the paper (and its model checker sees no stale copies).",
			"The release scans the processes in id order (X2), as the paper does, appending each with RN[j] = LN[j] + 1 that the queue does not hold yet.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock and starvation freedom hold at n = 2 (three passages) and n = 3 (two passages), also with either resumption order, and with reordering channels at n = 2; at n = 3 with reordering channels make test checks exclusion (1.1 million states) and LOCKGEN_SPIN_LONG=1 starvation freedom too.",
			"Messages per entry: n under contention and n − 1 at light load in the simulator (netsim TestSuzukiKasamiMessages, docs/distributed.md).",
		},
		Def: suzukiKasami,
	})
}

func suzukiKasami() *ir.Algorithm {
	last := Minus(N, Lit(1))
	// Is j queued in this process's copy of the token's queue?
	queued := func(j ir.Expr) ir.Expr {
		return Exists("m", Lit(0), last, And(Lt(Var("m"), Var("QLen")), Eq(VarAt("Q", Var("m")), j)))
	}
	// The token's copy is cleared when the token leaves: what a process
	// holds without the token is nothing, as in the paper.
	forgetAt := func(l1, l2 string, j ir.Expr) []ir.Stmt {
		return []ir.Stmt{SetAt(l1, "LN", j, Lit(0)), SetAt(l2, "Q", j, Lit(0))}
	}
	forget := forgetAt("X15", "X16", Var("j"))
	outstanding := func(j ir.Expr) ir.Expr { return Eq(VarAt("RN", j), Plus(VarAt("LN", j), Lit(1))) }
	return &ir.Algorithm{
		Name: "suzuki-kasami",
		Locals: []ir.Local{
			State("Havetoken", ir.TBool, "the process holds the token", Eq(Self, Lit(0))),
			State("Requesting", ir.TBool, "the process requests the critical section or is in it", nil),
			perProcess(State("RN", ir.TInt, "RN[j]: the highest request number heard from j", nil)),
			perProcess(State("LN", ir.TInt, "LN[j]: the number of j's last request served (the token's, valid while Havetoken)", nil)),
			perProcess(State("Q", ir.TInt, "the token's queue of waiting processes, Q[0] first (valid while Havetoken)", nil)),
			State("QLen", ir.TInt, "how many processes the token's queue holds", nil),
			State("Next", ir.TInt, "the process the token goes to", nil),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "process j's request number k",
				Params: []ir.Local{{Name: "j", Type: ir.TInt}, {Name: "k", Type: ir.TInt}}},
			{Name: "TOKEN", Doc: "the token: its queue, the queue's length and LN",
				Params: []ir.Local{
					perProcess(ir.Local{Name: "TQ", Type: ir.TInt}),
					{Name: "TQLen", Type: ir.TInt},
					perProcess(ir.Local{Name: "TLN", Type: ir.TInt}),
				}},
		},
		Acquire: Code(
			Set("R1", "Requesting", True),
			If("R2", Not(Var("Havetoken")),
				SetAt("R3", "RN", Self, Plus(VarAt("RN", Self), Lit(1))),
				ForOthers("R4", "j", Lit(0), last,
					Send("R5", Var("j"), "REQUEST", Self, VarAt("RN", Self)),
				),
			),
			Await("R6", Var("Havetoken")),
		),
		Release: Code(
			SetAt("X1", "LN", Self, VarAt("RN", Self)),
			For("X2", "j", Lit(0), last,
				If("X3", And(outstanding(Var("j")), Not(queued(Var("j")))),
					SetAt("X4", "Q", Var("QLen"), Var("j")),
					Set("X5", "QLen", Plus(Var("QLen"), Lit(1))),
				),
			),
			If("X6", Gt(Var("QLen"), Lit(0)),
				Set("X7", "Havetoken", False),
				Set("X8", "Next", VarAt("Q", Lit(0))),
				For("X9", "j", Lit(0), Minus(N, Lit(2)),
					SetAt("X10", "Q", Var("j"), VarAt("Q", Plus(Var("j"), Lit(1)))),
				),
				SetAt("X11", "Q", last, Lit(0)),
				Set("X12", "QLen", Minus(Var("QLen"), Lit(1))),
				Send("X13", Var("Next"), "TOKEN", Var("Q"), Var("QLen"), Var("LN")),
				For("X14", "j", Lit(0), last, forget...),
				Set("X17", "QLen", Lit(0)),
			),
			Set("X18", "Requesting", False),
		),
		Handlers: []ir.Handler{
			On("REQUEST",
				If("Q1", Gt(Var("k"), VarAt("RN", Var("j"))),
					SetAt("Q2", "RN", Var("j"), Var("k")),
				),
				// An idle holder passes the token to a new request at once.
				If("Q3", And(Var("Havetoken"), Not(Var("Requesting")), outstanding(Var("j"))),
					Set("Q4", "Havetoken", False),
					Send("Q5", Var("j"), "TOKEN", Var("Q"), Var("QLen"), Var("LN")),
					For("Q6", "m", Lit(0), last, forgetAt("Q7", "Q8", Var("m"))...),
					Set("Q9", "QLen", Lit(0)),
				),
			),
			On("TOKEN",
				For("T1", "j", Lit(0), last,
					SetAt("T2", "Q", Var("j"), VarAt("TQ", Var("j"))),
					SetAt("T3", "LN", Var("j"), VarAt("TLN", Var("j"))),
				),
				Set("T4", "QLen", Var("TQLen")),
				Set("T5", "Havetoken", True),
			),
		},
	}
}
