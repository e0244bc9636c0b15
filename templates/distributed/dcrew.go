package distributed

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// dCREW values. Process ids are 0..n-1 and NIL is -1; class and successor
// are none, READER or WRITER.
var (
	nilID  = Named("NIL", -1)
	none   = Named("none", 0)
	reader = Named("READER", 1)
	writer = Named("WRITER", 2)
	// releaseTokenType is what a reader's release token carries (5r.3):
	// 1, as section 3.2's prose says, where figure 5 shows 0; see the
	// entry's deviations for the SPIN runs that decide it.
	releaseTokenType = Lit(1)
)

// dCREW: Johnson & Yoon, "A fair fast distributed concurrent-reader
// exclusive-writer synchronization", 1996, section 3, figures 4–6. The
// paper numbers no lines: a label is the figure, the routine's letter
// (4r Request_CS_Read, 4w Request_CS_Write, 5r Release_CS_Read,
// 5w Release_CS_Write, 6q the REQUEST handler, 6t the TOKEN handler) and
// the statement's place in it.
func init() {
	register(&Entry{
		Name:  "dcrew",
		Title: "dCREW: distributed concurrent-reader exclusive-writer lock (path compression)",
		Refs: []templates.Ref{
			{Seed: "001_b2be470643ab9ec7.txt", Where: "section 3, figures 4 (request), 5 (release) and 6 (event handler)"},
			{Where: "path compression",
				Cite: "Y. I. Chang, M. Singhal, M. T. Liu, An improved O(log n) mutual exclusion algorithm for distributed systems, ICPP 1990 (reference [3] of Johnson & Yoon)"},
		},
		Modes: []mode.Mode{mode.RW},
		Props: Properties{
			Safety:   "reader/writer exclusion: one writer alone, or any number of readers",
			Liveness: "starvation-free",
			Fairness: "FCFS between conflicting requests, in the order they join the waiting list",
			Messages: "amortised O(log n) per entry: the request's hops along current_dir, plus one or two tokens",
			Delay:    "one message: the leaving holder sends the token (or the grant) straight to its successor",
			Space:    "O(log n) bits per process",
			Channels: "reliable; order is not needed (section 3.2): SPIN passes it with channels that reorder messages at n = 2 and 3, the release token carrying token_type 1 as section 3.2 says (figure 5's 0 there needs FIFO channels: see the deviations)",
			Steps:    "a handler runs to completion; a request routine whose wait the TOKEN handler ends resumes before the process handles its next message",
		},
		Restart: "the token starts again at the member with the lowest id, every current_dir pointing to it",
		Deviations: []string{
			"Process ids are 0..n−1, NIL is −1, and none/READER/WRITER are 0/1/2; process 0 holds the token at the start and every current_dir points to it (the paper requires only that the non-requesting processes lie on paths to the holder).",
			"The paper numbers no lines: labels are the figure, the routine (r/w: read/write; q/t: REQUEST/TOKEN handler) and the statement's place in it, so 6q.5 is the fifth statement of the REQUEST handler in figure 6.",
			"Release_CS_Read's wait for the release token (5r.1) blocks the releasing process, as the paper's processor does; the paper lets the application thread go on meanwhile, which changes nothing for the protocol, since the process's next request waits on the same condition (4r.1, 4w.1).",
			"A reader's release token (5r.3) carries token_type 1, as section 3.2 says (\"To send a release token, a reader sends a token message with token_type set to 1. Thus, a release token is the same as a grant token that requires a release token, and the algorithm does not require FIFO message channels.\"); figure 5 shows send(next, TOKEN; 0) there. Over FIFO channels the value makes no difference: a successor writer ignores it (6t.4), and a successor reader has its grant first and takes the release token at 6t.1, which ignores token_type. Over channels that reorder, only the prose's value makes the paper's claims true: a successor that gets the release token first takes it for its grant, and with 1 it then waits for one more token before it leaves (6t.5), which the late grant is; with 0 it leaves at once, and the late grant becomes a second token (6t.8). SPIN, over channels that reorder, passes every claimed property with 1 at n = 2 (three passages, 2,780 states; FCFS 3,712) and n = 3 (two passages, 91,784 states; FCFS 138,075), and finds two holders with 0 (n = 2: 1,449 states; n = 3: 1,049); over FIFO channels both pass (lab/spin TestDCREWReleaseToken; the control dcrew-figure-release-token).",
			"The paper does not say how its event handler and a waiting request routine interleave. Resuming the routine (4r.12–13, 4w.11–12) before the next message is handled is needed: otherwise a REQUEST handled between the TOKEN and the resume finds Token_hldr set and Incs clear, takes the holder for idle (6q.9–10) and passes the token on while the routine is about to enter; and a reader that handles its predecessor's release token there takes it for a second grant (6t.5), and never may leave. Every backend keeps that order (see the notes for what SPIN finds without it).",
		},
		Findings: Findings{NeedsResumeFirst: true},
		Routines: map[string]string{"Acquire": "Request_CS_Write", "Release": "Release_CS_Write",
			"RAcquire": "Request_CS_Read", "RRelease": "Release_CS_Read"},
		Notes: []string{
			"SPIN (lab/spin TestNetworkCatalogue): with routines resumed first, reader/writer exclusion, no deadlock and every process finishing its passages (starvation freedom under weak fairness) hold at n = 2 (three passages each, reader or writer as SPIN chooses) and n = 3 (two passages each), over FIFO channels and over channels that reorder messages.",
			"The release token's token_type decides whether order is needed (TestDCREWReleaseToken, n = 2): with figure 5's 0 at 5r.3 and channels that reorder, reader p0 grants its successor p1 a copy of the token (6q.5) and later sends it the release token (5r.3); the release token arrives first, p1 takes it for its grant with no release token to wait for (6t.5), enters and leaves; the grant, arriving later while p1 requests again, is a second token (6t.8). With section 3.2's 1, which the code sends, p1 waits for the late grant before it leaves, as the prose says, and no order is needed. The simulator agrees (netsim TestDCREWSimulated, TestSimulatorCatches).",
			"Resuming first is needed (TestDCREWNeedsResumeFirst, n = 2): without it SPIN finds a run in which a process never finishes its passages (with writers only: the token passed on from a holder taken for idle, 6q.9–10; with readers: a reader whose grant and release token both arrive before it resumes, taken for two grants, 6t.5, waiting for ever at 5r.1), and at n = 3 two holders; the simulator finds it too (netsim TestSimulatorCatches).",
			"FCFS (lab/spin TestNetworkCatalogue, n = 2 and 3): the model follows the waiting list in ghost state (a request joins behind the process that makes it its next, 6q.6 and 6q.12, or at the head, 6q.9, 4w.7, 4r.7; a request queued behind one that is not in the list yet waits in that one's segment and joins with it, in order), and SPIN finds no process entering while a conflicting request ahead of it waits. The order is the list's, not the order in which requests are sent: a request that travels a longer path joins later.",
			"Messages per entry (netsim TestMessagesPerEntryAsInThePaper): 6.50 at 160 processes, 200% load, one reader per writer, where the paper reports about 6.5 (figure 8).",
		},
		Def: dcrew,
	})
}

func dcrew() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "dcrew",
		Locals: []ir.Local{
			State("IsRequesting", ir.TBool, "the process has requested the token and waits for it", nil),
			State("Token_hldr", ir.TBool, "the process holds the token (a reader's copy counts)", Eq(Self, Lit(0))),
			State("Incs", ir.TBool, "the process is in the critical section (or a reader waits for its release token)", nil),
			State("next", ir.TInt, "the next process in the waiting list, NIL if none", nilID),
			State("current_dir", ir.TInt, "the best guess at the end of the waiting list (the path list)", Lit(0)),
			State("class", ir.TInt, "the process's own request: none, READER or WRITER", nil),
			State("successor", ir.TInt, "the class of next's request", nil),
			State("release_needed", ir.TInt, "release tokens a reader still needs before it may leave (0 or 1)", nil),
		},
		Messages: []ir.Message{
			{Name: "REQUEST", Doc: "a request travelling along current_dir to the end of the waiting list",
				Params: []ir.Local{{Name: "requester", Type: ir.TInt}, {Name: "req_class", Type: ir.TInt}}},
			{Name: "TOKEN", Doc: "the grant token, or a reader's release token (token_type: the release tokens the receiver should expect)",
				Params: []ir.Local{{Name: "token_type", Type: ir.TInt}}},
		},
		RAcquire: Code( // Request_CS_Read, figure 4
			Await("4r.1", Eq(Var("release_needed"), Lit(0))), // reader stall
			Set("4r.2", "IsRequesting", True),
			Set("4r.3", "class", reader),
			Set("4r.4", "successor", none),
			Set("4r.5", "next", nilID),
			IfElse("4r.6", Var("Token_hldr"),
				Code(
					Set("4r.7", "current_dir", Self),
					Set("4r.8", "release_needed", Lit(0)), // the first and only active reader
				),
				Code(
					Send("4r.9", Var("current_dir"), "REQUEST", Self, Var("class")),
					Set("4r.10", "current_dir", Self),
					Await("4r.11", Var("Token_hldr")),
				)),
			Set("4r.12", "IsRequesting", False),
			Set("4r.13", "Incs", True),
		),
		Acquire: Code( // Request_CS_Write, figure 4
			Await("4w.1", Eq(Var("release_needed"), Lit(0))),
			Set("4w.2", "IsRequesting", True),
			Set("4w.3", "class", writer),
			Set("4w.4", "successor", none),
			Set("4w.5", "next", nilID),
			IfElse("4w.6", Var("Token_hldr"),
				Code(Set("4w.7", "current_dir", Self)),
				Code(
					Send("4w.8", Var("current_dir"), "REQUEST", Self, Var("class")),
					Set("4w.9", "current_dir", Self),
					Await("4w.10", Var("Token_hldr")),
				)),
			Set("4w.11", "IsRequesting", False),
			Set("4w.12", "Incs", True),
		),
		RRelease: Code( // Release_CS_Read, figure 5
			Await("5r.1", Eq(Var("release_needed"), Lit(0))), // wait for predecessors to finish
			If("5r.2", Ne(Var("next"), nilID),
				Send("5r.3", Var("next"), "TOKEN", releaseTokenType), // either release or grant token
				Set("5r.4", "next", nilID),
				Set("5r.5", "Token_hldr", False),
			),
			Set("5r.6", "successor", none),
			Set("5r.7", "Incs", False),
		),
		Release: Code( // Release_CS_Write, figure 5
			If("5w.1", Ne(Var("next"), nilID),
				Send("5w.2", Var("next"), "TOKEN", Lit(0)), // grant token
				Set("5w.3", "next", nilID),
				Set("5w.4", "Token_hldr", False),
			),
			Set("5w.5", "successor", none),
			Set("5w.6", "Incs", False),
		),
		// The waiting list: a request joins behind the process that makes
		// it its next (6q.6, 6q.12), or at the head where an idle holder
		// hands it the token (6q.9) or requests itself (4w.7, 4r.7).
		Joins: []ir.Join{
			{Label: "6q.6", Who: Var("requester"), Behind: Self},
			{Label: "6q.12", Who: Var("requester"), Behind: Self},
			{Label: "6q.9", Who: Var("requester")},
			{Label: "4w.7", Who: Self},
			{Label: "4r.7", Who: Self},
		},
		Handlers: []ir.Handler{
			On("REQUEST", // figure 6
				IfElse("6q.1", Var("Token_hldr"),
					Code(IfElse("6q.2", Var("Incs"), // active reader/writer or stalled reader
						Code(IfElse("6q.3", Eq(Var("next"), nilID),
							Code( // active reader or writer at the end of the waiting list
								If("6q.4", And(Eq(Var("req_class"), reader), Eq(Var("class"), reader)),
									Send("6q.5", Var("requester"), "TOKEN", Lit(1)), // pass the grant token
								),
								Set("6q.6", "next", Var("requester")),
								Set("6q.7", "successor", Var("req_class")),
							),
							Code( // an active mid-reader, or a waiting list exists
								Send("6q.8", Var("current_dir"), "REQUEST", Var("requester"), Var("req_class")),
							))),
						Code( // was idle
							Send("6q.9", Var("requester"), "TOKEN", Lit(0)),
							Set("6q.10", "Token_hldr", False),
						))),
					Code(IfElse("6q.11", And(Var("IsRequesting"), Eq(Var("next"), nilID)),
						Code( // the last waiter
							Set("6q.12", "next", Var("requester")),
							Set("6q.13", "successor", Var("req_class")),
						),
						Code( // a mid-waiter or a non-requester: pass it on
							Send("6q.14", Var("current_dir"), "REQUEST", Var("requester"), Var("req_class")),
						))),
				),
				Set("6q.15", "current_dir", Var("requester")), // the best guess about the holder
			),
			On("TOKEN", // figure 6
				IfElse("6t.1", And(Var("Incs"), Eq(Var("class"), reader)),
					Code(Set("6t.2", "release_needed", Lit(0))), // an active reader: a release token
					Code(If("6t.3", Var("IsRequesting"), // a waiting reader or writer
						If("6t.4", Eq(Var("class"), reader),
							Set("6t.5", "release_needed", Var("token_type")), // exit count
							If("6t.6", Eq(Var("successor"), reader),
								Send("6t.7", Var("next"), "TOKEN", Lit(1)), // propagate the grant token
							),
						),
					)),
				),
				Set("6t.8", "Token_hldr", True),
			),
		},
	}
}
