package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Raymond 1989: the privilege (a token) moves along the edges of a fixed
// tree. Each process points at the neighbour on the way to the holder
// (HOLDER) and queues the neighbours, and itself, that asked it
// (REQUEST_Q); a process asks its HOLDER at most once until the
// privilege comes back through it (ASKED). Every event runs the paper's
// two procedures, ASSIGN_PRIVILEGE and MAKE_REQUEST, after its own step;
// they are written out at each of the four events under the event's
// letter.
func init() {
	register(&Entry{
		Name:  "raymond",
		Title: "Raymond's fixed tree (a token passed along a spanning tree, O(log n) messages per entry)",
		Refs: []templates.Ref{
			{Seed: "001_b2be470643ab9ec7.txt", Where: "section 2 and figure 1: the fixed tree (FT) baseline, a nearly complete binary tree in the simulation of section 5"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5, named in the contents (token-based algorithms on a structure)"},
			{Where: "the algorithm: HOLDER, USING, REQUEST_Q and ASKED; the procedures ASSIGN_PRIVILEGE and MAKE_REQUEST; the four events that run them",
				Cite: "K. Raymond, A tree-based algorithm for distributed mutual exclusion, ACM Transactions on Computer Systems 7(1), 1989"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion: one privilege",
			Liveness: "starvation-free",
			Fairness: "none claimed: each process serves its queue in order, but a request's place depends on the route the privilege takes",
			Messages: "at most 2D per entry on a tree of diameter D: O(log n) on a balanced tree at light load; about 4 per entry under heavy load, as the paper states",
			Delay:    "the privilege's path to the next requester: up to D messages on a tree of diameter D",
			Space:    "a queue of at most deg + 1 ids per process (deg: the process's neighbours)",
			Channels: "reliable; the paper assumes nothing about order: SPIN passes it with channels that reorder messages",
			Steps:    "an event runs to completion (the paper's events are atomic)",
		},
		Routines: map[string]string{"Acquire": "the event \"the node wishes to enter the critical section\" (E)", "Release": "the event \"the node exits the critical section\" (X)"},
		Restart:  "the privilege starts again at the member with the lowest id, the root of the tree the members form in id order",
		Deviations: []string{
			"The paper is not in our sources; the code follows its published statement (its variable, procedure and event names). Its code has no line numbers: the labels are ours, a letter for the event (E wishes to enter, R receives a REQUEST, P receives the PRIVILEGE, X exits) and a number, with A1–A8 for ASSIGN_PRIVILEGE and M1–M3 for MAKE_REQUEST written out in each event (EA1, RM2...).",
			"The tree is the nearly complete binary tree of Johnson & Yoon's simulation (their figure 1): process i's neighbours are (i − 1) div 2 and 2i + 1, 2i + 2; process 0 holds the privilege at the start and every other HOLDER points at its parent.",
			"REQUEST_Q is an array of n ids with its length (Q, QLen); dequeue takes Q[0] and shifts the rest. A REQUEST carries its sender's id, which the paper's \"from X\" leaves to the network.",
			"The event \"wishes to enter\" ends with a wait for USING, which ASSIGN_PRIVILEGE sets when the process dequeues itself.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock and starvation freedom hold at n = 2 (three passages) and n = 3 (two passages), with FIFO channels and with channels that reorder messages, and with either resumption order. At n = 3 the tree is a star; TestRaymondDeeperTree checks exclusion and starvation freedom at n = 4 (two passages, 37,035 states; one with reordering channels) and n = 5 (one passage), where requests are forwarded.",
			"Messages per entry in the simulator (netsim TestRaymondMessages, docs/distributed.md): twice the mean tree distance between two processes at light load, falling toward the paper's 4 under contention.",
		},
		Def: raymond,
	})
}

func raymond() *ir.Algorithm {
	last := Minus(N, Lit(1))
	holdsIt := Eq(Var("HOLDER"), Self)
	// enqueue puts x at the back of REQUEST_Q.
	enqueue := func(l string, x ir.Expr) []ir.Stmt {
		return []ir.Stmt{
			SetAt(l+"a", "Q", Var("QLen"), x),
			Set(l+"b", "QLen", Plus(Var("QLen"), Lit(1))),
		}
	}
	// assign is ASSIGN_PRIVILEGE, labelled under event e.
	assign := func(e string) ir.Stmt {
		return If(e+"A1", And(holdsIt, Not(Var("USING")), Gt(Var("QLen"), Lit(0))),
			// HOLDER := dequeue(REQUEST_Q)
			Set(e+"A2", "HOLDER", VarAt("Q", Lit(0))),
			For(e+"A3", "m", Lit(0), Minus(N, Lit(2)),
				SetAt(e+"A3a", "Q", Var("m"), VarAt("Q", Plus(Var("m"), Lit(1))))),
			SetAt(e+"A4", "Q", last, Lit(0)),
			Set(e+"A5", "QLen", Minus(Var("QLen"), Lit(1))),
			Set(e+"A6", "ASKED", False),
			IfElse(e+"A7", holdsIt,
				Code(Set(e+"A7a", "USING", True)),
				Code(Send(e+"A8", Var("HOLDER"), "PRIVILEGE"))),
		)
	}
	// request is MAKE_REQUEST, labelled under event e.
	request := func(e string) ir.Stmt {
		return If(e+"M1", And(Not(holdsIt), Gt(Var("QLen"), Lit(0)), Not(Var("ASKED"))),
			Send(e+"M2", Var("HOLDER"), "REQUEST", Self),
			Set(e+"M3", "ASKED", True),
		)
	}
	return &ir.Algorithm{
		Name: "raymond",
		Locals: []ir.Local{
			// (i − 1) div 2 is i's parent, and 0 at process 0 (−1 div 2
			// truncates to 0 in Go, Promela and the simulator alike).
			State("HOLDER", ir.TInt, "the neighbour on the way to the privilege, or the process itself when it holds it",
				Div(Minus(Self, Lit(1)), Lit(2))),
			State("USING", ir.TBool, "the process is in the critical section", nil),
			perProcess(State("Q", ir.TInt, "REQUEST_Q: the neighbours, and the process itself, waiting for the privilege through it, Q[0] first", nil)),
			State("QLen", ir.TInt, "how many ids REQUEST_Q holds", nil),
			State("ASKED", ir.TBool, "the process has sent a REQUEST to HOLDER that the privilege has not answered yet", nil),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "neighbour j asks for the privilege",
				Params: []ir.Local{{Name: "j", Type: ir.TInt}}},
			{Name: "PRIVILEGE", Doc: "the privilege"},
		},
		Acquire: Code(append(enqueue("E1", Self),
			assign("E"),
			request("E"),
			Await("E2", Var("USING")),
		)...),
		Release: Code(
			Set("X1", "USING", False),
			assign("X"),
			request("X"),
		),
		Handlers: []ir.Handler{
			On("REQUEST", append(enqueue("R1", Var("j")),
				assign("R"),
				request("R"),
			)...),
			On("PRIVILEGE",
				Set("P1", "HOLDER", Self),
				assign("P"),
				request("P"),
			),
		},
	}
}

// RaymondMeanDistance is the mean number of edges between two processes
// drawn independently and uniformly (the same one half the time at n = 2)
// on the tree of the catalogue's Raymond entry, where process i > 0
// hangs below (i − 1) div 2. At light load a request and the privilege
// each cross that many edges, so an entry costs twice it.
func RaymondMeanDistance(n int) float64 {
	depth := func(i int) int {
		d := 0
		for ; i > 0; i = (i - 1) / 2 {
			d++
		}
		return d
	}
	total := 0
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			a, b := u, v
			for a != b { // climb from the deeper one to the common ancestor
				if depth(a) >= depth(b) {
					a = (a - 1) / 2
				} else {
					b = (b - 1) / 2
				}
				total++
			}
		}
	}
	return float64(total) / float64(n*n)
}
