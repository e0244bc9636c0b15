package perf

import (
	"fmt"
	"sync/atomic"

	"github.com/lockgen/lockgen/mode"
)

// BareSteps is a passage of Steps uncontended atomic integer swaps and
// nothing else, run by one goroutine through the same loop as the locks
// (a Worker's, on the first workload) and interleaved with their runs.
// On amd64 a sequentially consistent store compiles to the same locked
// instruction as a swap, so this is the least a passage making Steps
// atomic writes or read-modify-writes can cost where the locks are timed:
// the floor of an uncontended target. Two steps is sync.Mutex's passage
// (a CAS to lock, an add to unlock), which checks the method in the same
// run.
type BareSteps struct {
	Steps int
	Ns    []float64 // per run, paired with the locks' runs of the same index
}

// The bare-steps passages measured: from sync.Mutex's two steps up to
// the longest uncontended passage of the catalogue's queue locks.
const (
	minBareSteps = 2
	maxBareSteps = 6
)

// bareStepsPassage is a bare-steps passage's registers, one word each as
// the registers of a lock's passage are distinct, and how many of them it
// swaps before and after its critical section.
type bareStepsPassage struct {
	regs             [maxBareSteps]atomic.Int64
	acquire, release int
}

// swapSteps swaps regs[from..from+n-1] unrolled, so that the loop adds no
// branch per step.
func (p *bareStepsPassage) swapSteps(from, n int) {
	regs := p.regs[from:]
	switch n {
	case 4:
		regs[3].Swap(1)
		fallthrough
	case 3:
		regs[2].Swap(1)
		fallthrough
	case 2:
		regs[1].Swap(1)
		fallthrough
	case 1:
		regs[0].Swap(1)
	}
}

// bareStepsSubject runs a passage of n swaps: the first half (rounded up)
// where a lock acquires, the rest where it releases.
func bareStepsSubject(n int) Subject {
	return Subject{Name: fmt.Sprintf("%d bare atomic steps", n), Mode: mode.Mutex, Baseline: true,
		New: func() any { return &bareStepsPassage{acquire: n - n/2, release: n / 2} },
		Run: runBareSteps}
}

// runBareSteps is a function of its own for the reason the baselines' loops
// are (runMutex).
func runBareSteps(l any, w *Worker) {
	p := l.(*bareStepsPassage)
	for w.Next() {
		t := w.Begin()
		p.swapSteps(0, p.acquire)
		w.Enter(t)
		w.Critical()
		p.swapSteps(p.acquire, p.release)
		w.Outside()
	}
}

// BareStepsNs returns the runs of the passage of n bare steps (nil if it
// was not measured).
func (l Limits) BareStepsNs(n int) []float64 {
	for _, b := range l.BareSteps {
		if b.Steps == n {
			return b.Ns
		}
	}
	return nil
}
