// Package distributed is lockgen's catalogue of message-passing locks: one
// file per algorithm, each an Entry whose Def returns the algorithm as an
// ir.Algorithm with Messages and Handlers (see ir/messages.go).
// The shared-memory catalogue (package templates) is separate: its
// pipelines (spec, Go backend, mutation) do not take these entries yet.
package distributed

import (
	"sort"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// Properties are what a paper claims for a message-passing lock.
type Properties struct {
	Safety   string // the exclusion it keeps
	Liveness string // "starvation-free", "deadlock-free"
	Fairness string // "FCFS between conflicting requests", "none"
	Messages string // messages per critical-section entry
	// Delay is the synchronization delay: the messages between one
	// process leaving the critical section and the next, waiting, entering.
	Delay string
	Space string // per process
	// Channels says what the algorithm assumes of the network: reliable
	// delivery, and whether order is needed.
	Channels string
	// Steps says what the algorithm assumes of a process's own steps: how
	// its handlers and routines interleave.
	Steps string
}

// Entry is one message-passing algorithm.
type Entry struct {
	Name  string
	Title string
	Refs  []templates.Ref
	Modes []mode.Mode
	Props Properties
	// Findings are the assumptions the checks found the algorithm needs,
	// whether or not its paper states them (Props.Channels and
	// Props.Steps say which it does); tests hold the entry to them both
	// ways.
	Findings Findings
	// AssumesFIFO: the paper assumes FIFO channels between each pair of
	// processes (Lamport 1978), or the catalogue's rendering of it does
	// (its deviations say why); otherwise it assumes no order, as a paper
	// that says nothing of order does. lockgen verify checks an entry's
	// model over the channels it assumes unless told otherwise
	// (-channels). The transports keep each pair's order either way.
	AssumesFIFO bool
	// NoTryLock, when set, says why the lock has no TryLock: its acquire
	// can never complete without waiting for another process (a
	// permission-based algorithm asks every other process).
	NoTryLock string
	// Routines names the paper's routine behind each operation
	// ("RAcquire": "Request_CS_Read").
	Routines map[string]string
	// Passages sets, per process count, how many passages each process
	// makes in the SPIN model where the default (ModelPassages) makes a
	// state space too large to search.
	Passages map[int]int
	// Stabilizing, for a self-stabilizing algorithm, says what it
	// converges from and to (nil: the algorithm starts in its one
	// initial state).
	Stabilizing *Stabilizing
	// Restart says where the algorithm starts in a new epoch: after a
	// failure the survivors make its state again from its initial values,
	// among the members left, indexed by id (docs/distributed.md, "Epoch
	// protocol"); for the doc comment and lockgen explain.
	Restart    string
	Deviations []string // from the paper, for the doc comment and the catalogue
	Notes      []string // what the checks found; lockgen explain shows them
	Def        func() *ir.Algorithm
}

// ModelPassages is how many passages each process makes in the SPIN
// model at n processes: three at n = 2 and two beyond, unless the entry
// says fewer (the state space grows fast with both).
func (e *Entry) ModelPassages(n int) int {
	if p, ok := e.Passages[n]; ok {
		return p
	}
	if n <= 2 {
		return 3
	}
	return 2
}

// Stabilizing is a self-stabilizing algorithm's claim: from any values of
// the Arbitrary locals (each in 0..n−1, the range of a K-state machine
// with K = n), the processes reach, and then keep, exactly one token: a
// process where Privileged holds, or a message in flight.
type Stabilizing struct {
	Arbitrary  []string
	Privileged ir.Expr // over one process's state
	Why        string  // the claim as checked, for lockgen explain
}

// Findings are assumptions an algorithm was found to need.
type Findings struct {
	// NeedsFIFO: with channels that reorder messages SPIN finds a
	// violation (the transports keep each pair's messages in order). An
	// entry that needs FIFO channels assumes them (AssumesFIFO): a need
	// the paper does not state is either the paper's claim failing or the
	// definition straying from the paper, and is fixed or recorded.
	NeedsFIFO bool
	// NeedsResumeFirst: unless a routine that a handler enabled runs
	// before the next message, SPIN finds a violation (netrt keeps that
	// order).
	NeedsResumeFirst bool
}

var entries = map[string]*Entry{}

func register(e *Entry) {
	if _, dup := entries[e.Name]; dup {
		panic("distributed: " + e.Name + " registered twice")
	}
	entries[e.Name] = e
}

// All returns the entries by name.
func All() []*Entry {
	out := make([]*Entry, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the entry named name.
func Lookup(name string) (*Entry, bool) {
	e, ok := entries[name]
	return e, ok
}

// perProcess makes l an array with one element per process, as a
// message-passing algorithm's arrays are (Ricart–Agrawala's
// Reply_Deferred[j], Suzuki–Kasami's RN[j]).
func perProcess(l ir.Local) ir.Local {
	l.Len = func(p ir.Params) int { return p.N }
	return l
}
