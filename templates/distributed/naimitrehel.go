package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Naimi–Trehel: the path-reversal mutex that Johnson & Yoon's issue asks
// for where Chang–Singhal–Liu's code cannot be found (CSL's paper is not
// in our sources, and no citable transcription of its code was found).
// Like CSL and dCREW it keeps a path to the last requester (father) and
// a waiting list (next); a request reverses the path it travels.
func init() {
	register(&Entry{
		Name:  "naimi-trehel",
		Title: "Naimi–Trehel path-reversal mutex (a token and a dynamic tree of last requesters)",
		Refs: []templates.Ref{
			{Where: "the algorithm (variables father, next, requesting_cs, token_present; procedures Request_CS, Release_CS, and the receipt of a request and of the token)",
				Cite: "M. Naimi, M. Trehel, A. Arnold, A log(N) distributed mutual exclusion algorithm based on path reversal, Journal of Parallel and Distributed Computing 34(1), 1996"},
			{Seed: "001_b2be470643ab9ec7.txt", Where: "section 2: path compression, the family dCREW extends (CSL, its reference [3]; Trehel & Naimi are its references [20, 21])"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion: one token",
			Liveness: "starvation-free",
			Fairness: "FCFS in the order requests join the waiting list",
			Messages: "amortised O(log n) per entry: the request's hops along father, plus the token",
			Delay:    "one message: the token, sent straight to the next requester",
			Space:    "O(log n) bits per process",
			Channels: "reliable (the paper's assumption); order is not needed: SPIN passes it with channels that reorder messages",
			Steps:    "a handler runs to completion; no order between a handler and the routine it enables is needed (SPIN passes it either way)",
		},
		Findings: Findings{},
		Routines: map[string]string{"Acquire": "Request_CS", "Release": "Release_CS"},
		Restart:  "the token starts again at the member with the lowest id, the root every father points to",
		Deviations: []string{
			"The paper is not in our sources: the code follows its standard statement (the paper's variable names, with its procedures for requesting, releasing, and receiving a request or the token), and the labels R, X, Q, T with their numbers are ours.",
			"Process ids are 0..n−1 and nil is −1; process 0 holds the token at the start and every other process's father is 0 (the paper elects one process to start with the token).",
			"Request_CS's \"wait for the token\" is an await on token_present, which the token's receipt sets.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock, starvation freedom and FCFS in the order of the next pointers hold at n = 2 (three passages) and n = 3 (two passages); exclusion and starvation freedom also with reordering channels and with the enabled routine resumed later.",
			"Chosen as the path-compression baseline of dCREW (Johnson & Yoon compare with Chang–Singhal–Liu, whose code we could not find): dCREW run with writers only is itself a path-compression mutex; docs/distributed.md compares the two in the paper's setting.",
		},
		Def: naimiTrehel,
	})
}

func naimiTrehel() *ir.Algorithm {
	null := Named("nil", -1)
	return &ir.Algorithm{
		Name: "naimi-trehel",
		Locals: []ir.Local{
			// father starts as (i + n − 1) div n − 1: nil at process 0, the
			// holder, and 0 everywhere else.
			State("father", ir.TInt, "where to send a request: the last requester this process knows of; nil at the root (the last requester, or the holder)",
				Minus(Div(Plus(Self, Minus(N, Lit(1))), N), Lit(1))),
			State("next", ir.TInt, "the process to pass the token to after the critical section, nil if none", null),
			State("requesting_cs", ir.TBool, "the process wants the critical section or is in it", nil),
			State("token_present", ir.TBool, "the process holds the token", Eq(Self, Lit(0))),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "a request for the token travelling along father",
				Params: []ir.Local{{Name: "j", Type: ir.TInt}}},
			{Name: "TOKEN", Doc: "the token"},
		},
		Acquire: Code( // Request_CS
			Set("R1", "requesting_cs", True),
			If("R2", Ne(Var("father"), null),
				Send("R3", Var("father"), "REQUEST", Self),
				Set("R4", "father", null),
				Await("R5", Var("token_present")),
			),
		),
		Release: Code( // Release_CS
			Set("X1", "requesting_cs", False),
			If("X2", Ne(Var("next"), null),
				Send("X3", Var("next"), "TOKEN"),
				Set("X4", "token_present", False),
				Set("X5", "next", null),
			),
		),
		// The queue of next pointers: a request joins behind the root that
		// makes it its next (Q3), or at the head where the root hands it
		// the idle token (Q5) or, holding it, requests itself (R1).
		Joins: []ir.Join{
			{Label: "Q3", Who: Var("j"), Behind: Self},
			{Label: "Q5", Who: Var("j")},
			{Label: "R1", Who: Self, When: Eq(Var("father"), null)},
		},
		Handlers: []ir.Handler{
			On("REQUEST",
				IfElse("Q1", Eq(Var("father"), null),
					Code(IfElse("Q2", Var("requesting_cs"),
						Code(Set("Q3", "next", Var("j"))),
						Code(
							Set("Q4", "token_present", False),
							Send("Q5", Var("j"), "TOKEN"),
						))),
					Code(Send("Q6", Var("father"), "REQUEST", Var("j"))),
				),
				Set("Q7", "father", Var("j")),
			),
			On("TOKEN",
				Set("T1", "token_present", True),
			),
		},
	}
}
