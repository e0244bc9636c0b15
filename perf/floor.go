package perf

import (
	"fmt"
	"sync/atomic"

	"github.com/lockgen/lockgen/mode"
)

// BareSteps is a passage of Steps uncontended atomic swaps, Pointer of
// them on pointers and the rest on integers, and nothing else, run by one
// goroutine through the same loop as the locks (a Worker's, on the first
// workload) and interleaved with their runs. On amd64 a sequentially
// consistent store compiles to the same locked instruction as a swap, so
// this is the least a passage making that many atomic writes or
// read-modify-writes can cost where the locks are timed: the floor of an
// uncontended target, before any call, branch or read of the lock's own.
// Two integer steps is sync.Mutex's passage (a CAS to lock, an add to
// unlock), which checks the method in the same run.
//
// Called passages make the same steps in two functions that do not
// inline, one before the critical section and one after, as a generated
// lock's Lock and Unlock are called: sync.Mutex's fast paths inline into
// the caller's loop, most generated locks' methods exceed the inliner's
// budget. Their time is the floor of a lock that does not inline.
type BareSteps struct {
	Steps, Pointer int
	Called         bool      `json:",omitempty"`
	Ns             []float64 // per run, paired with the locks' runs of the same index
}

// The bare-steps passages measured: from sync.Mutex's two steps up to
// the longest uncontended passage of the catalogue's queue locks, with up
// to maxBarePointers of them on pointers.
const (
	minBareSteps    = 2
	maxBareSteps    = 6
	maxBarePointers = 3
)

// bareShapes lists the (steps, pointers) passages measured.
func bareShapes() []BareSteps {
	var out []BareSteps
	for _, called := range []bool{false, true} {
		for n := minBareSteps; n <= maxBareSteps; n++ {
			for p := 0; p <= min(n, maxBarePointers); p++ {
				out = append(out, BareSteps{Steps: n, Pointer: p, Called: called})
			}
		}
	}
	return out
}

// bareNode is what a bare pointer step stores.
type bareNode struct{ _ int }

// bareStepsPassage is a bare-steps passage's registers, one word each as
// the registers of a lock's passage are distinct, and how many of each
// kind it swaps before and after its critical section. Each half makes at
// most three steps of a kind (maxBareSteps 6).
type bareStepsPassage struct {
	acqInts, relInts [3]atomic.Int64
	acqPtrs, relPtrs [3]atomic.Pointer[bareNode]
	node             bareNode
	acqInt, acqPtr   int
	relInt, relPtr   int
}

// newBarePassage splits a passage of n steps, p on pointers: the first
// half (rounded up) where a lock acquires, the rest where it releases.
func newBarePassage(n, p int) *bareStepsPassage {
	acquire := n - n/2
	acqPtr := min(p, acquire)
	return &bareStepsPassage{acqPtr: acqPtr, acqInt: acquire - acqPtr, relPtr: p - acqPtr, relInt: n - acquire - (p - acqPtr)}
}

func bareStepsSubject(shape BareSteps) Subject {
	name, run := fmt.Sprintf("%d bare atomic steps, %d on pointers", shape.Steps, shape.Pointer), runBareSteps
	if shape.Called {
		name, run = name+", in two calls", runBareStepsCalled
	}
	return Subject{Name: name, Mode: mode.Mutex, Baseline: true,
		New: func() any { return newBarePassage(shape.Steps, shape.Pointer) },
		Run: run}
}

// runBareStepsCalled is runBareSteps with each half of the passage in a
// call that does not inline.
func runBareStepsCalled(l any, w *Worker) {
	b := l.(*bareStepsPassage)
	for w.Next() {
		t := w.Begin()
		b.calledSteps(&b.acqPtrs, &b.acqInts, b.acqPtr, b.acqInt)
		w.Enter(t)
		w.Critical()
		b.calledSteps(&b.relPtrs, &b.relInts, b.relPtr, b.relInt)
		w.Outside()
	}
}

// calledSteps swaps the first ptrs of ptrRegs and the first ints of intRegs.
//
//go:noinline
func (b *bareStepsPassage) calledSteps(ptrRegs *[3]atomic.Pointer[bareNode], intRegs *[3]atomic.Int64, ptrs, ints int) {
	nd := &b.node
	switch ptrs { // unrolled as in runBareSteps: a floor carries no loop
	case 3:
		ptrRegs[2].Swap(nd)
		fallthrough
	case 2:
		ptrRegs[1].Swap(nd)
		fallthrough
	case 1:
		ptrRegs[0].Swap(nd)
	}
	switch ints {
	case 3:
		intRegs[2].Swap(1)
		fallthrough
	case 2:
		intRegs[1].Swap(1)
		fallthrough
	case 1:
		intRegs[0].Swap(1)
	}
}

// runBareSteps is a function of its own for the reason the baselines' loops
// are (runMutex). The steps are unrolled in the loop's body, each switch a
// jump the processor predicts, with no call but the runtime's for a
// pointer swap (the one a lock's pointer step makes too). The acquire's
// and the release's switches are written out twice on purpose: as a
// helper, the pointer one did not inline (an atomic pointer swap inlines
// the write barrier's check), and its call made the 2-step passage cost
// more than a whole TAS passage.
func runBareSteps(l any, w *Worker) {
	b := l.(*bareStepsPassage)
	nd := &b.node
	for w.Next() {
		t := w.Begin()
		switch b.acqPtr {
		case 3:
			b.acqPtrs[2].Swap(nd)
			fallthrough
		case 2:
			b.acqPtrs[1].Swap(nd)
			fallthrough
		case 1:
			b.acqPtrs[0].Swap(nd)
		}
		switch b.acqInt {
		case 3:
			b.acqInts[2].Swap(1)
			fallthrough
		case 2:
			b.acqInts[1].Swap(1)
			fallthrough
		case 1:
			b.acqInts[0].Swap(1)
		}
		w.Enter(t)
		w.Critical()
		switch b.relPtr {
		case 3:
			b.relPtrs[2].Swap(nd)
			fallthrough
		case 2:
			b.relPtrs[1].Swap(nd)
			fallthrough
		case 1:
			b.relPtrs[0].Swap(nd)
		}
		switch b.relInt {
		case 3:
			b.relInts[2].Swap(1)
			fallthrough
		case 2:
			b.relInts[1].Swap(1)
			fallthrough
		case 1:
			b.relInts[0].Swap(1)
		}
		w.Outside()
	}
}

// BareStepsNs returns the runs of the passage of n bare steps, p of them
// on pointers, in two calls or inline (nil if it was not measured).
func (l Limits) BareStepsNs(n, p int, called bool) []float64 {
	for _, b := range l.BareSteps {
		if b.Steps == n && b.Pointer == p && b.Called == called {
			return b.Ns
		}
	}
	return nil
}
