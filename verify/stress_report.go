package verify

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/mode"
)

// StressKind names the invariant a failure violated.
type StressKind string

const (
	// StressOccupancy: more holders in the critical section than the lock
	// allows (two for a mutex, k+1 for k-exclusion, two writers for a
	// reader/writer lock).
	StressOccupancy StressKind = "occupancy"
	// StressWriterShared: a writer and a reader were in at the same time.
	StressWriterShared StressKind = "writer-shared"
	// StressLostUpdate: the plain counter incremented inside the critical
	// section did not end at the number of exclusive passages.
	StressLostUpdate StressKind = "lost-update"
	// StressNoOverlap: a lock that promises sharing (readers, or k > 1
	// holders) never let two in at once.
	StressNoOverlap StressKind = "no-overlap"
	// StressHang: the watchdog fired; some goroutine did not finish.
	StressHang StressKind = "hang"
	// StressTryFresh: TryAcquire failed on a fresh instance, or on one
	// holding fewer than k holders, with no other process active.
	StressTryFresh StressKind = "try-fresh"
	// StressTryHeld: TryAcquire succeeded although the lock was full.
	StressTryHeld StressKind = "try-held"
	// StressPanic: the lock panicked.
	StressPanic StressKind = "panic"
	// StressContext: AcquireContext gave up with an error that is not its
	// context's, or before its context was done.
	StressContext StressKind = "context"
)

// StressFailure is one violation seen by Stress.
type StressFailure struct {
	Kind StressKind
	// Goroutine is the worker index, which is also its process id; -1
	// when the failure is not one goroutine's.
	Goroutine int
	// Passage is the worker's passage number (from 0); -1 when none.
	Passage int
	Msg     string
}

func (f StressFailure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", f.Kind)
	if f.Goroutine >= 0 {
		fmt.Fprintf(&b, "goroutine %d (process %d)", f.Goroutine, f.Goroutine)
		if f.Passage >= 0 {
			fmt.Fprintf(&b, ", passage %d", f.Passage)
		}
		b.WriteString(": ")
	}
	b.WriteString(f.Msg)
	return b.String()
}

// StressReport is what one Stress run saw.
type StressReport struct {
	Subject              string
	K                    int
	Mode                 mode.Mode
	Goroutines           int
	PassagesPerGoroutine int           // 0 when the run was sized by time
	Sized                time.Duration // the run's length when sized by time
	GOMAXPROCS           int
	Seed                 uint64
	// Race is set when the binary runs under the race detector, which
	// then also checks the critical section's plain counter.
	Race bool

	// Passages is the number of completed passages, Reads of them read
	// passages (reader/writer locks only).
	Passages int64
	Reads    int64
	// TryAttempts and TrySuccesses count TryAcquire calls in the run and
	// how many succeeded; Tryable is false when the lock has none.
	Tryable      bool
	TryAttempts  int64
	TrySuccesses int64
	// CtxAttempts and CtxGaveUp count AcquireContext calls (each with a
	// context cancelled after a random wait of up to 20 µs) and how many
	// gave up; Contextual is false when the lock has none. A passage whose
	// AcquireContext gave up acquires again without a context: the
	// process's next acquire must work.
	Contextual  bool
	CtxAttempts int64
	CtxGaveUp   int64
	// MaxOccupancy is the most holders (readers and writers) seen in the
	// critical section at once; MaxReaders the most readers.
	MaxOccupancy int
	MaxReaders   int
	// Crashed is how many goroutines crashed inside the critical section
	// (StressCrashes), holding the lock to the end.
	Crashed  int
	Duration time.Duration
	// OutOfTime is set when the time budget ran out while passages still
	// completed: the goroutines stopped early, each after a whole passage.
	OutOfTime bool

	// Failures lists the violations (at most 16 kept; Dropped counts the
	// rest). Stacks holds all goroutine stacks when the watchdog fired.
	Failures []StressFailure
	Dropped  int
	Stacks   string
}

// Failed reports whether the run found a violation.
func (r *StressReport) Failed() bool { return len(r.Failures) > 0 }

// Has reports whether the run found a violation of kind k.
func (r *StressReport) Has(k StressKind) bool {
	for _, f := range r.Failures {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// Config describes the run's configuration in one line.
func (r *StressReport) Config() string {
	inv := r.Mode.Invariant(r.K)
	if r.Mode.Readers() {
		inv += fmt.Sprintf(", 1 in %d passages writes", stressWriteEvery)
	}
	try := "no TryAcquire"
	if r.Tryable {
		try = fmt.Sprintf("TryAcquire on 1 in %d passages", stressTryEvery)
	}
	if r.Contextual {
		try += fmt.Sprintf("; AcquireContext on 1 in %d, cancelled within %v", stressCtxEvery, stressCtxWait)
	}
	race := "race detector off"
	if r.Race {
		race = "race detector on"
	}
	size := fmt.Sprintf("%d goroutines × %d passages", r.Goroutines, r.PassagesPerGoroutine)
	if r.PassagesPerGoroutine == 0 {
		size = fmt.Sprintf("%d goroutines for %v", r.Goroutines, r.Sized)
	}
	return fmt.Sprintf("%s; %s; %s; GOMAXPROCS %d; %s; %s; seed %d",
		r.Subject, inv, size, r.GOMAXPROCS, try, race, r.Seed)
}

// String summarises what the run saw in one line.
func (r *StressReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d passages", r.Subject, r.Passages)
	if r.Mode.Readers() {
		fmt.Fprintf(&b, " (%d reads)", r.Reads)
	}
	fmt.Fprintf(&b, " by %d goroutines on %d Ps in %v; max occupancy %d",
		r.Goroutines, r.GOMAXPROCS, r.Duration.Round(time.Millisecond), r.MaxOccupancy)
	if r.Mode.Readers() {
		fmt.Fprintf(&b, ", max readers %d", r.MaxReaders)
	}
	if r.Tryable {
		fmt.Fprintf(&b, "; TryAcquire %d/%d succeeded", r.TrySuccesses, r.TryAttempts)
	}
	if r.Contextual {
		fmt.Fprintf(&b, "; AcquireContext %d/%d gave up", r.CtxGaveUp, r.CtxAttempts)
	}
	if r.Crashed > 0 {
		fmt.Fprintf(&b, "; %d crashed holding the lock", r.Crashed)
	}
	if r.OutOfTime {
		b.WriteString("; stopped early at the time budget")
	}
	if n := len(r.Failures) + r.Dropped; n > 0 {
		fmt.Fprintf(&b, "; %d failure(s)", n)
	} else {
		b.WriteString("; ok")
	}
	return b.String()
}
