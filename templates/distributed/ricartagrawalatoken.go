package distributed

import (
	"strconv"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Ricart & Agrawala's token algorithm (1983): one token, asked for by
// broadcast, like Suzuki–Kasami's; the token carries, for each process,
// the request number it last served (token[j]), and a leaving holder
// looks for a process with a newer request in the ring order i + 1, ...,
// n − 1, 0, ..., i − 1, which is what makes the algorithm fair.
func init() {
	register(&Entry{
		Name:  "ricart-agrawala-token",
		Title: "Ricart–Agrawala token algorithm (broadcast requests, the token served in ring order; 0 or n messages per entry)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5.6, named in the contents (the token-based algorithms beside Suzuki–Kasami)"},
			{Where: "the algorithm: clock, request[j], the token's token[j], token_present and token_held; the request, the release's scan in ring order, and the receipt of a request and of the token",
				Cite: "G. Ricart, A. K. Agrawala, Authors' response to \"On mutual exclusion in computer networks\" by Carvalho and Roucairol, Communications of the ACM 26(2), 1983"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion (one token)",
			Liveness: "starvation-free",
			Fairness: "ring order, not FCFS: a leaving holder serves the first process after it (ids modulo n) whose request is newer than the token's record of it",
			Messages: "0 when the holder enters again, otherwise n − 1 REQUESTs and one TOKEN: n per entry under contention, n − 1 on average at light load with requesters drawn uniformly",
			Delay:    "one message: the token, sent straight to the next requester in ring order",
			Space:    "n request numbers per process; the token carries n numbers",
			Channels: "reliable; order is not needed (requests are numbered): SPIN passes it with channels that reorder messages",
			Steps:    "a handler runs to completion",
		},
		Routines: map[string]string{"Acquire": "the request (a REQUEST to all unless the process holds the token)", "Release": "the release (record the entry in the token and pass it on in ring order)"},
		Restart:  "the token starts again at the member with the lowest id, every request number at 0",
		Deviations: []string{
			"The paper is not in our sources; the code follows its published statement (its variable names), and the labels R, X, Q, T with their numbers are ours.",
			"Process ids are 0..n−1 and process 0 holds the token at the start; the ring order i + 1, ..., n, 1, ..., i − 1 is written as (i + m) mod n for m from 1 to n − 1.",
			"The token is a message whose parameter is the array token[j], copied into the receiver's state (T1–T3) and cleared from the sender's when it leaves (X7, Q8), as the catalogue's Suzuki–Kasami does: a process holds the token's data only while it holds the token.",
			"The scan that passes the token on is the same code in the release and in the receipt of a request (the paper runs the release's scan there when the token is idle); it is written out at both, as X3–X7 and Q4–Q8.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock and starvation freedom hold at n = 2 (three passages) and n = 3 (two passages, 44,924 states), with FIFO and with reordering channels, and with either resumption order. With reordering channels at n = 3 (207,220 states) make test checks exclusion and LOCKGEN_SPIN_LONG starvation freedom too (both passed on 2026-11-26).",
			"Messages per entry: n under contention and n − 1 at light load in the simulator (netsim TestRicartAgrawalaTokenMessages, docs/distributed.md).",
		},
		Def: ricartAgrawalaToken,
	})
}

func ricartAgrawalaToken() *ir.Algorithm {
	last := Minus(N, Lit(1))
	// pass is the scan of the ring for a process with a newer request;
	// the first one found gets the token (token_present turns false and
	// the rest of the scan does nothing).
	pass := func(l string, first int) ir.Stmt {
		lbl := func(k int) string { return l + strconv.Itoa(first+k) }
		j := Mod(Plus(Self, Var("m")), N)
		return For(lbl(0), "m", Lit(1), last,
			If(lbl(1), And(Var("token_present"), Gt(VarAt("request", j), VarAt("token", j))),
				Set(lbl(2), "token_present", False),
				Send(lbl(3), j, "TOKEN", Var("token")),
				For(lbl(4), "x", Lit(0), last, SetAt(lbl(4)+"a", "token", Var("x"), Lit(0))),
			),
		)
	}
	return &ir.Algorithm{
		Name: "ricart-agrawala-token",
		Locals: []ir.Local{
			State("token_present", ir.TBool, "the process holds the token", Eq(Self, Lit(0))),
			State("token_held", ir.TBool, "the process is in the critical section", nil),
			State("clock", ir.TInt, "the number of this process's last request", nil),
			perProcess(State("request", ir.TInt, "request[j]: the highest request number heard from j", nil)),
			perProcess(State("token", ir.TInt, "token[j]: the token's record of the number of j's last entry (valid while token_present)", nil)),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "process j's request number k",
				Params: []ir.Local{{Name: "k", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
			{Name: "TOKEN", Doc: "the token: token[j] for every j",
				Params: []ir.Local{perProcess(ir.Local{Name: "t", Type: ir.TInt})}},
		},
		Acquire: Code(
			Set("R1", "clock", Plus(Var("clock"), Lit(1))),
			If("R2", Not(Var("token_present")),
				ForOthers("R3", "j", Lit(0), last,
					Send("R4", Var("j"), "REQUEST", Var("clock"), Self),
				),
				Await("R5", Var("token_present")),
			),
			Set("R6", "token_held", True),
		),
		Release: Code(
			SetAt("X1", "token", Self, Var("clock")),
			Set("X2", "token_held", False),
			pass("X", 3),
		),
		Handlers: []ir.Handler{
			On("REQUEST",
				If("Q1", Gt(Var("k"), VarAt("request", Var("j"))),
					SetAt("Q2", "request", Var("j"), Var("k")),
				),
				If("Q3", And(Var("token_present"), Not(Var("token_held"))),
					pass("Q", 4),
				),
			),
			On("TOKEN",
				For("T1", "x", Lit(0), last,
					SetAt("T2", "token", Var("x"), VarAt("t", Var("x"))),
				),
				Set("T3", "token_present", True),
			),
		},
	}
}
