// Package nodes defines where an algorithm's per-process records (its
// queue nodes) live: a lock's nodes key. Each policy is one value whose
// methods carry its rules: the API shape it gives (package shape),
// whether it needs the number of processes, whether a record is taken for
// each passage and whether from a pool, whether references to records are
// ids, what it suits and how a lock's doc mentions it. The spec, the
// catalogue, the Go backend and the lab ask a policy instead of comparing
// it, so a new policy is added here, in the table below (and in the
// backend's lowering of what it asks differently).
package nodes

import (
	"fmt"

	"github.com/lockgen/lockgen/shape"
)

// Policy is a policy's name, as a spec writes it (nodes = "handle").
type Policy string

const (
	// None: the algorithm has no per-process records.
	None Policy = ""
	// Handle: each per-goroutine handle owns its records (h := l.NewHandle()).
	Handle Policy = "handle"
	// Pool: records come from a sync.Pool for each passage (Lock()/Unlock()).
	Pool Policy = "pool"
	// Heap: a fresh record per passage, reclaimed by the GC (Lock()/Unlock()).
	Heap Policy = "heap"
	// Caller: the caller passes its own node (Lock(n)/Unlock(n)).
	Caller Policy = "caller"
	// Array: records in an array indexed by process id (Lock(id)/Unlock(id)).
	Array Policy = "array"
)

// All lists the policies in documentation order (None is none of them).
var All = []Policy{Handle, Pool, Heap, Caller, Array}

// rules is what a policy carries.
type rules struct {
	fits  string      // which use it suits (lockgen explain)
	shape shape.Shape // the API it gives
	// perPassage: each passage takes a record of its own (no process
	// identity keeps one); pooled: from a pool, to which a record the
	// algorithm frees goes back.
	perPassage, pooled bool
	// ids: the records live in the lock and references to them are ids
	// (integers), so the queue's atomic steps are integer ones.
	ids   bool
	usage string // what a lock's doc says of it ("": nothing)
}

var table = map[Policy]rules{
	None: {shape: shape.Locker},
	Handle: {
		fits:  "goroutines that keep a handle (NewHandle) for their lifetime: no allocation per passage",
		shape: shape.Handles,
	},
	Pool: {
		fits:  "a sync.Locker (Lock()/Unlock()) with nothing to keep: each passage takes its node from a sync.Pool",
		shape: shape.Locker, perPassage: true, pooled: true,
		usage: `Queue nodes come from a sync.Pool (nodes = "pool").`,
	},
	Heap: {
		fits:  "a sync.Locker whose passages may allocate: each takes a fresh node, which the garbage collector reclaims",
		shape: shape.Locker, perPassage: true,
		usage: `Each passage allocates its queue node (nodes = "heap").`,
	},
	Caller: {
		fits:  "callers that hold a node of their own (Lock(n)/Unlock(n)); the zero node is ready",
		shape: shape.CallerNodes,
	},
	Array: {
		fits:  "a known number of processes with ids (procs; Lock(id)): the nodes live in the lock and are named by ids, so the queue's swaps and CASes are integer ones, cheaper than pointer ones (docs/performance.md: MCS against MCSArray)",
		shape: shape.IDs, ids: true,
	},
}

func (n Policy) rules() rules {
	r, ok := table[n]
	if !ok {
		panic(fmt.Sprintf("nodes: unknown policy %q", string(n)))
	}
	return r
}

// Valid reports whether n names one of All (None does not).
func (n Policy) Valid() bool { _, ok := table[n]; return ok && n != None }

// Fits says which use n suits.
func (n Policy) Fits() string { return n.rules().fits }

// Shape is the API n gives an algorithm that does not take process ids
// of its own.
func (n Policy) Shape() shape.Shape { return n.rules().shape }

// NeedsProcs reports whether n needs the number of processes (its API
// takes ids).
func (n Policy) NeedsProcs() bool { return n.Shape().TakesIDs() }

// PerPassage reports whether each passage takes a record of its own.
func (n Policy) PerPassage() bool { return n.rules().perPassage }

// Pooled reports whether records come from a pool, to which freed ones
// go back.
func (n Policy) Pooled() bool { return n.rules().pooled }

// IDs reports whether references to records are ids rather than
// pointers.
func (n Policy) IDs() bool { return n.rules().ids }

// Usage is what a lock's doc says of n ("" for nothing).
func (n Policy) Usage() string { return n.rules().usage }
