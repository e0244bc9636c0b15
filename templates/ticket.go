package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// The ticket lock: fetch&increment hands out tickets, a second counter
// calls them in order. Raynal's book lists it under the increment
// instruction (chapter 3.2.4); Mellor-Crummey & Scott give the form used
// here. The labels T1–T3 are ours: the seeds only name the algorithm.
func init() {
	register(&Entry{
		Name:  "ticket",
		Title: "ticket lock (fetch&increment)",
		Refs: []Ref{
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 3.2.4 (increment instruction)",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
			{Where: "section 2.2, the ticket lock",
				Cite: "J. M. Mellor-Crummey, M. L. Scott, Algorithms for scalable synchronization on shared-memory multiprocessors, ACM TOCS 9(1), 1991"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "wait-free",
			RMRCC: "O(n)", RMRDSM: "unbounded", Space: "2 registers",
			Instructions: []string{"read", "write", "fetch&increment", "CAS (try-lock only)"},
			Identity:     "anonymous",
		},
		Modes:   []mode.Mode{mode.Mutex},
		NoAbort: "a drawn ticket must be served: NOW passes to the next ticket only when its holder releases (line T3), so a process that left after line T1 would leave its ticket in the queue and every later ticket would wait for it for ever; undoing the fetch&add is impossible once a later process has drawn",
		Deviations: []string{
			"NEXT and NOW are unbounded 64-bit counters; they wrap after 2^63 passages, which no program reaches.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "ticket",
				Shared: []ir.Shared{
					{Name: "NEXT", Type: ir.TInt, Doc: "the next ticket to hand out"},
					{Name: "NOW", Type: ir.TInt, Doc: "the ticket being served"},
				},
				Locals: []ir.Local{
					{Name: "my", Type: ir.TInt, Doc: "this passage's ticket"},
					{Name: "now", Type: ir.TInt},
					{Name: "ok", Type: ir.TBool},
				},
				Acquire: Code(
					FetchAdd("T1", "my", Reg("NEXT"), Lit(1)),
					Await("T2", Eq(Read(Reg("NOW")), Var("my"))),
				),
				Release: Code(
					Write("T3", Reg("NOW"), Plus(Read(Reg("NOW")), Lit(1))),
				),
				TryAcquire: Code(
					Set("TT1", "now", Read(Reg("NOW"))),
					CAS("TT2", "ok", Reg("NEXT"), Var("now"), Plus(Var("now"), Lit(1))),
					If("TT3", Not(Var("ok")), Fail("TT3")),
				),
				DoorwayEnd: "T1",
			}
		},
	})
}
