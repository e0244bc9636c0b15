// Package mode defines what a lock offers: mutual exclusion, k-exclusion,
// or a reader/writer lock. Each mode is one value whose methods carry its
// rules: the invariant the checks assert (how many may hold the lock,
// whether readers share), the API it adds (RLock, RUnlock), which
// parameters and checks apply (k, a preference, doorway order, crashes),
// and how it is described. The spec, the catalogue, both backends, the
// checkers and the benchmarks ask a Mode instead of comparing it, so a new
// mode is added here, in the table below.
package mode

import "fmt"

// Mode is a mode's name, as a spec writes it (mode = "kexclusion"). The
// zero Mode follows the rules of Mutex, the spec's default.
type Mode string

const (
	Mutex      Mode = "mutex"      // one holder
	KExclusion Mode = "kexclusion" // at most k holders
	RW         Mode = "rw"         // readers share, writers exclude everyone
)

// All lists the modes in documentation order.
var All = []Mode{Mutex, KExclusion, RW}

// rules is what a mode carries.
type rules struct {
	title string // a heading for reports
	// describe is the lock's one-line description in its doc comment.
	describe func(k int, pref string) string
	// invariant is what the checks assert, in words.
	invariant func(k int) string
	takesK    bool // k is a parameter: up to k holders
	readers   bool // RLock/RUnlock: readers share, writers exclude all
}

var table = map[Mode]rules{
	Mutex: {
		title:     "Mutual exclusion",
		describe:  func(int, string) string { return "a mutual exclusion lock" },
		invariant: func(int) string { return "at most one process in the critical section" },
	},
	KExclusion: {
		title: "k-exclusion",
		describe: func(k int, _ string) string {
			return fmt.Sprintf("a %d-exclusion lock (at most %d holders at once)", k, k)
		},
		invariant: func(k int) string { return fmt.Sprintf("at most %d processes in the critical section", k) },
		takesK:    true,
	},
	RW: {
		title:     "Reader/writer locks",
		describe:  func(_ int, pref string) string { return fmt.Sprintf("a reader/writer lock (%s preference)", pref) },
		invariant: func(int) string { return "a writer alone in the critical section; readers share it" },
		readers:   true,
	},
}

func (m Mode) rules() rules {
	r, ok := table[m.Or(Mutex)]
	if !ok {
		panic(fmt.Sprintf("mode: unknown mode %q", string(m)))
	}
	return r
}

// Valid reports whether m names one of All (the zero Mode does not).
func (m Mode) Valid() bool { _, ok := table[m]; return ok }

// Or is m, or def when m is unset.
func (m Mode) Or(def Mode) Mode {
	if m == "" {
		return def
	}
	return m
}

// Title is a heading for m's section of a report.
func (m Mode) Title() string { return m.rules().title }

// Describe is a lock's one-line description: what it offers with k holders
// (k-exclusion) or preference pref (reader/writer).
func (m Mode) Describe(k int, pref string) string { return m.rules().describe(k, pref) }

// Invariant is what every check of m asserts, in words.
func (m Mode) Invariant(k int) string { return m.rules().invariant(k) }

// TakesK reports whether k (the number of holders allowed at once) is a
// parameter of m.
func (m Mode) TakesK() bool { return m.rules().takesK }

// Readers reports whether m has readers: RLock and RUnlock beside Lock and
// Unlock, readers sharing the critical section and writers excluding
// everyone. A reader/writer preference applies only then.
func (m Mode) Readers() bool { return m.rules().readers }

// Holders is how many processes may hold the lock at once (writers, with
// readers), for a given k.
func (m Mode) Holders(k int) int {
	if m.TakesK() {
		return k
	}
	return 1
}

// Shared reports whether several holders may be in the critical section
// together (so a benchmark must not make them touch one unguarded counter).
func (m Mode) Shared(k int) bool { return m.Holders(k) > 1 || m.Readers() }

// Ordered reports whether the doorway-order properties (FIFO, FIFE,
// bounded waiting) apply: every process goes through one doorway. A
// reader/writer lock's doorways are its writers'; writer priority is its
// order property instead.
func (m Mode) Ordered() bool { return !m.Readers() }

// Crashes is how many processes may crash (stop for ever, even holding
// the lock) while a lock of mode m can still let the others in: k − 1 for
// k-exclusion, where a crashed holder keeps one of k places; none for a
// lock with a single holder.
func (m Mode) Crashes(k int) int { return max(0, m.Holders(k)-1) }
