// Package sched is lockgen's controlled scheduler: it runs the goroutines of
// a test one at a time and decides, at every access to a shared register
// and every failed await, which one runs next. The lockgen_check build of a
// generated lock routes its registers through Access/Result*/Wait/Doorway/
// Delay; verify.Explore drives executions through Run.
//
// The design follows Rust's loom and shuttle and, before them, Microsoft's
// CHESS: stateless re-execution, one runnable goroutine at a time, and
// pluggable strategies (random, PCT, preemption-bounded DFS, replay). A
// goroutine whose await did not hold is not runnable until someone writes a
// register it read, so "everyone is waiting" is a detected deadlock rather
// than a hang. A goroutine that waits with a context the scheduler holds
// (Proc.CancelContext) may also have it cancelled, as one more choice of
// every decision (cancel.go), so everyone waiting is a deadlock only when
// nobody can give up.
//
// Outside an execution, or from a goroutine the scheduler does not manage,
// every entry point passes through: Access and the Result functions return at
// once, Wait calls runtime.Gosched, so the same test binary can run plain
// stress tests with the instrumented registers.
package sched

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Op is the kind of a register access.
type Op uint8

// The register operations of the instrumented registers.
const (
	OpLoad  Op = iota // read
	OpStore           // write
	OpSwap            // fetch-and-store; the result is the old value
	OpCAS             // compare-and-swap; the result is the outcome
	OpAdd             // fetch-and-add; the result is the old value
	OpBits            // fetch-and-or or fetch-and-and; the result is the old value
)

var opNames = [...]string{"load", "store", "swap", "cas", "add", "bits"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// reads reports whether the operation reads the register (all but store).
func (o Op) reads() bool { return o != OpStore }

// Access is called by an instrumented register before it performs op on
// the register at reg. It is a scheduling point: it returns once the
// scheduler has chosen the calling goroutine to run its next step. label is
// the paper's line label. reg identifies the register and must point to its
// 8-byte value word (as IntReg, BoolReg and RefReg do): the scheduler
// compares that word before and after a write, so that a write of the
// value already there wakes nobody. The register must call one of the Result functions
// right after the access.
func Access(label string, op Op, reg unsafe.Pointer) {
	if p := managed(); p != nil {
		p.access(label, op, reg)
	}
}

// ResultInt completes an access: v is the value read (the old value for swap
// and fetch-and-add, the value written for store); wrote reports whether the
// register was written.
func ResultInt(v int64, wrote bool) {
	if p := managed(); p != nil {
		p.result(Value{Kind: ValInt, N: v}, wrote)
	}
}

// ResultBool completes an access of a boolean register, or any CAS (v is
// then its outcome).
func ResultBool(v bool, wrote bool) {
	if p := managed(); p != nil {
		val := Value{Kind: ValBool}
		if v {
			val.N = 1
		}
		p.result(val, wrote)
	}
}

// ResultRef completes an access of a reference register: ref is the
// reference read (the old one for swap, the one written for store).
func ResultRef(ref unsafe.Pointer, wrote bool) {
	if p := managed(); p != nil {
		p.result(Value{Kind: ValRef, ref: ref}, wrote)
	}
}

// Initialize reports that the caller set the register at reg outside a
// scheduling point (its initial value, before the register is shared:
// lockgen's registers' init). It is not a step; the partial-order
// reduction of DFS.Reduce orders the step it happens in against every
// other, since it cannot name the register in another execution.
func Initialize(reg unsafe.Pointer) {
	if p := managed(); p != nil {
		p.fp.flags |= fHidden
	}
}

// Wait reports that the caller evaluated an await condition (or one
// iteration of a busy-wait loop) and it did not hold. If a register the
// caller read since its previous Wait (or since its current operation began)
// has been written since it read it, Wait is only a scheduling point.
// Otherwise the caller is not runnable until another goroutine writes one of
// those registers; if no goroutine is runnable the execution fails with a
// deadlock.
func Wait(label string) {
	if p := managed(); p != nil {
		p.wait(label)
		return
	}
	runtime.Gosched()
}

// LayerWait ends the label of a wait inside a lock's waiting layer (for
// its queue's lock bit or its spinner count) rather than in the
// algorithm: a few instructions of another goroutine away from ending.
const LayerWait = " (waiting layer)"

// Doorway records that the caller finished the doorway of its acquire (the
// wait-free prefix that fixes its place in a FIFO lock). It is recorded
// immediately after the doorway's last access; it adds no scheduling point of
// its own, since switching here or at the caller's next access leads to the
// same states.
func Doorway(label string) {
	if p := managed(); p != nil {
		p.doorway(label)
	}
}

// Delay stands for a timing delay (Fischer's Δ). Under the scheduler it is
// only a scheduling point, where switching away costs no preemption: timing
// guarantees nothing here, which is how Explore breaks timing-based locks.
func Delay(label string) {
	if p := managed(); p != nil {
		p.delay(label)
	}
}
