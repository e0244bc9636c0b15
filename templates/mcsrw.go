package templates

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Mellor-Crummey & Scott's centralized reader/writer locks (PPoPP 1991):
// the simple reader-preference and writer-preference locks built on a word
// holding a reader count and a writer flag, and the fair lock built on
// request/completion counters (a ticket lock for readers and writers).
// The paper gives procedures without line numbers; the labels W*, R* are
// ours, in the order of its statements.
func init() {
	const (
		waflag   = 1       // WAFLAG / WFLAG: writer active
		rcIncr   = 2       // RC_INCR: one reader, above the flag bit
		fairRC   = 1 << 16 // fair lock: one reader in the requests/completions words (the paper's 16-bit fields)
		fairWC   = 1       // fair lock: one writer
		fairMask = 1 << 16 // fair lock: x & W_MASK = x mod 2^16
	)
	base := Properties{
		Exit: "wait-free", RMRCC: "unbounded", RMRDSM: "unbounded",
		Instructions: []string{"read", "fetch&add", "CAS"}, Identity: "anonymous",
	}
	withProps := func(live, fair, space string) Properties {
		p := base
		p.Liveness, p.Fairness, p.Space = live, fair, space
		return p
	}
	register(&Entry{
		Name:  "mcs-rw",
		Title: "Mellor-Crummey & Scott centralized reader/writer locks",
		Refs: []Ref{
			{Where: "section 2, the simple reader-preference, writer-preference and fair locks",
				Cite: "J. M. Mellor-Crummey, M. L. Scott, Scalable reader-writer synchronization for shared-memory multiprocessors, PPoPP 1991 (reference [14] of Dvir & Taubenfeld 2017); pseudo-code at cs.rochester.edu/research/synchronization/pseudocode/rw.html"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 6 (the reader-writer problem)"},
		},
		Props:       withProps("starvation-free", "FCFS between conflicting requests", "2 counters"),
		Modes:       []mode.Mode{mode.RW},
		Preferences: []Preference{FairPref, ReaderPref, WriterPref},
		PrefProps: map[Preference]Properties{
			FairPref:   withProps("starvation-free", "FCFS between conflicting requests", "2 counters"),
			ReaderPref: withProps("deadlock-free (writers may starve while readers keep arriving)", "none", "1 word"),
			WriterPref: func() Properties {
				p := withProps("deadlock-free (readers may starve while writers keep arriving)",
					"writer priority: a reader arriving after a writer's request (W1) enters after that writer", "3 counters")
				p.WriterPriority = true
				return p
			}(),
		},
		TryLock: "the paper's locks have no non-blocking acquire",
		NoAbort: "the fair and writer-preference locks are ticket locks for writers (REQ, WREQ: a drawn request must be served, lines W1 and W2), and the fair lock's readers draw tickets too (line R1). The reader-preference writer could give up (its CAS loop writes nothing until it succeeds), but an entry is abortable in all its variants or none",
		Deviations: []string{
			"Words are 64-bit. The fair lock keeps the paper's 16-bit writer field (readers count from bit 16) but adds with a plain fetch&add instead of clear_then_add: requests and completions receive the same increments, so a carry out of the writer field is the same in both, and the comparisons stay exact as long as fewer than 65536 writers are outstanding at once.",
			"\"x & W_MASK\" and \"L & WAFLAG\" are written x mod 2^16 and L mod 2 (the masks select the low bits).",
			"\"repeat until P\" loops that only read are awaits; \"repeat until compare_and_store(...)\" loops are busy-wait loops that retry the CAS.",
		},
		Def: func(o Options) *ir.Algorithm {
			a := &ir.Algorithm{Name: "mcs-rw", Locals: []ir.Local{
				{Name: "ok", Type: ir.TBool},
				{Name: "prev", Type: ir.TInt},
			}}
			casLoop := func(lbl, reg string) ir.Stmt {
				return BusyRepeat(lbl, Var("ok"), CAS(lbl, "ok", Reg(reg), Lit(0), Named("WAFLAG", waflag)))
			}
			switch o.Preference {
			case ReaderPref:
				a.Shared = []ir.Shared{{Name: "L", Type: ir.TInt, Doc: "interested readers × RC_INCR + writer-active flag"}}
				a.Acquire = Code(casLoop("W1", "L"))
				a.Release = Code(FetchAdd("W2", "", Reg("L"), Named("-WAFLAG", -waflag)))
				a.RAcquire = Code(
					FetchAdd("R1", "", Reg("L"), Named("RC_INCR", rcIncr)),
					Await("R2", Eq(Mod(Read(Reg("L")), Lit(2)), Lit(0))),
				)
				a.RRelease = Code(FetchAdd("R3", "prev", Reg("L"), Named("-RC_INCR", -rcIncr)))
				a.RReleaseMisuse = Lt(Var("prev"), Named("RC_INCR", rcIncr)) // no reader counted
			case WriterPref:
				a.Shared = []ir.Shared{
					{Name: "WREQ", Type: ir.TInt, Doc: "write_requests"},
					{Name: "WCOMP", Type: ir.TInt, Doc: "write_completions"},
					{Name: "RCF", Type: ir.TInt, Doc: "rdr_cnt_and_flag: readers × RC_INCR + writer flag"},
				}
				a.RAcquire = Code(
					Await("R1", Eq(Read(Reg("WREQ")), Read(Reg("WCOMP")))),
					FetchAdd("R2", "", Reg("RCF"), Named("RC_INCR", rcIncr)),
					Await("R3", Eq(Mod(Read(Reg("RCF")), Lit(2)), Lit(0))),
				)
				a.Acquire = Code(
					FetchAdd("W1", "prev", Reg("WREQ"), Lit(1)),
					Await("W2", Eq(Read(Reg("WCOMP")), Var("prev"))),
					casLoop("W3", "RCF"),
				)
				a.RRelease = Code(FetchAdd("R4", "prev", Reg("RCF"), Named("-RC_INCR", -rcIncr)))
				a.RReleaseMisuse = Lt(Var("prev"), Named("RC_INCR", rcIncr)) // no reader counted
				a.Release = Code(
					FetchAdd("W4", "", Reg("RCF"), Named("-WFLAG", -waflag)),
					FetchAdd("W5", "", Reg("WCOMP"), Lit(1)),
				)
				a.DoorwayEnd = "W1" // the request: readers arriving later defer to it
			default: // fair
				a.Shared = []ir.Shared{
					{Name: "REQ", Type: ir.TInt, Doc: "requests: readers × 2^16 + writers"},
					{Name: "COMP", Type: ir.TInt, Doc: "completions: readers × 2^16 + writers"},
				}
				a.Acquire = Code(
					FetchAdd("W1", "prev", Reg("REQ"), Named("WC_INCR", fairWC)),
					Await("W2", Eq(Read(Reg("COMP")), Var("prev"))),
				)
				a.Release = Code(FetchAdd("W3", "", Reg("COMP"), Named("WC_INCR", fairWC)))
				a.RAcquire = Code(
					FetchAdd("R1", "prev", Reg("REQ"), Named("RC_INCR", fairRC)),
					Set("R1", "prev", Mod(Var("prev"), Named("2^16", fairMask))),
					Await("R2", Eq(Mod(Read(Reg("COMP")), Named("2^16", fairMask)), Var("prev"))),
				)
				a.RRelease = Code(FetchAdd("R3", "prev", Reg("COMP"), Named("RC_INCR", fairRC)))
				// More reader completions than reader requests. REQ only
				// grows, so a correct release never sees this; a writer
				// carry reaches REQ first, which only makes it lenient.
				a.RReleaseMisuse = Gt(Div(Plus(Var("prev"), Named("RC_INCR", fairRC)), Named("2^16", fairMask)),
					Div(Read(Reg("REQ")), Named("2^16", fairMask)))
				a.DoorwayEnd = "W1"
			}
			return a
		},
	})
}
