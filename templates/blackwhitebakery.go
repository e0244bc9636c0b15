package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Taubenfeld's black-white bakery: Lamport's bakery with bounded tickets.
// A shared color bit splits the customers into the black and the white
// batch; a process takes the current color (line 2) and a ticket one larger
// than those of its own color (line 3), so tickets never exceed n. Among
// processes of the same color the usual (ticket, id) order decides (line 8);
// a process waits for one of the other color only while its own color is
// the current one (line 9): the batch that took the older color goes first.
// Every exit flips the color away from the leaver's (line 12). The seeds
// name the algorithm only (seed 000, reference [17]); the code follows
// Taubenfeld's paper and book, with the statements numbered 1–13 in order.
func init() {
	white, black := Named("white", 0), Named("black", 1)
	register(&Entry{
		Name:  "black-white-bakery",
		Title: "Taubenfeld's black-white bakery (bounded tickets: a shared color bit)",
		Refs: []Ref{
			{Cite: "G. Taubenfeld, The black-white bakery algorithm and related bounded-space, adaptive, local-spinning and FIFO algorithms, DISC 2004, LNCS 3274"},
			{Seed: "000_175dd44c210ae396.txt", Where: "reference [17]",
				Cite: "G. Taubenfeld, Synchronization Algorithms and Concurrent Programming, Pearson / Prentice-Hall, 2006"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "wait-free (two writes)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:                "3n + 1 bounded registers (choosing, mycolor, number ∈ 0..n per process; the color bit)",
			Instructions:         []string{"read", "write"},
			Identity:             "ids",
			BoundedRegistersUpTo: 2, // see the note on n ≥ 3
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "a ticket, once published at line 3, orders the process behind the others of its batch: it cannot be withdrawn without waiting",
		NoAbort:    "its tickets are bounded only because processes exit: one that gives up and comes back while nobody exits takes an ever larger ticket of the same color, and giving up as the exit does (flipping the color, lines 12–13) lets two processes that give up in turn flip it for ever past a patient one; SPIN at n = 2 finds a ticket beyond ±64 and the patient process starved; the paper gives no abort",
		Deviations: []string{
			"Process ids are 0..n-1 (the paper's 1..n); ties between equal tickets of one color go to the smaller id, as in the paper.",
			"Colors are integers, white = 0 and black = 1; color and every mycolor start white (the paper leaves color's initial value arbitrary).",
			"Line 3 reads mycolor[j], then number[j] only if the colors match, for every j (its own number is 0 then), and keeps the maximum in a local; number[i] and mycolor[i] are read from the process's local copies (only p_i writes them).",
			"Line 8's await reads number[j] once per test (a loop re-reading it), then mycolor[j] if needed; line 9's await reads number[j], color and mycolor[j] in that order, stopping at the first disjunct that holds. The loop of line 5 includes j = i, as the paper's does (its tests pass at once).",
			"The paper only needs safe registers for some of its variables; Go's registers are atomic.",
		},
		Notes: []string{
			"Bounded numbers are claimed, and checked, for n = 2 only. The paper bounds every number by n; SPIN confirms " +
				"it for n = 2 (in every reachable state of processes looping for ever, numbers stay within ±64) and fails " +
				"mutants that break it (the color never flipping). At n = 3 numbers pass n, and 64, because line 3 reads " +
				"mycolor[j] and number[j] as two steps. In the shortest run (a breadth-first search, 168 steps) p has read " +
				"color = black but not yet written mycolor[p], which still says white; a white process reads that stale white, " +
				"then the number 3 that p takes among the blacks, and takes 4. Reading number[j] first fails as well (a number " +
				"from one passage paired with the color of the next). With each pair read in one step every number stays " +
				"within n at n = 3, in all 2.8 million reachable states. So the bound needs line 3's pair reads to be atomic, " +
				"which separate registers do not give; this transcription keeps the paper's separate registers. Both checks: " +
				"go test -run TestBlackWhiteBakeryNumbersAtThree ./lab/spin/. Go's registers are int64, so numbers cannot " +
				"overflow in practice.",
		},
		Def: func(Options) *ir.Algorithm {
			j, t, m, mc := Var("j"), Var("t"), Var("mine"), Var("mc")
			n := func(p ir.Params) int { return p.N }
			return &ir.Algorithm{
				Name: "black-white-bakery",
				Shared: []ir.Shared{
					{Name: "COLOR", Type: ir.TInt, Doc: "the shared color bit: white (0) or black (1)"},
					{Name: "CHOOSING", Type: ir.TBool, Len: n, Owner: "proc", Doc: "process i is in its doorway"},
					{Name: "MYCOLOR", Type: ir.TInt, Len: n, Owner: "proc", Doc: "the color of process i's ticket"},
					{Name: "NUMBER", Type: ir.TInt, Len: n, Owner: "proc", Doc: "process i's ticket, 0..n (0: not competing)"},
				},
				Locals: []ir.Local{
					{Name: "mc", Type: ir.TInt, Scope: ir.Passage, Doc: "mycolor[i], the color taken at line 2 (read by the exit)"},
					{Name: "mine", Type: ir.TInt, Doc: "number[i], the ticket taken at line 3"},
					{Name: "t", Type: ir.TInt},
				},
				Acquire: Code(
					Write("1", Elem("CHOOSING", Self), True),
					Set("2", "mc", Read(Reg("COLOR"))),
					Write("2", Elem("MYCOLOR", Self), mc),
					Set("3", "mine", Lit(0)),
					For("3", "j", Lit(0), Minus(N, Lit(1)),
						If("3", Eq(Read(Elem("MYCOLOR", j)), mc),
							Set("3", "t", Read(Elem("NUMBER", j))),
							If("3", Gt(t, m), Set("3", "mine", t)),
						),
					),
					Set("3", "mine", Plus(m, Lit(1))),
					Write("3", Elem("NUMBER", Self), m),
					Write("4", Elem("CHOOSING", Self), False),
					For("5", "j", Lit(0), Minus(N, Lit(1)),
						Await("6", Eq(Read(Elem("CHOOSING", j)), False)),
						IfElse("7", Eq(Read(Elem("MYCOLOR", j)), mc),
							Code(BusyRepeat("8",
								Or(Eq(t, Lit(0)), Not(Lex(t, j, m, Self)), Ne(Read(Elem("MYCOLOR", j)), mc)),
								Set("8", "t", Read(Elem("NUMBER", j))),
							)),
							Code(Await("9", Or(
								Eq(Read(Elem("NUMBER", j)), Lit(0)),
								Ne(mc, Read(Reg("COLOR"))),
								Eq(Read(Elem("MYCOLOR", j)), mc),
							))),
						),
					),
				),
				Release: Code(
					IfElse("12", Eq(mc, black),
						Code(Write("12", Reg("COLOR"), white)),
						Code(Write("12", Reg("COLOR"), black))),
					Write("13", Elem("NUMBER", Self), Lit(0)),
				),
				DoorwayEnd: "4",
			}
		},
	})
}
