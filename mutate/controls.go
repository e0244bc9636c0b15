package mutate

import (
	"fmt"
	"maps"
	"slices"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Control is a named negative control: a known-wrong lock, most of them a
// one-line change to a catalogue definition that a paper warns against.
// verify must catch every one of them, in the layers and for the reasons
// recorded here (lab/mutation's tests hold it to that).
type Control struct {
	Name   string // short, stable: "dt1-one-node"
	Title  string
	Source string // where the mistake is described
	Why    string // how it goes wrong, in the paper's terms
	Change string // the change to the definition

	Entry   *templates.Entry `json:"-"` // the entry the lock is lowered as
	Options templates.Options
	Alg     *ir.Algorithm `json:"-"`

	// Explore: the extra verify.ExploreOption expressions (Go source)
	// the controlled scheduler needs, the failure kind it must report and
	// labels its interleaving must show.
	ExploreOptions []string
	ExploreNoFIFO  bool // explore without the lock's FIFO claim (a smaller search)
	// SpinOnly, when set, says why the controlled scheduler does not check
	// the control (yet): the abort controls, until the Go backend lowers
	// abort code.
	SpinOnly string
	// ExploreKind is the failure Explore must report; alternatives are
	// joined by " or " where the strategy's random schedules may end a
	// stuck run either way (waiters parked for good: a deadlock; one
	// still polling: no progress).
	ExploreKind   string
	ExploreLabels []string
	// SPIN: the number of processes, the property that catches the
	// control, pan's failure ("assertion violated", "invalid end state",
	// "acceptance cycle", ...) and labels its trail must show.
	SpinN        int
	SpinProperty string
	SpinFailure  string
	SpinLabels   []string
}

// Controls builds the named negative controls from the current catalogue
// definitions. It fails when a definition no longer has the shape a
// control changes (the control would silently test something else).
func Controls() ([]Control, error) {
	var out []Control
	for _, f := range []func() (Control, error){
		dt1OneNode, dt1Swap67, dt1StatusAfterTest, dt2Unlocked, mcsNoExitWait, testThenSet, hyman,
		clhTryLeaveReachable, clhTryUnlinkEarly, lamportFastAbortR72, mcsTryNoStep4,
	} {
		c, err := f()
		if err != nil {
			return nil, err
		}
		if err := ir.Check(c.Alg); err != nil {
			return nil, fmt.Errorf("control %s: %w", c.Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func entryDef(name string) (*templates.Entry, templates.Options, *ir.Algorithm, error) {
	e, ok := templates.Lookup(name)
	if !ok {
		return nil, templates.Options{}, nil, fmt.Errorf("controls: no catalogue entry %q", name)
	}
	o := e.AllOptions()[0]
	return e, o, e.MustDef(o), nil
}

// find returns the path of the single statement of code satisfying ok.
func find(code ir.Code, what string, ok func(ir.Stmt) bool) ([]ir.ListPos, int, error) {
	var hits [][]ir.ListPos
	var idx []int
	ir.WalkLists(code, nil, func(path []ir.ListPos, list ir.Code) {
		for i, s := range list {
			if ok(s) {
				hits = append(hits, path)
				idx = append(idx, i)
			}
		}
	})
	if len(hits) != 1 {
		return nil, 0, fmt.Errorf("controls: %d statements are %s, want exactly one", len(hits), what)
	}
	return hits[0], idx[0], nil
}

func labelled(l string, kind ir.Stmt) func(ir.Stmt) bool {
	return func(s ir.Stmt) bool {
		return s.Label() == l && fmt.Sprintf("%T", s) == fmt.Sprintf("%T", kind)
	}
}

const dt1Source = "Dvir & Taubenfeld, OPODIS 2017, section 3.3"

// dt1OneNode: algorithm 1 with one node per process (section 3.3, item 1).
func dt1OneNode() (Control, error) {
	e, o, a, err := entryDef("dvir-taubenfeld-1")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	if len(b.Procs) != 1 || b.Procs[0].Count != 2 {
		return Control{}, fmt.Errorf("controls: dvir-taubenfeld-1 no longer has two nodes per process")
	}
	b.Procs[0].Count = 1
	// Line 1 picks the node, in the acquire and the try-acquire alike.
	for _, op := range []*ir.Code{&b.Acquire, &b.TryAcquire} {
		if *op == nil {
			continue
		}
		path, i, err := find(*op, "line 1 (mynode := &q_p[current])", labelled("1", ir.Set{}))
		if err != nil {
			return Control{}, err
		}
		*op = ir.EditList(*op, path, func(c ir.Code) ir.Code {
			s := c[i].(ir.Set)
			s.Val = dsl.Own("q", dsl.Lit(0))
			return ir.ReplaceStmt(c, i, s)
		})
	}
	return Control{
		Name: "dt1-one-node", Title: "Dvir–Taubenfeld algorithm 1 with one node per process",
		Source: dt1Source + ", item 1",
		Why: "p exits while its successor q has swapped T but not yet linked itself (line 7); p starts again on the same node, " +
			"and a new successor q' links itself behind p's second passage; q's late link at line 7 then overwrites q' in p's node's next, " +
			"so nobody ever releases q', which waits at line 9 forever",
		Change: "q_p has 1 node instead of 2; line 1 (of the acquire and the try-acquire) is mynode := &q_p[0]",
		Entry:  e, Options: o, Alg: b,
		ExploreOptions: []string{"verify.ExploreGoroutines(3)", "verify.ExplorePassages(2)", "verify.ExplorePCT(4000, 4)"},
		ExploreKind:    "deadlock", ExploreLabels: []string{"[7]", "[9]"},
		SpinN: 3, SpinProperty: "deadlock", SpinFailure: "invalid end state", SpinLabels: []string{"line 7", "line 9"},
	}, nil
}

// dt1Swap67: lines 6 and 7 of algorithm 1 swapped (section 3.3, item 2).
func dt1Swap67() (Control, error) {
	e, o, a, err := entryDef("dvir-taubenfeld-1")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Acquire, "line 6 (mynode.locked := true)", labelled("6", ir.Write{}))
	if err != nil {
		return Control{}, err
	}
	b.Acquire = ir.EditList(b.Acquire, path, func(c ir.Code) ir.Code {
		if i+1 >= len(c) || c[i+1].Label() != "7" {
			err = fmt.Errorf("controls: dvir-taubenfeld-1 line 7 no longer follows line 6")
			return c
		}
		c = append(ir.Code(nil), c...)
		c[i], c[i+1] = c[i+1], c[i]
		return c
	})
	if err != nil {
		return Control{}, err
	}
	return Control{
		Name: "dt1-swap-6-7", Title: "Dvir–Taubenfeld algorithm 1 with lines 6 and 7 swapped",
		Source: dt1Source + ", item 2",
		Why: "p links itself behind q (line 7) before setting its own locked (line 6); q exits, sees its successor and clears p's locked " +
			"(line 15); p then sets locked := true at line 6, erasing q's signal, and waits at line 9 forever",
		Change: "swap (6) mynode.locked := true and (7) pred.next := mynode",
		Entry:  e, Options: o, Alg: b,
		ExploreKind: "deadlock", ExploreLabels: []string{"[6]", "[7]", "[9]", "[15]"},
		SpinN: 2, SpinProperty: "deadlock", SpinFailure: "invalid end state", SpinLabels: []string{"line 6", "line 9", "line 15"},
	}, nil
}

// dt1StatusAfterTest: line 10 moved after the test of line 11 (section
// 3.3, item 3).
func dt1StatusAfterTest() (Control, error) {
	e, o, a, err := entryDef("dvir-taubenfeld-1")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	if len(b.Release) < 2 {
		return Control{}, fmt.Errorf("controls: dvir-taubenfeld-1's exit changed shape")
	}
	w, ok1 := b.Release[0].(ir.Write)
	test, ok2 := b.Release[1].(ir.If)
	if !ok1 || !ok2 || w.Label() != "10" || test.Label() != "11" || len(test.Else) == 0 {
		return Control{}, fmt.Errorf("controls: dvir-taubenfeld-1's exit no longer starts with line 10 then the test of line 11")
	}
	test.Then = append(ir.Code{w}, test.Then...)
	test.Else = append(ir.Code{ir.CloneStmt(w)}, test.Else...)
	b.Release = append(ir.Code{test}, b.Release[2:]...)
	return Control{
		Name: "dt1-status-after-test", Title: "Dvir–Taubenfeld algorithm 1 with the status write of line 10 after the test of line 11",
		Source: dt1Source + ", item 3",
		Why: "q finds next = NIL at line 11 (p has not linked itself yet); p links itself (line 7), fails its CAS on q's still LOCKED status " +
			"(line 8) and waits at line 9; q then writes UNLOCKED and resets T (line 12) without signalling p, who waits for ever",
		Change: "(10) mynode.status := UNLOCKED moved into both branches of (11) if mynode.next = NIL, after the test",
		Entry:  e, Options: o, Alg: b,
		ExploreKind: "deadlock", ExploreLabels: []string{"[11]", "[8]", "[9]"},
		SpinN: 2, SpinProperty: "deadlock", SpinFailure: "invalid end state", SpinLabels: []string{"line 11", "line 8", "line 9"},
	}, nil
}

// dt2Unlocked: algorithm 2 with UNLOCKED in place of the process id at
// lines 2, 11 and 13 (section 4.3, item 3).
func dt2Unlocked() (Control, error) {
	e, o, a, err := entryDef("dvir-taubenfeld-2")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	// The identity the entry writes and compares: p = Self + 1.
	isID := func(x ir.Expr) bool {
		bn, ok := x.(ir.Bin)
		if !ok || bn.Op != ir.Add {
			return false
		}
		_, self := bn.X.(ir.Self)
		c, one := bn.Y.(ir.Const)
		return self && one && c.V == 1
	}
	unlocked := ir.Const{V: 1, Name: "UNLOCKED"}
	replaced := map[string]bool{} // the labels where the id was replaced
	rewrite := func(code ir.Code) ir.Code {
		var out ir.Code
		walkAll(code, func(s ir.Stmt) ir.Stmt {
			switch l := s.Label(); l {
			case "2", "11", "13":
				return ir.MapStmtExprs(s, func(x ir.Expr) ir.Expr {
					return ir.MapExpr(x, func(y ir.Expr) (ir.Expr, bool) {
						if isID(y) {
							replaced[l] = true
							return unlocked, true
						}
						return nil, false
					})
				})
			}
			return s
		}, &out)
		return out
	}
	b.Acquire, b.Release = rewrite(b.Acquire), rewrite(b.Release)
	if len(replaced) != 3 {
		return Control{}, fmt.Errorf("controls: dvir-taubenfeld-2: replaced the id at lines %v, want 2, 11 and 13", slices.Sorted(maps.Keys(replaced)))
	}
	return Control{
		Name: "dt2-unlocked", Title: "Dvir–Taubenfeld algorithm 2 with UNLOCKED in place of the process id (lines 2, 11, 13)",
		Source: "Dvir & Taubenfeld, OPODIS 2017, section 4.3, item 3",
		Why: "p, its exit past line 12, and its successor q, back in its next passage on p's old QNode, share that QNode; with a constant " +
			"instead of ids, p's CAS at line 13 succeeds on the status q wrote at line 11 — in the paper the queue is left with a dummy " +
			"whose status is ZERO and the next process spins at line 10 for ever; here line 14 (split into single accesses as section 4.2 " +
			"prescribes) first re-reads q_p.qnode.next, which q has reset to NIL, and dereferences it",
		Change: "the identity Self+1 replaced by the constant UNLOCKED at lines 2, 11 and 13",
		Entry:  e, Options: o, Alg: b,
		// Three preemptions in a 2 × 2 configuration (q's CAS at line 9
		// after p's line 11, p stopped before line 13, q stopped after
		// its second line 11): random and PCT need hundreds of thousands
		// of executions; the preemption-bounded search finds it
		// deterministically after about 125,000 schedules (~25 s).
		ExploreOptions: []string{"verify.ExploreRandom(0)", "verify.ExplorePCT(0, 4)", "verify.ExploreDFS(3)",
			"verify.ExploreDFSLimit(2000000)", "verify.ExploreBudget(5*time.Minute)"},
		ExploreNoFIFO: true,
		ExploreKind:   "panic", ExploreLabels: []string{"[11]", "[13]", "[14]"},
		SpinN: 2, SpinProperty: "mutual-exclusion", SpinFailure: "invalid array index", SpinLabels: []string{"line 13", "line 14"},
	}, nil
}

// walkAll rebuilds code with f applied to every statement, nested ones
// included (children first).
func walkAll(code ir.Code, f func(ir.Stmt) ir.Stmt, out *ir.Code) {
	for _, s := range code {
		switch st := s.(type) {
		case ir.If:
			var t, e ir.Code
			walkAll(st.Then, f, &t)
			walkAll(st.Else, f, &e)
			st.Then, st.Else = t, e
			s = st
		case ir.While:
			var b ir.Code
			walkAll(st.Body, f, &b)
			st.Body = b
			s = st
		case ir.Repeat:
			var b ir.Code
			walkAll(st.Body, f, &b)
			st.Body = b
			s = st
		case ir.For:
			var b ir.Code
			walkAll(st.Body, f, &b)
			st.Body = b
			s = st
		}
		*out = append(*out, f(s))
	}
}

// mcsNoExitWait: MCS without its exit wait (line 14).
func mcsNoExitWait() (Control, error) {
	e, o, a, err := entryDef("mcs")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Release, "line 14 (await mynode.next ≠ NIL)", labelled("14", ir.Await{}))
	if err != nil {
		return Control{}, err
	}
	b.Release = ir.EditList(b.Release, path, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i) })
	return Control{
		Name: "mcs-no-exit-wait", Title: "MCS without the exit's wait for the successor to link itself (line 14)",
		Source: "Raynal & Taubenfeld, TCS 2022 (after Mellor-Crummey & Scott, TOCS 1991), section 8.2, fig. 11, lines 13–16",
		Why: "the releaser's CAS at line 13 fails because a successor has swapped TAIL (line 3) but not yet linked itself (line 6); " +
			"without line 14 the releaser reads next = NIL at line 15 and dereferences it at line 16 (the successor is never signalled)",
		Change: "delete (14) await mynode.next ≠ ⊥",
		Entry:  e, Options: o, Alg: b,
		ExploreKind: "panic", ExploreLabels: []string{"[13]", "[15]"},
		SpinN: 2, SpinProperty: "mutual-exclusion", SpinFailure: "invalid array index", SpinLabels: []string{"line 13", "line 15"},
	}, nil
}

// testThenSet is a lock whose test and set are two steps: the mistake
// test-and-set exists to avoid.
func testThenSet() (Control, error) {
	free, busy := dsl.Named("FREE", 0), dsl.Named("BUSY", 1)
	a := &ir.Algorithm{
		Name:   "test-then-set",
		Shared: []ir.Shared{{Name: "L", Type: ir.TInt, Doc: "FREE (0) or BUSY (1)"}},
		Acquire: dsl.Code(
			dsl.Await("1", dsl.Eq(dsl.Read(dsl.Reg("L")), free)),
			dsl.Write("2", dsl.Reg("L"), busy),
		),
		Release: dsl.Code(
			dsl.Write("3", dsl.Reg("L"), free),
		),
	}
	e := EntryFor(a)
	e.Title = "test-then-set (incorrect)"
	e.Incorrect = "the test (line 1) and the set (line 2) are two steps: two processes can both see FREE and both enter"
	return Control{
		Name: "test-then-set", Title: "A test-then-set lock: a load and a store instead of one test-and-set",
		Source: "the mistake test-and-set (Raynal & Taubenfeld, TCS 2022, section 2) exists to avoid",
		Why:    "two processes both read L = FREE at line 1 before either writes BUSY at line 2, and both enter",
		Change: "test-and-set's swap split into await L = FREE; L := BUSY",
		Entry:  e, Options: templates.Options{Mode: mode.Mutex}, Alg: a,
		ExploreKind: "mutual exclusion", ExploreLabels: []string{"[1]", "[2]"},
		SpinN: 2, SpinProperty: "mutual-exclusion", SpinFailure: "assertion violated", SpinLabels: []string{"line 1", "line 2"},
	}, nil
}

// hyman is the catalogue's Hyman entry, registered as incorrect.
func hyman() (Control, error) {
	e, o, a, err := entryDef("hyman")
	if err != nil {
		return Control{}, err
	}
	if e.Incorrect == "" {
		return Control{}, fmt.Errorf("controls: hyman is no longer registered as incorrect")
	}
	return Control{
		Name: "hyman", Title: "Hyman's algorithm (1966), registered as incorrect",
		Source: "Hyman, CACM 9(1), 1966; Knuth's counterexample, CACM 9(5), 1966; Raynal, Algorithms for Mutual Exclusion, 1986, section 2.4",
		Why:    e.Incorrect,
		Change: "none: the catalogue's definition",
		Entry:  e, Options: o, Alg: a.Clone(),
		ExploreKind: "mutual exclusion", ExploreLabels: []string{"[C1]", "[C3]"},
		SpinN: 2, SpinProperty: "mutual-exclusion", SpinFailure: "assertion violated", SpinLabels: []string{"line C1", "line C3"},
	}, nil
}

// The abort controls: the classic mistakes of abort code, caught by SPIN
// and, where the entry is abortable, by the controlled scheduler through
// LockContext, whose context it cancels.

// spinOnlyMCSTry is why MCS-try's control has no Explore expectation: the
// entry's own abort code fails the checks, so LockContext is not
// generated for it and the lock Explore would see is the plain one.
const spinOnlyMCSTry = "mcs-try's abort code fails SPIN (templates: AbortIncorrect): LockContext is not generated for it, so the controlled scheduler sees the plain lock"

// abortCode returns the abort code of the single wait of code labelled l.
func abortCode(code ir.Code, l string) (ir.Code, error) {
	var out ir.Code
	n := 0
	ir.WalkStmts(code, func(s ir.Stmt) {
		if abort, ok := ir.AbortOf(s); ok && s.Label() == l {
			out = abort
			n++
		}
	})
	if n != 1 {
		return nil, fmt.Errorf("controls: %d waits labelled %s with abort code, want exactly one", n, l)
	}
	return out, nil
}

// clhTryLeaveReachable: CLH-try whose leaver goes once it has marked its
// node leaving, without swinging TAIL back (lines 18–19) or waiting for
// its successor's handshake (line 20).
func clhTryLeaveReachable() (Control, error) {
	e, o, a, err := entryDef("clh-try")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Acquire, "line 18 (ok := CAS(TAIL, mynode, pred))", labelled("18", ir.CAS{}))
	if err != nil {
		return Control{}, err
	}
	b.Acquire = ir.EditList(b.Acquire, path, func(c ir.Code) ir.Code {
		if i+2 >= len(c) || c[i+1].Label() != "19" || c[i+2].Label() != "20" {
			err = fmt.Errorf("controls: clh-try's abort no longer has lines 18, 19 and 20 in a row")
			return c
		}
		return append(append(ir.Code(nil), c[:i]...), c[i+3:]...)
	})
	if err != nil {
		return Control{}, err
	}
	return Control{
		Name: "clh-try-leave-reachable", Title: "CLH-try whose leaver goes while its node is still in the queue",
		Source: "Scott & Scherer, PPoPP 2001, section 3.1: a leaver must unlink its node or have its successor recycle it before it goes",
		Why: "a waiter gives up, marks its node leaving (line 16) and returns at once: its node is still TAIL or the node its successor " +
			"spins on; the successor reads the node's prev and marks it recycled (line 8) after its owner has reused it for a new attempt " +
			"(line 1 writes waiting), or TAIL still names it, so a newcomer queues behind a node whose owner is no longer there",
		Change: "delete lines 18–20 of the abort: no CAS of TAIL back to the predecessor, no wait for the successor's recycled mark",
		Entry:  e, Options: o, Alg: b,
		ExploreKind: "deadlock or no progress", ExploreLabels: []string{"[5]", "[16]"},
		SpinN: 2, SpinProperty: "abort-starvation-freedom", SpinFailure: "acceptance cycle", SpinLabels: []string{"line 16", "line 21"},
	}, nil
}

// clhTryUnlinkEarly: CLH-try whose leaver, when others stand behind it,
// goes without waiting for its successor's recycled mark (line 20).
func clhTryUnlinkEarly() (Control, error) {
	e, o, a, err := entryDef("clh-try")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Acquire, "line 20 (await mynode.status = recycled)", labelled("20", ir.Await{}))
	if err != nil {
		return Control{}, err
	}
	b.Acquire = ir.EditList(b.Acquire, path, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i) })
	return Control{
		Name: "clh-try-unlink-early", Title: "CLH-try whose leaver goes while its successor still spins on its node",
		Source: "Scott & Scherer, PPoPP 2001, section 3.1: a leaver in the middle of the queue waits for its successor to mark its node recycled",
		Why: "a waiter with a successor gives up: its CAS of TAIL fails (line 18) and, without line 20, it restores its predecessor (line 21) " +
			"and returns while the successor is still spinning on its node; it reuses the node for its next attempt (line 1 writes waiting " +
			"over leaving), so the successor never skips it; with three processes they end up waiting at line 17 for marks nobody will clear",
		Change: "delete (20) await mynode.status = recycled",
		Entry:  e, Options: o, Alg: b,
		// Under the scheduler the waiters left on the abandoned node wait
		// for ever: parked (a deadlock) or polling (no progress), as the
		// schedule has it.
		ExploreKind: "deadlock or no progress", ExploreLabels: []string{"[18]", "[21]"},
		// A leaver with a successor needs three processes.
		SpinN: 3, SpinProperty: "abort-deadlock", SpinFailure: "invalid end state", SpinLabels: []string{"line 18", "line 21", "line 17"},
	}, nil
}

// lamportFastAbortR72: Lamport's fast mutex giving up at R7.2 too.
func lamportFastAbortR72() (Control, error) {
	e, o, a, err := entryDef("lamport-fast")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Acquire, "line R7.2 (await every flag down)", labelled("R7.2", ir.Await{}))
	if err != nil {
		return Control{}, err
	}
	b.Acquire = ir.EditList(b.Acquire, path, func(c ir.Code) ir.Code {
		return ir.ReplaceStmt(c, i, ir.WithAbort(c[i], ir.Code{ir.Fail{At: ir.At{L: "R7.2"}}}))
	})
	return Control{
		Name: "lamport-fast-abort-r7.2", Title: "Lamport's fast mutex giving up at R7.2",
		Source: "Raynal & Taubenfeld, TCS 2022, section 7, \"Abortable mutex\": only the waits of R3 and R7.4 may become return(⊥)",
		Why: "a process that lost the race at line 5 has written Y = i at line 4; giving up at R7.2 leaves Y = i for good (only the exit, " +
			"line 11, resets it), so every other process finds Y ≠ ⊥ at line 2 and waits at R3 for ever",
		Change: "the wait at R7.2 gets the abort code return(⊥)",
		Entry:  e, Options: o, Alg: b,
		ExploreKind: "deadlock", ExploreLabels: []string{"[R7.2]", "[R3]"},
		SpinN: 2, SpinProperty: "abort-deadlock-freedom-finite", SpinFailure: "acceptance cycle", SpinLabels: []string{"line 4", "line R7.2", "line R3"},
	}, nil
}

// mcsTryNoStep4: MCS-try whose leaver never tells its predecessor it is
// leaving (the swaps of step 4).
func mcsTryNoStep4() (Control, error) {
	e, o, a, err := entryDef("mcs-try")
	if err != nil {
		return Control{}, err
	}
	b := a.Clone()
	path, i, err := find(b.Acquire, "step 4's swap of the predecessor's next", func(s ir.Stmt) bool {
		f, ok := s.(ir.If)
		if !ok || f.Label() != "S4" || len(f.Then) != 1 {
			return false
		}
		_, swap := f.Then[0].(ir.Swap)
		return swap
	})
	if err != nil {
		return Control{}, err
	}
	b.Acquire = ir.EditList(b.Acquire, path, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i) })
	return Control{
		Name: "mcs-try-no-step-4", Title: "MCS-try whose leaver does not tell its predecessor (step 4)",
		Source: "Scott & Scherer, PPoPP 2001, section 3.2: a leaver replaces the pointers into and out of its node before it goes",
		Why: "the leaver's node stays its predecessor's next, and the predecessor's release hands the lock to it (line X7) while its owner, " +
			"which never said it was leaving, swings L back (line S5) and at step 6 takes the granted mark for a new successor's pointer " +
			"and follows it: a nil dereference here (in the paper a wild write), the lock handed to nobody",
		Change: "delete step 4 (n := FAS(pred.next, …)) of the abort",
		Entry:  e, Options: o, Alg: b,
		SpinOnly: spinOnlyMCSTry,
		SpinN:    2, SpinProperty: "abort-deadlock", SpinFailure: "invalid array index", SpinLabels: []string{"line X7", "line S5", "line S6"},
	}, nil
}
