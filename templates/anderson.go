package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Anderson's array lock (seed 003, section 8.1, fig. 10, lines 1–6):
// fetch&increment hands out tickets, and the holder of ticket t waits on
// its own slot VALID[t mod n] until its predecessor sets it. The n slots
// only size the ring: processes need no ids, but at most n may use the lock
// at once (ProcsSizeOnly), since ticket t and ticket t+n share a slot.
func init() {
	n := N
	slot := func(e ir.Expr) ir.Loc { return Elem("VALID", Mod(e, n)) }
	t := Var("ticket")
	register(&Entry{
		Name:  "anderson",
		Title: "Anderson's array-based queue lock",
		Refs: []Ref{
			{Seed: "003_dcb666bc0349e074.txt", Where: "section 8.1, fig. 10 (lines 1–6)",
				Cite: "T. E. Anderson, The performance of spin lock alternatives for shared-memory multiprocessors, IEEE TPDS 1(1), 1990 (reference [1] of Dvir & Taubenfeld 2017)"},
		},
		Props: Properties{
			Liveness: "starvation-free", Fairness: "FIFO", Exit: "wait-free (two writes)",
			RMRCC: "O(1)", RMRDSM: "unbounded",
			Space:        "n bits + TICKET",
			Instructions: []string{"read", "write", "fetch&increment", "CAS (try-lock only)"},
			Identity:     "anonymous (procs bounds how many processes use the lock at once)",
		},
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		ProcsSizeOnly: true,
		NoAbort:       "a drawn slot must be served, as a ticket must: the predecessor's release sets VALID[(ticket + 1) mod n] for exactly this ticket (line 5), and only its holder's release passes it on, so a process that left after line 1 would strand every later ticket",
		Deviations: []string{
			"procs is the paper's n: it sizes VALID, and the generated lock keeps the paper's assumption that at most n processes use it at once (ticket t and ticket t+n share a slot). The API is Lock()/Unlock(); more than procs concurrent callers break mutual exclusion, and nothing checks it.",
			"TICKET is an unbounded 64-bit counter (the paper lets it grow forever); ticket mod n is computed at each use. It wraps after 2^63 passages, which no program reaches.",
			"VALID holds booleans (the paper's bits): true is 1.",
			"TryLock is not in the paper: it reads TICKET = t and VALID[t mod n]; if the slot is set it takes ticket t with CAS(TICKET, t, t+1) and enters. The CAS fails if anyone took a ticket meanwhile, and with at most n processes a set VALID[t mod n] can only have been set for ticket t.",
		},
		Notes: []string{
			"RMR: in the CC model a process spins on its cached copy of VALID[ticket mod n], which changes once (line 5 of its predecessor); in the DSM model that slot lives in no particular process's memory, so the spinning is remote.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "anderson",
				Shared: []ir.Shared{
					{Name: "TICKET", Type: ir.TInt, Doc: "the next ticket (fetch&increment only)"},
					{Name: "VALID", Type: ir.TBool, Len: func(p ir.Params) int { return p.N },
						Init: func(_ ir.Params, i int) int64 {
							if i == 0 {
								return 1
							}
							return 0
						},
						Doc: "VALID[t mod n]: ticket t may enter"},
				},
				Locals: []ir.Local{
					{Name: "ticket", Type: ir.TInt, Scope: ir.Passage, Doc: "ticket_i, from acquire to release"},
					{Name: "ok", Type: ir.TBool},
				},
				Acquire: Code(
					FetchAdd("1", "ticket", Reg("TICKET"), Lit(1)),
					Await("2", Eq(Read(slot(t)), True)),
				),
				Release: Code(
					Write("4", slot(t), False),
					Write("5", slot(Plus(t, Lit(1))), True),
				),
				TryAcquire: Code(
					Set("T1", "ticket", Read(Reg("TICKET"))),
					If("T2", Ne(Read(slot(t)), True), Fail("T2")),
					CAS("T3", "ok", Reg("TICKET"), t, Plus(t, Lit(1))),
					If("T3", Not(Var("ok")), Fail("T3")),
				),
				DoorwayEnd: "1",
			}
		},
	})
}
