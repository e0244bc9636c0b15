package templates

import (
	"fmt"
	"time"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
)

// Test-and-test-and-set with exponential backoff (Anderson 1990: "spin on
// read", then delay after a failed test-and-set, doubling the delay up to
// a bound). A waiting process reads the lock word until it
// sees FREE (a read hits its cache), only then tries the exchange, and
// after a failed exchange stays away for a while so that the processes
// that saw the same release do not all retry at once. The labels 1–6 are
// ours.
func init() {
	free, busy := Named("FREE", 0), Named("BUSY", 1)
	b := Var("backoff")
	check := func(v int64, _ int) error {
		if v <= 0 {
			return fmt.Errorf("a backoff must be a positive duration")
		}
		if v > int64(time.Second) {
			return fmt.Errorf("a backoff over 1s would stall contended passages for that long")
		}
		return nil
	}
	register(&Entry{
		Name:  "ttas",
		Title: "test-and-test-and-set with exponential backoff",
		Refs: []Ref{
			{Where: "spin on read (test-and-test-and-set); delay after a failed test-and-set, with exponential backoff",
				Cite: "T. E. Anderson, The performance of spin lock alternatives for shared-memory multiprocessors, IEEE TPDS 1(1), 1990 (reference [1] of Dvir & Taubenfeld 2017)"},
			{Seed: "002_efe531114de1dbbc.txt", Where: "ch. 3.2.1–3.2.2 (exchange and test-and-set instructions)",
				Cite: "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986"},
		},
		Props: Properties{
			Liveness: "deadlock-free", Fairness: "none", Exit: "wait-free (one write)",
			RMRCC: "unbounded", RMRDSM: "unbounded",
			Space:        "1 register",
			Instructions: []string{"read", "write", "swap (exchange / test-and-set)"},
			Identity:     "anonymous",
		},
		Modes: []mode.Mode{mode.Mutex},
		Params: []ParamSpec{
			{Key: "backoff_min", Doc: "the first delay after a failed exchange (line 4); a Go duration",
				Duration: true, Default: int64(time.Microsecond), Check: check},
			{Key: "backoff_max", Doc: "the cap of the doubling delay (line 5); a Go duration (a cap below backoff_min is reached at the first failure)",
				Duration: true, Default: int64(100 * time.Microsecond), Check: check},
		},
		AbortNotes: []string{
			"Not in a paper we have: a process waiting at line 1 holds nothing (each failed exchange wrote BUSY over BUSY), so it may leave at once, as the test-and-set try lock does (M. L. Scott, W. N. Scherer III, Scalable queue-based spin locks with timeout, PPoPP 2001, section 2, figure 5); the backoff delay (line 4) is not a wait and runs to its end.",
		},
		Deviations: []string{
			"The source papers have no code for this lock and Anderson's paper was not available to check against; the code is the usual test-and-test-and-set with exponential backoff, and the labels 1–6 are ours.",
			"The backoff is deterministic (doubling from backoff_min up to backoff_max, kept per acquire); Anderson's Ethernet-style backoff also randomises the delay.",
			"delay is the runtime's delay (time.Sleep), whose real granularity is far coarser than a hardware pause loop (tens of microseconds on Linux): small backoff values all behave alike.",
			"TryLock is the paper's step without the spinning: one read (line 1 once) and, if FREE, one exchange (line 2).",
			"The release writes FREE by exchange (line 6) rather than by a plain write, so that it can tell from the old value a release of a lock nobody holds (misuse: the old value was FREE). The write is the same; only its old value is kept.",
			"In Go, when waiters may sleep (the park and adaptive policies), Lock makes line 2's exchange first: if it returns FREE, that is line 1's read finding FREE and line 2's exchange with no step between them, one interleaving of the paper's; if not, it wrote BUSY over BUSY, which changes nothing, and the code runs from line 1. With spinning or yielding waiters it starts at line 1, as the paper does: an arriving process more often finds the lock held, and its exchange would take the cache line the holder is about to write. The exchanges are a fetch-and-or and a fetch-and-and that keep the waiting layer's count, which shares L's word when waiters may sleep, so that the release's old value tells at once that the lock was held and nobody waits: Unlock is one atomic step and one comparison, and inlines, and so does Lock where it starts with the exchange (Go backend, guards).",
		},
		Notes: []string{
			"RMR: a waiting process reads a cached copy until the release invalidates it; each release then costs every waiter a miss and the winners' exchanges, so the count is not bounded by a constant, but the spinning itself is local in the CC model.",
		},
		Def: func(Options) *ir.Algorithm {
			return &ir.Algorithm{
				Name: "ttas",
				Shared: []ir.Shared{
					{Name: "L", Type: ir.TInt, Doc: "FREE (0) or BUSY (1)"},
				},
				Locals: []ir.Local{
					{Name: "old", Type: ir.TInt, Doc: "the value the exchange returned"},
					{Name: "backoff", Type: ir.TInt, Doc: "the current delay, in nanoseconds"},
					{Name: "prev", Type: ir.TInt, Doc: "the value the release's exchange returned"},
				},
				Acquire: Code(
					Set("", "backoff", Param("backoff_min")),
					Repeat("1", Eq(Var("old"), free),
						OnAbort(Await("1", Eq(Read(Reg("L")), free)), Fail("1")),
						Swap("2", "old", Reg("L"), busy),
						If("3", Ne(Var("old"), free),
							DelayFor("4", b),
							IfElse("5", Lt(Times(b, Lit(2)), Param("backoff_max")),
								Code(Set("5", "backoff", Times(b, Lit(2)))),
								Code(Set("5", "backoff", Param("backoff_max")))),
						),
					),
				),
				Release: Code(
					Swap("6", "prev", Reg("L"), free),
				),
				ReleaseMisuse: Ne(Var("prev"), busy),
				TryAcquire: Code(
					If("1", Ne(Read(Reg("L")), free), Fail("1")),
					Swap("2", "old", Reg("L"), busy),
					If("3", Ne(Var("old"), free), Fail("3")),
				),
			}
		},
	})
}
