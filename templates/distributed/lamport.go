package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Lamport 1978: every process keeps a copy of the request queue, ordered
// by logical timestamp (ties to the smaller id). A request is sent to all
// and acknowledged by all; a process enters when its request heads its
// copy and it has heard from every other process after its request. The
// paper's five rules keep their numbers in the labels.
func init() {
	register(&Entry{
		Name:  "lamport-1978",
		Title: "Lamport's replicated request queue under logical clocks (3(n − 1) messages per entry)",
		Refs: []templates.Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 5.3, named in the contents (Distributing a queue)"},
			{Where: "the mutual exclusion example: rules 1 to 5 and the clock conditions IR1, IR2",
				Cite: "L. Lamport, Time, clocks, and the ordering of events in a distributed system, Communications of the ACM 21(7), 1978"},
		},
		Modes: []mode.Mode{mode.Mutex},
		Props: Properties{
			Safety:   "mutual exclusion",
			Liveness: "starvation-free",
			Fairness: "FCFS by timestamp (ties to the smaller id): requests are granted in the order of the clocks' total order",
			Messages: "3(n − 1) per entry at any load: n − 1 requests, n − 1 acknowledgements, n − 1 releases",
			Delay:    "one message: the release that lets the next request reach the head of every queue",
			Space:    "a clock, and one timestamp per process for the queue and one for the latest message",
			Channels: "reliable and FIFO between each pair, as the paper assumes; SPIN confirms the order is needed (a release overtaken by its sender's next request erases that request)",
			Steps:    "a handler runs to completion; the paper's rules are each one event",
		},
		Routines:  map[string]string{"Acquire": "rule 1, then rule 5's wait", "Release": "rule 3"},
		NoTryLock: "every entry needs a message from each of the n − 1 other processes after the request, so an acquire never completes without waiting",
		Restart:   "every clock and every copy of the request queue starts again empty",
		Deviations: []string{
			"The paper is not in our sources; the code follows its rules 1 to 5 and the clock conditions IR1 and IR2 (section 'Logical clocks' and the mutual exclusion example), and labels each statement with its rule's number (1.2: rule 1, second statement; IR2 lines are labelled with the handler's rule).",
			"The request queue is kept as one timestamp per process, Queue[j] (0: no request), and 'has received a message timestamped later than Tm from every other process' as Latest[j], the timestamp of the last message from j: with FIFO channels the two say what the paper's queue says.",
			"Acknowledgements are sent for every request, as in the paper; the optimisation that skips an acknowledgement when a release was already sent is not made.",
		},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): mutual exclusion, no deadlock, starvation freedom and FCFS by (timestamp, id) hold at n = 2 (three passages) with FIFO channels and either resumption order; at n = 3 the clocks make 7.4 million states with one passage each, so make test checks exclusion there and LOCKGEN_SPIN_LONG=1 every property (all passed, 209 s at -O2, 2026-11-25). With reordering channels SPIN finds exclusion broken at n = 2 (Findings.NeedsFIFO).",
			"Messages per entry: exactly 3(n − 1) in the simulator (netsim TestLamportMessages, docs/distributed.md).",
		},
		Findings:    Findings{NeedsFIFO: true},
		AssumesFIFO: true,
		// Two passages each at n = 3 exceed 2 GB; one is 7.4 million
		// states (lab/spin TestNetworkCatalogue).
		Passages: map[int]int{3: 1},
		Def:      lamport1978,
	})
}

func lamport1978() *ir.Algorithm {
	// IR2: on receipt of a message timestamped t, the clock moves past t.
	tick := func(l string) ir.Stmt {
		return IfElse(l, Gt(Var("t"), Var("Clock")),
			Code(Set(l+"a", "Clock", Plus(Var("t"), Lit(1)))),
			Code(Set(l+"b", "Clock", Plus(Var("Clock"), Lit(1)))))
	}
	others := func(l string, body ...ir.Stmt) ir.Stmt { return ForOthers(l, "j", Lit(0), Minus(N, Lit(1)), body...) }
	mine := VarAt("Queue", Self)
	return &ir.Algorithm{
		Name: "lamport-1978",
		Locals: []ir.Local{
			State("Clock", ir.TInt, "the process's logical clock (IR1, IR2)", nil),
			perProcess(State("Queue", ir.TInt, "Queue[j]: the timestamp of j's request in this process's copy of the request queue (0: none)", nil)),
			perProcess(State("Latest", ir.TInt, "Latest[j]: the timestamp of the last message received from j", nil)),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "Tm:Pj requests resource", Params: []ir.Local{{Name: "t", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
			{Name: "ACK", Doc: "the acknowledgement of a request, timestamped", Params: []ir.Local{{Name: "t", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
			{Name: "RELEASE", Doc: "Pj releases resource, timestamped", Params: []ir.Local{{Name: "t", Type: ir.TInt}, {Name: "j", Type: ir.TInt}}},
		},
		Acquire: Code(
			// Rule 1: timestamp the request (IR1), queue it, send it to all.
			Set("1.1", "Clock", Plus(Var("Clock"), Lit(1))),
			SetAt("1.2", "Queue", Self, Var("Clock")),
			others("1.3", Send("1.4", Var("j"), "REQUEST", mine, Self)),
			// Rule 5: the request heads the queue and every other
			// process has sent a message timestamped later.
			Await("5.1", ForAllOthers("j", Lit(0), Minus(N, Lit(1)), And(
				Or(Eq(VarAt("Queue", Var("j")), Lit(0)), Lex(mine, Self, VarAt("Queue", Var("j")), Var("j"))),
				Gt(VarAt("Latest", Var("j")), mine)))),
		),
		Release: Code(
			// Rule 3: remove the request, timestamp a release, send it to all.
			SetAt("3.1", "Queue", Self, Lit(0)),
			Set("3.2", "Clock", Plus(Var("Clock"), Lit(1))),
			others("3.3", Send("3.4", Var("j"), "RELEASE", Var("Clock"), Self)),
		),
		// The order is the timestamps' (rule 5): a request takes its place
		// when it is stamped.
		Joins: []ir.Join{{Label: "1.2", Who: Self, Key: Plus(Times(Var("Clock"), N), Self)}},
		Handlers: []ir.Handler{
			// Rule 2: queue the request and acknowledge it.
			On("REQUEST",
				tick("2.1"),
				SetAt("2.2", "Latest", Var("j"), Var("t")),
				SetAt("2.3", "Queue", Var("j"), Var("t")),
				Send("2.4", Var("j"), "ACK", Var("Clock"), Self),
			),
			On("ACK",
				tick("5.2"),
				SetAt("5.3", "Latest", Var("j"), Var("t")),
			),
			// Rule 4: remove the releaser's request.
			On("RELEASE",
				tick("4.1"),
				SetAt("4.2", "Latest", Var("j"), Var("t")),
				SetAt("4.3", "Queue", Var("j"), Lit(0)),
			),
		},
	}
}
