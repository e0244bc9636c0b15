package templates

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
)

// Raynal & Taubenfeld's fully anonymous mutex (seed 003, section 9, fig. 12,
// lines 1–19): n processes without ids share an anonymous memory R[1..m] of
// registers initialised to 0; process p_i reaches register R[f_i(x)] when it
// names R_i[x], for a permutation f_i it does not know. A process owns a
// register it set from 0 to its round number by compare&swap (line 7); each
// round it keeps the registers it owns (line 4), grabs what it can (lines
// 5–10), and resigns (lines 12–15) when it owns fewer than m / competitors
// of them, where competitors = n - round + 1 bounds the processes still in
// the race. It enters after round n, owning all m registers. m must lie in
// M(n): no ℓ in 2..n divides it, so no ℓ processes can split the memory
// evenly and stall each other (the memory-anonymity lower bound).
//
// The adversary's permutation is modelled in the process's own state: perm
// is f_i, fixed at the process's first passage (lines A1–A3, ours: not part
// of the algorithm). The environment numbers processes in the order they
// start (a fetch&add on HANDLES, a register the algorithm itself never
// touches) and derives from that number a pseudo-random permutation
// (Fisher–Yates driven by a small linear congruential generator), so every
// process of a lock sees the memory in a different order.
func init() {
	register(&Entry{
		Name:  "anonymous",
		Title: "Raynal & Taubenfeld's fully anonymous mutex (anonymous processes, anonymous memory, CAS)",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 9, fig. 12 (lines 1–19); footnote 4",
				Cite: "M. Raynal, G. Taubenfeld, Mutual exclusion in fully anonymous shared memory systems, Information Processing Letters 158, 2020"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free (m writes, line 18)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "m anonymous registers, m ∈ M(n) (plus HANDLES, which only numbers processes for the simulated adversary)",
			Instructions: []string{"read", "write", "CAS", "fetch&add (only to number processes for the simulated permutations, once per process)"},
			Identity:     "anonymous (processes and memory)",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true, ProcsSizeOnly: true,
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "", nodes.Caller: "",
			nodes.Pool:  "the algorithm has no queue nodes to pool: a process's state is its permutation f_i (fixed for its lifetime) and its local view, kept in a handle or a caller-owned node",
			nodes.Heap:  "the algorithm has no queue nodes to allocate: a process's state is its permutation f_i (fixed for its lifetime) and its local view, kept in a handle or a caller-owned node",
			nodes.Array: "the processes are anonymous: they have no ids to index an array with; each keeps its state in a handle (or a caller-owned node)",
		},
		DefaultNodes: nodes.Handle,
		TryLock:      "a process that resigns (lines 12–15) must wait until every register is 0 before it may compete again, and one that owns registers cannot leave them without the release; the paper has no try path",
		Params: []ParamSpec{{
			Key:      "memory",
			Doc:      "m, the number of anonymous registers; it must lie in M(procs): no ℓ in 2..procs divides m (m = 1, or all prime factors of m above procs)",
			Required: true,
			Default:  3,
			Check:    checkAnonymousMemory,
		}},
		AbortFinitely: "a process that gives up and comes back for ever keeps taking registers at line 7 again, and a process waiting at line 15 for every register to be 0 can find one taken at every scan. SPIN at n = 2 finds the cycle with aborts for ever, and none when every process gives up finitely often",
		AbortNotes: []string{
			"Not in the paper: a process waiting at line 6 leaves as line 14 does when it gives up a round (it releases the registers it owns); one waiting at line 15 owns none any more and leaves at once.",
		},
		Deviations: []string{
			"Indices are 0-based: the process's own view of the memory is R_i[0..m-1] and R_i[x] is R[perm[x]].",
			"The permutation f_i is simulated: lines A1–A3 (not in the paper) run once per process, at its first passage. The process takes a number from HANDLES by fetch&add and builds perm by a Fisher–Yates shuffle driven by the linear congruential generator s := (75·s + 74) mod 65537 seeded with that number. The algorithm never reads HANDLES or the number; it only decides which permutation the adversary hands the process. The k-th process of a lock always gets the same permutation (the IR has no random choice).",
			"Line 7's compare&swap result goes to a local before myview_i[j] (one atomic step: the CAS); line 8 tests that local, which equals myview_i[j].",
			"round, counter, competitors and myview are the paper's local variables, reset at line 1 of every acquire; perm persists across passages (the same process keeps its permutation).",
			"The repeat of lines 2–16 is one loop: its until (line 16, round = n) carries no label of its own.",
			"Line 15 reads R_i[0..m-1] one by one, stopping at the first non-zero register, and repeats the scan until it sees them all 0.",
			"procs only sizes the problem (n in line 11 and the check m ∈ M(n)): at most procs processes (handles or nodes) may compete at once; more break deadlock-freedom (mutual exclusion still holds: entering needs all m registers).",
		},
		Notes: []string{
			"This is the corrected algorithm of the article (Raynal & Taubenfeld 2022, footnote 4): an earlier version of it (Raynal & Taubenfeld, 2020) had a deadlock, found by Buhr and Golab with testing and model checking.",
			"Deadlock-free only: a process can be made to resign for ever. Each passage costs O(n·m) shared accesses even without contention (n rounds over m registers).",
			"M(n) = {m : gcd(ℓ, m) = 1 for all 1 < ℓ ≤ n}. With compare&swap, deadlock-free mutex in a fully anonymous memory is possible if and only if m ∈ M(n) (Raynal & Taubenfeld); m = 1 (a single CAS register, in effect a test-and-set lock) is allowed.",
			"A real anonymous memory would be hardware; here each process is a handle (or caller-owned node) whose state holds its permutation, myview_i, round_i, counter_i and competitors_i.",
		},
		Def: func(Options) *ir.Algorithm {
			j, x, round, counter := Var("j"), Var("x"), Var("round"), Var("counter")
			m := Param("memory")
			last := Minus(m, Lit(1))
			mem := func(i ir.Expr) ir.Loc { return Elem("R", VarAt("perm", i)) } // R_i[i]
			size := func(p ir.Params) int { return int(p.Extra["memory"]) }
			return &ir.Algorithm{
				Name: "anonymous",
				Shared: []ir.Shared{
					{Name: "R", Type: ir.TInt, Len: size,
						Doc: "the anonymous memory R[1..m]: 0, or the round of the process owning the register"},
					{Name: "HANDLES", Type: ir.TInt,
						Doc: "numbers processes for the simulated adversary (lines A1–A3 only)"},
				},
				Locals: []ir.Local{
					{Name: "perm", Type: ir.TInt, Scope: ir.Process, Len: size,
						Doc: "f_i: this process's permutation of the memory (R_i[x] is R[perm[x]])"},
					{Name: "named", Type: ir.TBool, Scope: ir.Process, Doc: "perm has been chosen"},
					{Name: "seed", Type: ir.TInt, Doc: "the adversary's generator (A1–A2)"},
					{Name: "y", Type: ir.TInt},
					{Name: "tmp", Type: ir.TInt},
					{Name: "myview", Type: ir.TBool, Len: size, Doc: "myview_i[x]: this process owns R_i[x]"},
					{Name: "round", Type: ir.TInt, Doc: "round_i"},
					{Name: "counter", Type: ir.TInt, Doc: "counter_i: how many registers this process owns"},
					{Name: "competitors", Type: ir.TInt, Doc: "competitors_i = n - round_i + 1"},
					{Name: "ok", Type: ir.TBool, Doc: "line 7's compare&swap succeeded"},
				},
				Acquire: Code(
					If("A1", Not(Var("named")),
						FetchAdd("A1", "seed", Reg("HANDLES"), Lit(1)),
						For("A2", "x", Lit(0), last, SetAt("A2", "perm", x, x)),
						For("A2", "x", Lit(0), Minus(m, Lit(2)),
							Set("A2", "seed", Mod(Plus(Times(Var("seed"), Lit(75)), Lit(74)), Lit(65537))),
							Set("A2", "y", Plus(x, Mod(Var("seed"), Minus(m, x)))),
							Set("A2", "tmp", VarAt("perm", x)),
							SetAt("A2", "perm", x, VarAt("perm", Var("y"))),
							SetAt("A2", "perm", Var("y"), Var("tmp")),
						),
						Set("A3", "named", True),
					),
					Set("1", "round", Lit(0)),
					Set("1", "counter", Lit(0)),
					For("1", "j", Lit(0), last, SetAt("1", "myview", j, False)),
					Repeat("2", Eq(round, N),
						Set("3", "round", Plus(round, Lit(1))),
						For("4", "j", Lit(0), last,
							If("4", VarAt("myview", j), Write("4", mem(j), round)),
						),
						For("5", "j", Lit(0), last,
							OnAbort(BusyWhile("6", Lt(Read(mem(j)), round),
								CAS("7", "ok", mem(j), Lit(0), round),
								SetAt("7", "myview", j, Var("ok")),
								If("8", Var("ok"), Set("8", "counter", Plus(counter, Lit(1)))),
							), For("14", "x", Lit(0), last, If("14", VarAt("myview", x), Write("14", mem(x), Lit(0)))), Fail("14")),
						),
						Set("11", "competitors", Plus(Minus(N, round), Lit(1))),
						If("12", Lt(Times(counter, Var("competitors")), m),
							Set("13", "round", Lit(0)),
							Set("13", "counter", Lit(0)),
							For("14", "j", Lit(0), last,
								If("14", VarAt("myview", j),
									SetAt("14", "myview", j, False),
									Write("14", mem(j), Lit(0)),
								),
							),
							OnAbort(Await("15", ForAll("j", Lit(0), last, Eq(Read(mem(j)), Lit(0)))), Fail("15")),
						),
					),
				),
				Release: Code(
					For("18", "j", Lit(0), last, Write("18", mem(j), Lit(0))),
				),
			}
		},
	})
}

// checkAnonymousMemory accepts m in M(n) = {m : gcd(ℓ, m) = 1 for 1 < ℓ ≤ n}.
func checkAnonymousMemory(m int64, n int) error {
	const maxMemory = 4096
	if m < 1 || m > maxMemory {
		return fmt.Errorf("m must be between 1 and %d, and in M(%d); the smallest valid values are %s", maxMemory, n, smallestInM(n, 6))
	}
	for l := int64(2); l <= int64(n); l++ {
		if m%l == 0 {
			return fmt.Errorf("m = %d is not in M(%d): %d divides it (m must share no factor with any of 2..%d); the smallest valid values are %s", m, n, l, n, smallestInM(n, 6))
		}
	}
	return nil
}

// smallestInM lists the k smallest members of M(n).
func smallestInM(n, k int) string {
	var out []string
	for m := 1; len(out) < k; m++ {
		ok := true
		for l := 2; l <= n && ok; l++ {
			ok = m%l != 0
		}
		if ok {
			out = append(out, fmt.Sprint(m))
		}
	}
	return strings.Join(out, ", ")
}
