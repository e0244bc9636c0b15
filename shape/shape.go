// Package shape defines the API a generated lock offers its callers, which
// follows from its algorithm and its node policy: a sync.Locker, methods
// that take a process id, per-goroutine handles, or nodes the caller
// owns. Each shape is one value whose methods carry its rules: whether
// callers name themselves by id, where a passage's state lives, whether
// the lock (or its handle) is a sync.Locker, and how its documentation
// says to use it. The node policies (package nodes), the catalogue, the
// spec and the Go backend ask a shape instead of comparing it; the Go
// backend's lowering of each shape (its receivers and signatures) stays
// the backend's.
package shape

import "fmt"

// Shape is an API shape.
type Shape string

const (
	// Locker is Lock()/Unlock(): a sync.Locker; the holder's passage state
	// is kept in the lock.
	Locker Shape = "locker"
	// IDs is Lock(id)/Unlock(id): process id's state is kept in the lock's
	// array of per-process states.
	IDs Shape = "ids"
	// Handles is h := l.NewHandle(); h.Lock()/h.Unlock(): each goroutine's
	// handle keeps its state and is a sync.Locker.
	Handles Shape = "handles"
	// CallerNodes is Lock(n)/Unlock(n): the caller's node keeps the state.
	CallerNodes Shape = "caller"
)

// All lists the shapes in documentation order.
var All = []Shape{Locker, IDs, Handles, CallerNodes}

// rules is what a shape carries.
type rules struct {
	ids        bool   // callers name themselves by process id
	syncLocker bool   // the lock, or each handle, is a sync.Locker
	stateIn    string // where a passage's state lives
	// holderState: the state lives in the lock, one holder's at a time,
	// so holders that share the lock (k-exclusion, readers) have none.
	holderState bool
	// zeroNodes: the caller makes the nodes, so a node must be ready as
	// its zero value.
	zeroNodes bool
	usage     string // how a program uses the lock, for its doc
	name      string // how messages name it
}

var table = map[Shape]rules{
	Locker: {
		syncLocker: true, stateIn: "the lock, for its holder", holderState: true,
		usage: "a sync.Locker: Lock() and Unlock()",
		name:  "sync.Locker",
	},
	IDs: {
		ids: true, stateIn: "the lock, in one state per process id",
		usage: "process id (0 <= id < procs) calls Lock(id) and Unlock(id)",
		name:  "ids",
	},
	Handles: {
		syncLocker: true, stateIn: "the goroutine's handle",
		usage: "one handle per goroutine (NewHandle), each a sync.Locker",
		name:  "handles",
	},
	CallerNodes: {
		stateIn: "the caller's node", zeroNodes: true,
		usage: "callers pass a node of their own to Lock(n) and Unlock(n)",
		name:  "caller nodes",
	},
}

func (s Shape) rules() rules {
	r, ok := table[s]
	if !ok {
		panic(fmt.Sprintf("shape: unknown shape %q", string(s)))
	}
	return r
}

// Name is how messages name the shape: "sync.Locker", "ids", "handles"
// or "caller nodes".
func (s Shape) Name() string { return s.rules().name }

// Valid reports whether s names one of All.
func (s Shape) Valid() bool { _, ok := table[s]; return ok }

// TakesIDs reports whether callers name themselves by process id, so the
// lock needs the number of processes (procs).
func (s Shape) TakesIDs() bool { return s.rules().ids }

// SyncLocker reports whether the lock, or each of its handles, is a
// sync.Locker.
func (s Shape) SyncLocker() bool { return s.rules().syncLocker }

// StateIn says where a passage's state lives.
func (s Shape) StateIn() string { return s.rules().stateIn }

// HolderState reports whether the state lives in the lock for its one
// holder: holders that share the lock cannot have any.
func (s Shape) HolderState() bool { return s.rules().holderState }

// ZeroNodes reports whether the caller makes the nodes, which must then
// be ready as zero values.
func (s Shape) ZeroNodes() bool { return s.rules().zeroNodes }

// Usage says how a program uses a lock of shape s.
func (s Shape) Usage() string { return s.rules().usage }
