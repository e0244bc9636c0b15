// Package templates is lockgen's catalogue: one file per algorithm, each
// holding the algorithm's definition (an ir.Algorithm) and what the papers
// say about it. The spec package validates locks against these entries and
// the backends lower their definitions.
package templates

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"
	"github.com/lockgen/lockgen/wait"
)

// Preference is a reader/writer lock's policy.
type Preference string

const (
	ReaderPref Preference = "reader"
	WriterPref Preference = "writer"
	FairPref   Preference = "fair"
)

// Ref points at the paper an algorithm comes from.
type Ref struct {
	Seed  string // file in ../shared/seeds, "" for an algorithm the seeds only name
	Where string // section, figure or line ("fig. 11", "section 3, Algorithm 1")
	Cite  string // the original publication
}

// Papers cites the project's five source papers by their seed files. What
// users read names the paper, never the file.
var Papers = map[string]string{
	"000_175dd44c210ae396.txt": "Z. Dvir, G. Taubenfeld, Mutual exclusion algorithms with constant RMR complexity and wait-free exit code, OPODIS 2017",
	"001_b2be470643ab9ec7.txt": "T. Johnson, H. Yoon, A fair fast distributed concurrent-reader exclusive-writer synchronization, 1996",
	"002_efe531114de1dbbc.txt": "M. Raynal, Algorithms for Mutual Exclusion, MIT Press, 1986",
	"003_dcb666bc0349e074.txt": "M. Raynal, G. Taubenfeld, A visit to mutual exclusion in seven dates, Theoretical Computer Science, 2022",
	"004_f4f101679f3c3547.txt": "M. Zehavi, bounded-space local-spin k-exclusion with reads and writes only, Technion (our copy gives no title or venue)",
}

// String cites the paper, then where in it, then the original publication
// (unless that is the paper itself).
func (r Ref) String() string {
	var parts []string
	paper := ""
	if r.Seed != "" {
		var ok bool
		paper, ok = Papers[r.Seed]
		if !ok {
			panic("templates: no citation for seed " + r.Seed)
		}
		parts = append(parts, paper)
	}
	if r.Where != "" {
		parts = append(parts, r.Where)
	}
	s := strings.Join(parts, ", ")
	if r.Cite != "" && r.Cite != paper {
		if s != "" {
			s += "; "
		}
		s += r.Cite
	}
	return s
}

// Properties are what the papers claim for an algorithm (and what verify
// checks where it can).
type Properties struct {
	Liveness     string   // "starvation-free" or "deadlock-free" (or "none" for a known-wrong entry)
	Fairness     string   // "strong FIFO", "FIFO", "FCFS", "FIFE" or "none"
	Exit         string   // "wait-free", "bounded" or "waits" (the release may wait for another process)
	RMRCC        string   // remote memory references per passage, cache-coherent model
	RMRDSM       string   // same, distributed shared memory model
	Space        string   // shared space
	Instructions []string // atomic operations used: read, write, swap, CAS, fetch&add ...
	Identity     string   // "ids" (needs process ids), "symmetric", "anonymous", "none"
	// BoundedRegistersUpTo, when > 0, claims that every register stays
	// within a bound that depends on n only (the point of a
	// bounded-ticket algorithm), for n up to this value: SPIN then fails
	// a model whose counters leave ±64 instead of falling back to bounded
	// passages. Larger n is not claimed (see the entry's notes).
	BoundedRegistersUpTo int
	// Overtakes, when set, is the bounded-waiting claim behind a Fairness
	// of "bounded waiting: ...": a process that has finished its doorway
	// (ir.Algorithm.DoorwayEnd) is overtaken by at most Overtakes(n)
	// entries of other processes before it enters.
	Overtakes func(n int) int
	// OvertakesAcquireOnly limits the bounded-waiting claim to runs
	// without TryLock: a try that gives up can void the bound (the entry's
	// deviations say how). Otherwise the bound is checked with tries mixed in.
	OvertakesAcquireOnly bool
	// WriterPriority (reader/writer locks) claims that a reader whose
	// RLock begins after a writer has finished its doorway
	// (ir.Algorithm.DoorwayEnd) enters after that writer.
	WriterPriority bool
	// CrashTolerant (k-exclusion) claims that the processes which have not
	// crashed keep the lock's liveness while up to k−1 others crash (stop
	// for good) anywhere, the critical section included. Explore's crash
	// phase checks it in every generated k-exclusion lock that claims it.
	// Crashes says what the checks found, claimed or not.
	CrashTolerant bool
	Crashes       string
	// FIFESteps, when set, is the claim behind a Fairness of "FIFE": a
	// process that finished its doorway before another began its own is,
	// once the other has entered first, enabled: it enters within
	// FIFESteps(n) of its own steps (shared accesses, the waiting layer's
	// included) and waits for no other process's write.
	FIFESteps func(n int) int
}

// BoundedAt reports whether the claims include bounded registers for n
// processes.
func (p Properties) BoundedAt(n int) bool { return n <= p.BoundedRegistersUpTo }

// SpaceChecked is Space, qualified when the register bound it states is
// kept (and checked by SPIN) only up to BoundedRegistersUpTo; why is
// appended to the qualification when given.
func (p Properties) SpaceChecked(why string) string {
	if p.BoundedRegistersUpTo == 0 {
		return p.Space
	}
	q := fmt.Sprintf("this transcription keeps the bound for n ≤ %d only, checked by SPIN", p.BoundedRegistersUpTo)
	if why != "" {
		q += "; " + why
	}
	return p.Space + " (" + q + ")"
}

// FIFOClaim reports whether the algorithm claims an order between doorway
// completion and entry that verify should check.
func (p Properties) FIFOClaim() bool {
	switch p.Fairness {
	case "strong FIFO", "FIFO", "FCFS":
		return true
	}
	return false
}

// ParamSpec is an algorithm-specific spec parameter (e.g. Fischer's delta, the
// anonymous algorithm's memory size).
type ParamSpec struct {
	Key      string // the spec key
	Doc      string
	Duration bool  // a Go duration string in the spec ("10us"), stored in nanoseconds
	Required bool  // the spec must set it; otherwise Default applies
	Default  int64 // value when not set
	// Check validates a value given the lock's procs; nil accepts any value >= 0.
	Check func(v int64, procs int) error
}

// Options are the choices that change an algorithm's definition.
type Options struct {
	Mode       mode.Mode
	Preference Preference
}

// Entry is one catalogue algorithm.
type Entry struct {
	Name  string // catalogue key, used in specs
	Title string
	Refs  []Ref
	Props Properties

	Modes       []mode.Mode
	Preferences []Preference // for RW; the first is the default
	// PrefProps overrides Props for a preference whose guarantees differ.
	PrefProps map[Preference]Properties
	// Nodes maps each supported node policy to "" and each rejected one to
	// the reason. Algorithms without per-process records leave it nil.
	Nodes map[nodes.Policy]string
	// DefaultNodes is the policy used when a spec does not say.
	DefaultNodes nodes.Policy
	// Waits maps each rejected wait policy to the reason (all others work).
	Waits map[wait.Policy]string

	NeedsProcs bool // algorithm addresses per-process registers: procs required
	// ProcsSizeOnly, with NeedsProcs, says procs only sizes the lock's
	// arrays (Anderson's VALID[0..n-1]): processes need no ids and the API
	// stays Lock()/Unlock(), but at most procs goroutines may use the lock
	// at once.
	ProcsSizeOnly bool
	MinProcs      int    // 0: no minimum beyond 1
	MaxProcs      int    // 0: no maximum
	TryLock       string // "" if TryLock is supported, else why not
	// TryLockDoc replaces the generated TryLock doc when the algorithm's
	// try-acquire is not the usual "without waiting" (Lamport's abortable
	// fast mutex can still wait at R7.2).
	TryLockDoc string
	Params     []ParamSpec

	// NoAbort, for an entry whose waiting processes cannot give up
	// (LockContext), says why; "" for an abortable entry, whose definition
	// gives its waits the paper's abort code (ir.Await.Abort). register
	// requires one or the other, so that every entry decides.
	NoAbort string
	// AbortIncorrect, for an entry whose paper gives abort code that the
	// checks find wrong, says what goes wrong: the definition keeps the
	// paper's abort code (so that SPIN and the mutator still run it), but
	// the entry is not abortable and LockContext is refused.
	AbortIncorrect string
	// AbortFinitely, for an abortable entry whose claimed liveness holds
	// only while every process gives up finitely often (the assumption of
	// the abortable-mutex literature), says what goes wrong otherwise; ""
	// when the claim holds even with processes that give up and retry for
	// ever. SPIN checks the claim accordingly (lab/spin AbortProperties)
	// and that it does fail without the assumption.
	AbortFinitely string
	// AbortNotes say more about an abortable entry's abort: where it comes
	// from, what its cost means, the waits it cannot leave and why.
	AbortNotes []string

	// Timing, when set, says how the algorithm's safety depends on timing
	// that Go cannot promise (Fischer's Δ): its generated tests require the
	// controlled scheduler, where a delay is only a scheduling point, to
	// find a violation, instead of stress-testing it.
	Timing string

	// Incorrect, when set, says why the algorithm is known to be wrong.
	// Specs must opt in (allow_incorrect = true) to generate it.
	Incorrect string

	// Deviations from the paper, for the doc comment and the catalogue.
	Deviations []string
	// Notes are extra remarks for `lockgen explain`.
	Notes []string

	// Def builds the definition for the given options.
	Def func(Options) *ir.Algorithm
}

// SmallParams are the small parameters tests check a definition with: 3
// processes when the algorithm needs ids or an array of nodes (4 for
// k-exclusion, so that k = 2 leaves two levels; within the entry's
// bounds), and otherwise as SmallParamsFor.
func (e *Entry) SmallParams(m mode.Mode, np nodes.Policy) ir.Params {
	n := 0
	if e.NeedsProcs || np.NeedsProcs() {
		n = max(3, e.MinProcs)
		if m.TakesK() {
			n = max(4, e.MinProcs)
		}
		if e.MaxProcs > 0 {
			n = min(n, e.MaxProcs)
		}
	}
	return e.SmallParamsFor(m, n)
}

// SmallParamsFor are the parameters for n processes (0: the algorithm
// needs no n): k = 2 for k-exclusion, every extra parameter at its default
// or, when that is invalid for n, the smallest valid value above it (a
// duration of 0 becomes 1µs).
func (e *Entry) SmallParamsFor(m mode.Mode, n int) ir.Params {
	p := ir.Params{N: n, K: 1, Extra: map[string]int64{}}
	if m.TakesK() {
		p.K = 2
	}
	for _, ps := range e.Params {
		v := ps.Default
		if ps.Duration && v == 0 {
			v = 1000
		}
		for ps.Check != nil && ps.Check(v, p.N) != nil && v < 1<<20 {
			v++
		}
		p.Extra[ps.Key] = v
	}
	return p
}

// AllOptions lists one Options per mode and, for RW, per preference.
func (e *Entry) AllOptions() []Options {
	var out []Options
	for _, m := range e.Modes {
		if m.Readers() && len(e.Preferences) > 0 {
			for _, p := range e.Preferences {
				out = append(out, Options{Mode: m, Preference: p})
			}
			continue
		}
		out = append(out, Options{Mode: m})
	}
	return out
}

// SupportsMode reports whether e offers m.
func (e *Entry) SupportsMode(m mode.Mode) bool {
	for _, x := range e.Modes {
		if x == m {
			return true
		}
	}
	return false
}

// PropsFor returns the properties of the definition chosen by o.
func (e *Entry) PropsFor(o Options) Properties {
	if p, ok := e.PrefProps[o.Preference]; ok && o.Mode.Readers() {
		return p
	}
	return e.Props
}

// NegativeControl reports whether verify must reject the algorithm: it is
// known to be incorrect, or correct only under timing Go cannot promise.
func (e *Entry) NegativeControl() bool { return e.Incorrect != "" || e.Timing != "" }

// HasNodes reports whether the algorithm has per-process records.
func (e *Entry) HasNodes() bool { return e.Nodes != nil }

// TakesIDs reports whether processes name themselves by id: the
// algorithm addresses per-process registers (and not only sizes arrays by
// the number of processes, ProcsSizeOnly).
func (e *Entry) TakesIDs() bool { return e.NeedsProcs && !e.ProcsSizeOnly }

// Shape is the API a lock of e with node policy np offers: ids where the
// algorithm takes them, otherwise the node policy's.
func (e *Entry) Shape(np nodes.Policy) shape.Shape {
	if e.TakesIDs() {
		return shape.IDs
	}
	return np.Shape()
}

var registry = map[string]*Entry{}

// register adds an entry; called from each algorithm file's init.
func register(e *Entry) {
	if _, dup := registry[e.Name]; dup {
		panic("templates: duplicate algorithm " + e.Name)
	}
	if e.Def == nil {
		panic("templates: algorithm " + e.Name + " has no definition")
	}
	// TryLock support follows from the definition: the entry only says why
	// when there is none.
	hasTry := false
	for _, o := range e.AllOptions() {
		if e.Def(o).TryAcquire != nil {
			hasTry = true
		}
	}
	switch {
	case hasTry && e.TryLock != "":
		panic("templates: algorithm " + e.Name + " has a try-acquire but says TryLock is unsupported")
	case !hasTry && e.TryLock == "":
		e.TryLock = "the algorithm has no non-blocking acquire"
	}
	checkAbort(e)
	registry[e.Name] = e
}

// Lookup returns the entry named name.
func Lookup(name string) (*Entry, bool) {
	e, ok := registry[name]
	return e, ok
}

// Names returns all algorithm names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// All returns all entries sorted by name.
func All() []*Entry {
	var out []*Entry
	for _, n := range Names() {
		out = append(out, registry[n])
	}
	return out
}

// MustDef returns e's definition for opts, checked.
func (e *Entry) MustDef(opts Options) *ir.Algorithm {
	a := e.Def(opts)
	if err := ir.Check(a); err != nil {
		panic(fmt.Sprintf("templates: %s: %v", e.Name, err))
	}
	return a
}
