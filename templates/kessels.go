package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Kessels' tournament (seed 003, section 5 and fig. 5): a binary tree of
// two-process locks embedded in an array, LOCK[1] the root and LOCK[x]'s
// children LOCK[2x] and LOCK[2x+1]. Process i starts at leaf n+i and climbs
// to the root, winning one two-process lock per node; it releases from the
// root down along the path it climbed.
//
// Each node is Kessels' two-process arbitration, which uses single-writer
// variables only: the side c ∈ {0, 1} of node x owns Q[x][c] and R[x][c].
// Side c raises Q, sets R[c] so that (R[0] + R[1]) mod 2 names side 1-c as
// the one to give way (Peterson's "after you" without a shared turn), and
// waits while the other side is interested and the turn says so. The seed
// gives no code (fig. 5 is only the tree); the node code follows Kessels'
// paper, the labels K1–K6 are ours.
func init() {
	register(&Entry{
		Name:  "kessels",
		Title: "Kessels' tournament tree of two-process single-writer arbiters",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 5, fig. 5 (the tournament tree)",
				Cite: "J. L. W. Kessels, Arbitration without common modifiable variables, Acta Informatica 17(2), 1982"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 4.5"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "none", Exit: "wait-free (one write per level)",
			RMRCC: "unbounded (O(log n) without contention)", RMRDSM: "unbounded",
			Space:        "4(n-1) single-writer bits (Q and R per side of each of the n-1 nodes)",
			Instructions: []string{"read", "write"},
			Identity:     "ids",
		},
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "a process waiting at a node cannot withdraw from the nodes below it without waiting there; the paper has no try path",
		AbortNotes: []string{
			"Not in the paper: a process waiting at K5 at some node leaves as the exit does from that node down: it lowers its Q at that node and at each node below on its path (the exit's K6 loop, started at the node instead of the root), at most one write per level of the tree.",
		},
		Deviations: []string{
			"Any n ≥ 2, not only powers of two: the tree is the heap-ordered array of 2n-1 vertices, leaves n..2n-1 (process i at leaf n+i), internal nodes LOCK[1..n-1], each with exactly two children. For n a power of two this is fig. 5's complete tree; otherwise the leaves lie on two adjacent levels (⌊log2 n⌋ or ⌈log2 n⌉ nodes to climb).",
			"Process ids are 0..n-1 (the paper's 1..n). Node x's two sides are c = 0 (coming from child 2x) and c = 1 (from 2x+1); Q[x][c] and R[x][c] are the registers Q[2x+c] and R[2x+c] of two flat arrays (index 0 and 1 unused).",
			"R bits are integers 0/1; the side-c test \"R[c] = (R[1-c] + c) mod 2\" is the paper's r0 = r1 (side 0) and r1 ≠ r0 (side 1) written once for both sides. Side c compares with its local copy of the value it wrote to R[c] (only it writes R[c] while it is at the node).",
			"Single-writer holds per node side, not per process: whichever process currently holds the lock of child 2x+c is the only writer of Q[x][c] and R[x][c].",
			"The labels K1–K6 are ours: neither Raynal 1986 (our copy has its contents only) nor Raynal & Taubenfeld 2022 gives the code.",
		},
		Notes: []string{
			"Starvation-free because each node is (Kessels' two-process arbiter is starvation-free, and a process waits at one node at a time); not FIFO. Without contention a passage reads and writes O(log n) registers.",
		},
		Def: func(Options) *ir.Algorithm {
			node, side, r := Var("node"), Var("side"), Var("r")
			mine := Plus(Times(Lit(2), node), side)                 // 2x + c
			other := Plus(Times(Lit(2), node), Minus(Lit(1), side)) // 2x + 1-c
			turn := Mod(Plus(Read(Elem("R", other)), side), Lit(2))
			return &ir.Algorithm{
				Name: "kessels",
				Shared: []ir.Shared{
					{Name: "Q", Type: ir.TBool, Len: func(p ir.Params) int { return 2 * p.N },
						Doc: "Q[2x+c]: side c of node x is interested (written by that side only)"},
					{Name: "R", Type: ir.TInt, Len: func(p ir.Params) int { return 2 * p.N },
						Doc: "R[2x+c]: side c's turn bit (written by that side only)"},
				},
				Locals: []ir.Local{
					{Name: "node", Type: ir.TInt, Doc: "the vertex being climbed (or descended)"},
					{Name: "side", Type: ir.TInt, Doc: "which child of node the process came from"},
					{Name: "r", Type: ir.TInt, Doc: "the turn bit this process wrote at the node"},
					{Name: "path", Type: ir.TInt, Scope: ir.Passage, Len: func(p ir.Params) int { return p.N },
						Doc: "path[x]: the side taken at node x (read by the release)"},
				},
				Acquire: Code(
					Set("K1", "node", Plus(N, Self)),
					While("K1", Gt(node, Lit(1)),
						Set("K2", "side", Mod(node, Lit(2))),
						Set("K2", "node", Div(node, Lit(2))),
						SetAt("K2", "path", node, side),
						Write("K3", Elem("Q", mine), True),
						Set("K4", "r", turn),
						Write("K4", Elem("R", mine), r),
						OnAbort(Await("K5", Or(Eq(Read(Elem("Q", other)), False), Ne(r, turn))), While("K6", Lt(node, N), Set("K6", "side", VarAt("path", node)), Write("K6", Elem("Q", mine), False), Set("K6", "node", mine)), Fail("K6")),
					),
				),
				Release: Code(
					Set("K6", "node", Lit(1)),
					While("K6", Lt(node, N),
						Set("K6", "side", VarAt("path", node)),
						Write("K6", Elem("Q", mine), False),
						Set("K6", "node", mine),
					),
				),
			}
		},
	})
}
