package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Dijkstra 1974 (EWD 426), the K-state machines: a ring of machines, each
// with a state S in 0..K−1 and a view L of its left neighbour's. Machine
// 0 is privileged when L = S, any other when L ≠ S; a privileged machine
// moves (0: S := S + 1 mod K; others: S := L), which passes the
// privilege to its right neighbour. From any states, exactly one
// privilege eventually circulates (K ≥ n). Here the privilege is the
// lock: a machine that wants the critical section keeps it until it
// leaves, any other moves at once.
func init() {
	register(&Entry{
		Name:  "dijkstra-ring",
		Title: "Dijkstra's self-stabilizing K-state token ring (EWD 426), reading the neighbour's state through messages",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "named in the contents (Dijkstra's self-stabilizing ring)"},
			{Where: "the solution with K-state machines: the privileges (bottom machine: L = S; other machines: L ≠ S) and the moves (S := (S + 1) mod K; S := L)",
				Cite: "E. W. Dijkstra, Self-stabilizing systems in spite of distributed control, Communications of the ACM 17(11), 1974 (EWD 426)"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion once stabilized (one privilege); from the start state as generated, always",
			Liveness: "starvation-free",
			Fairness: "ring order: a requester waits for at most one round of the privilege",
			Messages: "one per move, wanted or not (the privilege circulates for ever): 1 per entry when every machine waits for it, about 5/L − 5 at light load L, as Le Lann's ring",
			Delay:    "from one message (the next machine waits) to n − 1 (every machine between passes the privilege on)",
			Space:    "two states in 0..K−1 and two flags per machine",
			Channels: "reliable and FIFO between neighbours (a machine reads its neighbour's states in the order they were taken); with channels that reorder, SPIN finds an older state arriving after a newer one and making a second privilege (n = 2)",
			Steps:    "a handler runs to completion (a move is one atomic step, as the paper's moves are)",
		},
		Stabilizing: &Stabilizing{
			Arbitrary:  []string{"S", "L"},
			Privileged: dijkstraPrivileged,
			Why:        "from any states S and views L (each machine's view then refreshed by the start's messages), the ring reaches a state with exactly one privilege, held or in flight, and keeps it: SPIN checks <>[] (one token) at n = 3 with K = n (make test; n = 4 with LOCKGEN_SPIN_LONG), and finds it broken with K = 2 at n = 4",
		},
		Findings:    Findings{NeedsFIFO: true},
		AssumesFIFO: true,
		NoTryLock:   "the privilege never rests where nobody wants it, so an acquire always waits for it to come round",
		Routines:    map[string]string{"start": "every machine shows its state to its right neighbour", "Acquire": "the request (wait for the privilege)", "Release": "the release (the move)"},
		Restart:     "the ring of the members, in id order, starts again from the start state",
		Deviations: []string{
			"The paper's machines read their neighbours' states directly (a move reads and writes in one step, under a central daemon); here machine i reads its left neighbour's state through messages: a move sends the new S to the right neighbour (M2, XM2), whose handler keeps it as L. Each channel is FIFO (the transports keep each pair's order), so L is always a state the neighbour had.",
			"K = n (the paper requires K ≥ n); the machines are 0, ..., n − 1 by id, machine 0 is the paper's bottom machine, and the ring's direction is 0 → 1 → ... → n − 1 → 0.",
			"At the start every machine sends its state to its right neighbour (S1): without it a machine whose view is stale and whose neighbour never moves would wait for ever; the paper's machines read their neighbours whenever they like.",
			"The labels S, R, X, T, M with their numbers are ours (the paper gives guarded commands without numbers).",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): from the generated start state, mutual exclusion, no deadlock and starvation freedom at n = 2 and 3; stabilization (TestNetworkStabilization): from every S and L, exactly one token eventually and for ever at n = 3 with K = n (44,614 states; n = 4 runs with LOCKGEN_SPIN_LONG), and an acceptance cycle with K = 2 at n = 4 (the test's negative control).",
			"Randomized (netsim TestDijkstraRingStabilizes): from random states at n up to 12, a random schedule reaches one token and keeps it.",
		},
		Def: func() *ir.Algorithm { return DijkstraRing(N) },
	})
}

// dijkstraPrivileged is the paper's privilege, over a machine's state S
// and its view L of its left neighbour's.
var dijkstraPrivileged = Or(
	And(Eq(Self, Lit(0)), Eq(Var("L"), Var("S"))),
	And(Ne(Self, Lit(0)), Ne(Var("L"), Var("S"))),
)

// DijkstraRing is the ring with K = k states: the catalogue's K = n, and
// fewer for the control that shows why the paper requires K ≥ n
// (lab/spin TestNetworkStabilization).
func DijkstraRing(k ir.Expr) *ir.Algorithm {
	next := Mod(Plus(Self, Lit(1)), N)
	// move is the paper's move, labelled under l, and the message that
	// shows the new state to the right neighbour.
	move := func(l string) []ir.Stmt {
		return []ir.Stmt{
			IfElse(l+"1", Eq(Self, Lit(0)),
				Code(Set(l+"1a", "S", Mod(Plus(Var("S"), Lit(1)), k))),
				Code(Set(l+"1b", "S", Var("L")))),
			Send(l+"2", next, "STATE", Var("S")),
		}
	}
	return &ir.Algorithm{
		Name: "dijkstra-ring",
		Locals: []ir.Local{
			State("S", ir.TInt, "the machine's state, in 0..K−1", nil),
			State("L", ir.TInt, "the machine's view of its left neighbour's state", nil),
			State("requesting", ir.TBool, "the machine wants the critical section or is in it", nil),
			State("privileged", ir.TBool, "the machine holds the privilege for its critical section", nil),
		},
		Messages: []ir.Message{
			{Name: "STATE", Doc: "the sender's state, for its right neighbour's view",
				Params: []ir.Local{{Name: "v", Type: ir.TInt}}},
		},
		Start: Code(
			Send("S1", next, "STATE", Var("S")),
		),
		Acquire: Code(
			Set("R1", "requesting", True),
			Await("R2", Var("privileged")),
		),
		Release: Code(append([]ir.Stmt{
			Set("X1", "privileged", False),
			Set("X2", "requesting", False),
		}, move("XM")...)...),
		Handlers: []ir.Handler{
			On("STATE",
				Set("T1", "L", Var("v")),
				If("T2", dijkstraPrivileged,
					IfElse("T3", Var("requesting"),
						Code(Set("T4", "privileged", True)),
						Code(move("M")...)),
				),
			),
		},
	}
}
