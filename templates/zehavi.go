package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Zehavi's k-exclusion from reads and writes (seed 004, Algorithm 1,
// lines 1–15): the bakery's order, taken from a concurrent timestamp
// system, and processes that learn their waiting status from the others
// (Order<, Reveal, Discover, Ignore, Compete, Allow) instead of scanning
// again, so that a waiter spins only on what it owns in the DSM model.
//
// The two-dimensional arrays are flattened, row-major: X[i][j] is element
// i·n + j; Discover[i][j][0] and [1] are DISCOVER0 and DISCOVER1.
func init() {
	register(&Entry{
		Name:  "zehavi",
		Title: "Zehavi's local-spin k-exclusion from reads and writes (on a collect-based timestamp system)",
		Refs:  []Ref{{Seed: "004_f4f101679f3c3547.txt", Where: "section IV, Algorithm 1 (lines 1–15); the CTS of its reference [19] is not in the paper"}},
		Props: Properties{
			Liveness: "starvation-free, with up to k − 1 processes crashed", Fairness: "FIFE (in O(n) steps)",
			Exit:  "bounded (lines 13–15: 2n + 1 writes)",
			RMRCC: "O(n)", RMRDSM: "O(n)",
			Space:         "O(n²) booleans and n unbounded timestamps (the paper's bounded CTS is not reproduced)",
			Instructions:  []string{"read", "write"},
			Identity:      "ids",
			CrashTolerant: true,
			// Lemma 5's O(n): once the process that overtook p has
			// written Allow (line 12) and entered, p finishes the line-11
			// iteration it is in (at most 8n reads) and one more, whose
			// 11b.i empties precede, then line 12 (n writes): 17n shared
			// steps. The bound leaves room for the waiting layer's own
			// steps (its queue words) in the checked build.
			FIFESteps: func(n int) int { return 64 * n },
			Crashes: "claimed by the paper (its starvation freedom is defined with up to k − 1 crashes) and checked by Explore's crash phase in every generated " +
				"Zehavi lock: anywhere under the spin and yield policies (generated/zehavi's ZehaviSpin), inside the critical section under the parking ones (Zehavi).",
		},
		Modes:      []mode.Mode{mode.KExclusion, mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		TryLock:    "a process that gave up would have to undo lines 1–10 (its Compete, Reveal and Discover traces) as the exit does; the paper has no abortable variant",
		NoAbort:    "the paper gives no abort: a process leaving line 11 would have to undo lines 1–10 as the exit does (lines 13–15) while others may hold its grant (line 12); whether that keeps FIFE and crash tolerance is not established, and the model with aborts is beyond SPIN at n = 3 (the plain one takes 13 minutes, docs of this entry)",
		Deviations: []string{
			"The concurrent timestamp system is not the bounded one of the paper's reference [19] (Dwork, Herlihy, Plotkin, Waarts, \"Time-lapse snapshots\", SIAM J. Comput. 28(5), 1999), whose code the paper does not give and we could not find in a citable form: Label_p (line 3) writes 1 + the largest of a collect of every timestamp TS[0..n-1] (its own included, so each process's timestamps grow); Scan_p (line 6) is a collect of TS, ordered by (timestamp, id). It satisfies the two CTS properties the proofs use: a Label that starts after another finished gets a larger timestamp, and a process that is no longer labelling keeps its place. Timestamps are unbounded 64-bit integers, so the paper's headline claim, bounded space, does not hold here; k-exclusion, starvation freedom with up to k − 1 crashes, FIFE, bounded exit and O(n) RMRs do not depend on it.",
			"Process ids are 0..n-1; the n × n arrays are flattened row-major (X[i][j] is X[i·n + j]) and Discover[i][j][0], [1] are DISCOVER0[i·n + j], DISCOVER1[i·n + j]. The listing names the running process i, as every listing of the catalogue does, and the other process q: the paper's p and i.",
			"order is a local array of the timestamps the Scan read: order.i < order.p is (order[i], i) < (order[p], p).",
			"The set precede is a local boolean array with its size kept in a local count; line 11a.ii is skipped for an i that 11a.i has just removed (it could only remove it again).",
		},
		Notes: []string{
			"FIFE (a process that finished its doorway before another began its own is enabled, in O(n) of its own steps, once the other has entered) is checked by the controlled scheduler: after such an overtaking, the overtaken process must enter within 64n of its steps and never wait for another's write. " +
				"SPIN checks it at n = 2 in make verify and at n = 3, k = 2 in make spin-zehavi (an overtaken process may check its wait at most twice more); without line 12 the algorithm first breaks FIFE at n = k + 2 = 4, which only the controlled scheduler reaches (backend/golang TestFIFECheckBites).",
			"At k = 1 (mode = \"mutex\") the grant path never fires: no process finds ALLOW true at line 11b, so line 12's writes are never read " +
				"(the argument follows the paper's Lemma 4, case 4; it is in docs/mutation.md with the mutants of lines 11b and 12 it makes equivalent). " +
				"The mutex variant is Algorithm 1 with lines 1–11a doing all the work; the grants matter from k = 2 on.",
			"SPIN at n = 3, k = 2 (make spin-zehavi: one passage per process, states compressed; 31 minutes, at most 16 GB, 2026-11-27): mutual exclusion, FIFE and starvation freedom pass (195, 388 and 441 million states; about 6, 12 and 13 minutes). " +
				"Starvation freedom is checked as quiescence, a safety search (no reachable state has every process idle or stuck in a wait that repeats itself with memory unchanged), which gives the LTL claim's verdict here because passages are bounded and no loop of the algorithm writes; the LTL claim under weak fairness ran out of memory after 143 million states. " +
				"Crash tolerance at n = 3 (one crash anywhere, the same check) is checked in one SPIN run per process that may crash (make spin-zehavi-crash; each state stored as a 96-bit signature, since the whole search ran out of 21.5 GB after 847 million states): it passes with each of the three processes as the one that may crash: process 0, 760,934,830 states in 59 minutes and 19.5 GB; process 1, 751,650,560 states in 59 minutes and 19.3 GB; process 2, 744,392,690 states in 44 minutes and 19.1 GB (2026-11-28; in each the expected number of states a signature collision skipped is below 4e-12). Together the three runs cover every crash at n = 3. Crashes beyond k − 1 are caught at n = 2 (lab/spin TestQuiescenceCrashBeyondK), and crash tolerance is checked by the controlled scheduler's crash phase (k + 2 goroutines) and, in SPIN, for replace-add and filter. " +
				"Deadlock (invalid end states) cannot fail in this model, since every wait is a busy loop and no process ever blocks; it is left to liveness.",
		},
		Def: zehaviDef,
	})
}

func zehaviDef(Options) *ir.Algorithm {
	q, j, mine, t, cnt := Var("q"), Var("j"), Var("mine"), Var("t"), Var("cnt")
	last := Minus(N, Lit(1))
	sq := func(p ir.Params) int { return p.N * p.N }
	n := func(p ir.Params) int { return p.N }
	// at is row-major X[a][b].
	at := func(name string, a, b ir.Expr) ir.Loc { return Elem(name, Plus(Times(a, N), b)) }
	// order.a < order.b, on the Scan's timestamps and the ids.
	before := func(a, b ir.Expr) ir.Expr { return Lex(VarAt("order", a), a, VarAt("order", b), b) }
	d0, d1 := func(a, b ir.Expr) ir.Loc { return at("DISCOVER0", a, b) }, func(a, b ir.Expr) ir.Loc { return at("DISCOVER1", a, b) }
	discovered := func(a, b ir.Expr) ir.Expr { return And(Read(d0(a, b)), Read(d1(a, b))) }
	undiscovered := func(a, b ir.Expr) ir.Expr { return Or(Not(Read(d0(a, b))), Not(Read(d1(a, b)))) }
	drop := func(l string, x ir.Expr) []ir.Stmt {
		return []ir.Stmt{SetAt(l, "precede", x, False), Set(l, "cnt", Minus(cnt, Lit(1)))}
	}
	return &ir.Algorithm{
		Name: "zehavi",
		Shared: []ir.Shared{
			{Name: "COMPETE", Type: ir.TBool, Len: sq, Doc: "Compete[p][i]: p competes with i for the critical section (local to i in the DSM model)"},
			{Name: "IGNORE", Type: ir.TBool, Len: sq, Doc: "Ignore[p][i]: i must not rely on p's Order<[p][i] yet (local to i)"},
			{Name: "ORDERLT", Type: ir.TBool, Len: sq, Doc: "Order<[p][i]: p's last Scan put p before i (local to i)"},
			{Name: "REVEAL", Type: ir.TBool, Len: n, Owner: "proc", Doc: "Reveal[p]: p is between its doorway's line 5 and its exit's line 13"},
			{Name: "ALLOW", Type: ir.TBool, Len: sq, Doc: "Allow[p][i]: p, enabled, lets i (ordered before it) enter (local to i)"},
			{Name: "DISCOVER0", Type: ir.TBool, Len: sq, Doc: "Discover[p][i][0]: p discovered i revealed (local to i)"},
			{Name: "DISCOVER1", Type: ir.TBool, Len: sq, Doc: "Discover[p][i][1]: the second cell of the same discovery (local to i)"},
			{Name: "TS", Type: ir.TInt, Len: n, Owner: "proc", Doc: "the timestamp system's labels: TS[p] is p's last Label (0: none yet)"},
		},
		Locals: []ir.Local{
			{Name: "mine", Type: ir.TInt, Doc: "the label line 3 takes"},
			{Name: "t", Type: ir.TInt},
			{Name: "order", Type: ir.TInt, Len: n, Doc: "the timestamps line 6's Scan read"},
			{Name: "precede", Type: ir.TBool, Len: n, Doc: "the processes p still waits for"},
			{Name: "cnt", Type: ir.TInt, Doc: "|precede|"},
		},
		Acquire: Code(
			For("1", "q", Lit(0), last, Write("1", at("COMPETE", Self, q), True)),
			For("2", "q", Lit(0), last, Write("2", at("IGNORE", Self, q), True)),
			// Label_p: a timestamp above every one collected.
			Set("3", "mine", Lit(0)),
			For("3", "q", Lit(0), last,
				Set("3", "t", Read(Elem("TS", q))),
				If("3", Gt(t, mine), Set("3", "mine", t)),
			),
			Write("3", Elem("TS", Self), Plus(mine, Lit(1))),
			For("4", "q", Lit(0), last,
				If("4", undiscovered(Self, q),
					Write("4a", d0(Self, q), False),
					Write("4b", d1(Self, q), False),
					Write("4c", at("ALLOW", Self, q), False),
					If("4d", Read(Elem("REVEAL", q)), Write("4d", d0(Self, q), True)),
					If("4e", Read(Elem("REVEAL", q)), Write("4e", d1(Self, q), True)),
					If("4f", undiscovered(Self, q),
						Write("4f.i", d0(Self, q), False),
						Write("4f.ii", d1(Self, q), False),
					),
				),
			),
			Write("5", Elem("REVEAL", Self), True),
			// Scan_p: a collect of the labels.
			For("6", "q", Lit(0), last, SetAt("6", "order", q, Read(Elem("TS", q)))),
			For("7", "q", Lit(0), last, Write("7", at("ORDERLT", Self, q), before(Self, q))),
			For("8", "q", Lit(0), last, Write("8", at("IGNORE", Self, q), False)),
			For("9", "q", Lit(0), last, SetAt("9", "precede", q, False)),
			Set("9", "cnt", Lit(0)),
			For("10", "q", Lit(0), last,
				If("10", before(q, Self),
					SetAt("10", "precede", q, True),
					Set("10", "cnt", Plus(cnt, Lit(1))),
				),
			),
			BusyWhile("11", Ge(cnt, K),
				For("11a", "q", Lit(0), last,
					If("11a.i", And(VarAt("precede", q), Not(Read(at("COMPETE", q, Self)))), drop("11a.i", q)...),
					If("11a.ii", And(VarAt("precede", q), discovered(q, Self), Not(Read(at("IGNORE", q, Self))), Not(Read(at("ORDERLT", q, Self)))),
						drop("11a.ii", q)...),
				),
				For("11b", "q", Lit(0), last,
					If("11b", discovered(q, Self),
						If("11b.i", Read(at("ALLOW", q, Self)),
							For("11b.i", "j", Lit(0), last, SetAt("11b.i", "precede", j, False)),
							Set("11b.i", "cnt", Lit(0)),
						),
					),
				),
			),
			For("12", "q", Lit(0), last,
				If("12", before(q, Self), Write("12", at("ALLOW", Self, q), True)),
			),
		),
		Release: Code(
			Write("13", Elem("REVEAL", Self), False),
			For("14", "q", Lit(0), last,
				Write("14a", d0(q, Self), False),
				Write("14b", d1(q, Self), False),
			),
			For("15", "q", Lit(0), last, Write("15", at("COMPETE", Self, q), False)),
		),
		DoorwayEnd: "10",
	}
}
