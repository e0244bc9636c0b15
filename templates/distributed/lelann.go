package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Le Lann 1977: the processes form a unidirectional ring and one token
// travels round it for ever. A process that receives the token while it
// wants the critical section keeps it until it leaves; otherwise it
// passes it to its successor at once. No request is ever sent: the
// token's round is the only traffic, wanted or not.
func init() {
	register(&Entry{
		Name:  "le-lann",
		Title: "Le Lann's token ring (a token circulating for ever; no requests)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5.2, named in the contents (the token ring)"},
			{Where: "the algorithm: a logical ring, one token that circulates, kept by a process that wants the critical section and passed on by any other",
				Cite: "G. Le Lann, Distributed systems: towards a formal approach, Information Processing 77 (IFIP Congress), North-Holland, 1977"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion (one token)",
			Liveness: "starvation-free",
			Fairness: "ring order: a requester waits for at most one round of the token, n − 1 entries of others",
			Messages: "one per hop of the token, wanted or not: 1 per entry when every process waits for it, unbounded at light load (about 5/L − 5 at load L in the paper-style simulation: entries 10/L apart, the token moving between them at one hop per 2 time units)",
			Delay:    "from one message (the next process on the ring waits) to n − 1",
			Space:    "two flags per process",
			Channels: "reliable; order is moot (one message in the network at any time)",
			Steps:    "a handler runs to completion",
		},
		NoTryLock: "the token never rests where nobody wants it, so an acquire always waits for it to come round",
		Routines:  map[string]string{"start": "the token put on the ring", "Acquire": "the request (wait for the token)", "Release": "the release (pass the token on)"},
		Restart:   "the token leaves the member with the lowest id again, round the ring of the members in id order",
		Deviations: []string{
			"The paper is not in our sources; the code follows the algorithm as Raynal's book names it (a token circulating on a logical ring), and the labels S, R, X, T with their numbers are ours.",
			"The ring is 0, 1, ..., n − 1, 0 by id; at the start process 0 sends the token to process 1 (S1–S2): the language's start, the only message nobody sends in response to anything.",
			"The token circulates for ever, as in the paper: a lock of this kind keeps its transport busy while nobody wants the critical section (one message per hop, as fast as the network carries it).",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock and starvation freedom hold at n = 2 (three passages) and n = 3 (two passages), with FIFO and with reordering channels, and with either resumption order.",
			"Messages per entry in the simulator (netsim TestLeLannMessages, docs/distributed.md): 1 under contention, and growing as the load falls.",
		},
		Def: leLann,
	})
}

func leLann() *ir.Algorithm {
	next := Mod(Plus(Self, Lit(1)), N)
	return &ir.Algorithm{
		Name: "le-lann",
		Locals: []ir.Local{
			State("requesting", ir.TBool, "the process wants the critical section or is in it", nil),
			State("token", ir.TBool, "the process holds the token", nil),
		},
		Messages: []ir.Message{
			{Name: "TOKEN", Doc: "the token"},
		},
		Start: Code(
			If("S1", Eq(Self, Lit(0)), Send("S2", next, "TOKEN")),
		),
		Acquire: Code(
			Set("R1", "requesting", True),
			Await("R2", Var("token")),
		),
		Release: Code(
			Set("X1", "token", False),
			Set("X2", "requesting", False),
			Send("X3", next, "TOKEN"),
		),
		Handlers: []ir.Handler{
			On("TOKEN",
				IfElse("T1", Var("requesting"),
					Code(Set("T2", "token", True)),
					Code(Send("T3", next, "TOKEN"))),
			),
		},
	}
}
