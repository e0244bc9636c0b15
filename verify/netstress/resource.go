package netstress

import (
	"fmt"
	"sync"
)

// Resource is what a distributed lock protects, checking fencing tokens
// as Kleppmann ("How to do distributed locking", 2016) and Chubby's
// sequencers (Burrows, OSDI 2006) ask of it: it keeps the largest token
// it has accepted, and refuses an access with a smaller one, or a
// writer's first access with one not above it. A passage makes every
// access through Access (its first, any between, its last). What a lock
// must never let happen, as this resource sees it:
//
//   - a violation: a passage's accepted accesses interleaved with a
//     conflicting passage's (two writers, or a writer and a reader);
//   - an inversion: an access refused for a token of the same epoch as
//     the largest accepted (the token's bits from EpochShift up, as netrt
//     lays them out): within an epoch a
//     holder was fenced off, so the lock granted a newer token while it
//     was inside or handed out an old one.
//
// An access refused for a token of an older epoch is stale: fencing doing
// its job for a holder that paused past its lease.
type Resource struct {
	mu         sync.Mutex
	max        int64
	passages   map[PassageID]*passageState
	accepted   int64
	stale      int64
	epochs     int64 // how many times the largest token's epoch rose
	violations []string
	inversions []string
}

// EpochShift is where a generated lock's fencing token holds its epoch
// (netrt's netEpochShift): the token is epoch·2^EpochShift plus the token
// clock within the epoch.
const EpochShift = 22

// PassageID names one passage: a process's incarnation and the passage's
// number in it.
type PassageID struct {
	Proc        int
	Incarnation int64
	N           int64
}

type passageState struct {
	write       bool
	fence       int64
	accessed    bool // an access was accepted
	interleaved bool // a conflicting access was accepted since its last
}

// NewResource returns an empty resource.
func NewResource() *Resource { return &Resource{passages: map[PassageID]*passageState{}} }

// Access is one access of passage id (a writer's if write) with its
// fencing token; last ends the passage. It reports whether the resource
// accepted it.
func (r *Resource) Access(id PassageID, write bool, fence int64, last bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	ps := r.passages[id]
	if ps == nil {
		ps = &passageState{write: write, fence: fence}
		r.passages[id] = ps
	}
	ok := fence >= r.max
	if write && !ps.accessed {
		ok = fence > r.max
	}
	if !ok {
		if fence>>EpochShift == r.max>>EpochShift {
			r.note(&r.inversions, "process %d (incarnation %d, passage %d) refused: %s token %#x below the largest accepted, %#x, of the same epoch",
				id.Proc, id.Incarnation, id.N, map[bool]string{true: "write", false: "read"}[write], fence, r.max)
		} else {
			r.stale++
		}
		if last {
			delete(r.passages, id)
		}
		return false
	}
	if ps.interleaved {
		r.note(&r.violations, "process %d (incarnation %d, passage %d, %s, token %#x): another passage's conflicting access came between two of its own",
			id.Proc, id.Incarnation, id.N, map[bool]string{true: "write", false: "read"}[write], fence)
	}
	ps.accessed, ps.interleaved = true, false
	if fence > r.max {
		if fence>>EpochShift > r.max>>EpochShift {
			r.epochs++
		}
		// Passages with smaller tokens are fenced off for good.
		for q, qs := range r.passages {
			if qs.fence < fence && q != id {
				delete(r.passages, q)
			}
		}
		r.max = fence
	}
	for q, qs := range r.passages {
		if q != id && qs.accessed && (write || qs.write) {
			qs.interleaved = true
		}
	}
	r.accepted++
	if last {
		delete(r.passages, id)
	}
	return true
}

// Max is the largest token the resource has accepted.
func (r *Resource) Max() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.max
}

// Open returns the passages inside the resource: an access accepted, the
// last not yet (a crashed holder's stays until a newer token fences it
// off).
func (r *Resource) Open() []PassageID {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []PassageID
	for id, ps := range r.passages {
		if ps.accessed {
			ids = append(ids, id)
		}
	}
	return ids
}

// note records a finding (the first 16 of each kind are kept whole).
func (r *Resource) note(list *[]string, format string, args ...any) {
	if len(*list) < 16 {
		*list = append(*list, fmt.Sprintf(format, args...))
	} else {
		*list = append(*list, "")
	}
}

// ResourceReport is what a resource saw.
type ResourceReport struct {
	Accepted, Stale        int64
	Violations, Inversions []string // the first 16 whole; the rest empty
	Max                    int64    // the largest token accepted
	Epochs                 int64    // how many times the largest token's epoch rose
}

// Report returns what the resource saw so far.
func (r *Resource) Report() ResourceReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ResourceReport{Accepted: r.accepted, Stale: r.stale, Max: r.max, Epochs: r.epochs,
		Violations: append([]string(nil), r.violations...), Inversions: append([]string(nil), r.inversions...)}
}
