//go:build lockgen_check

package lockrt

import (
	"context"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// This is the lockgen_check build of the registers and of the waiting
// primitives: every register access is a scheduling point of the
// controlled scheduler (verify/sched), reported with the paper's line
// label and the value it read or wrote; a spinning waiter blocks until a
// register it read changes; a parked waiter blocks until the unpark it
// needs, so a wake-up the waiting layer loses is a deadlock the scheduler
// detects. Outside a scheduled execution they behave as plain atomics and
// a real parker.

// The registers are verify/sched's instrumented ones, the one
// implementation every checked lock shares; these methods give them the
// names the generated code calls. Each embeds its register first, so the
// register's word is at the start, as the scheduler requires.

type intReg struct{ sched.IntReg }

func (r *intReg) load(l string) int64               { return r.Load(l) }
func (r *intReg) store(l string, v int64)           { r.Store(l, v) }
func (r *intReg) swap(l string, v int64) int64      { return r.Swap(l, v) }
func (r *intReg) cas(l string, old, new int64) bool { return r.CAS(l, old, new) }
func (r *intReg) fetchAdd(l string, d int64) int64  { return r.FetchAdd(l, d) }
func (r *intReg) init(v int64)                      { r.Init(v) }
func (r *intReg) or(l string, m int64) int64        { return r.Or(l, m) }
func (r *intReg) and(l string, m int64) int64       { return r.And(l, m) }

func (r *bitReg) set(l string) int64   { return r.q.state.or(l, qValue) }
func (r *bitReg) clear(l string) int64 { return r.q.state.and(l, ^qValue) }

type boolReg struct{ sched.BoolReg }

func (r *boolReg) load(l string) bool               { return r.Load(l) }
func (r *boolReg) store(l string, v bool)           { r.Store(l, v) }
func (r *boolReg) swap(l string, v bool) bool       { return r.Swap(l, v) }
func (r *boolReg) cas(l string, old, new bool) bool { return r.CAS(l, old, new) }
func (r *boolReg) init(v bool)                      { r.Init(v) }

type refReg[T any] struct{ sched.RefReg[T] }

func (r *refReg[T]) load(l string) *T               { return r.Load(l) }
func (r *refReg[T]) store(l string, v *T)           { r.Store(l, v) }
func (r *refReg[T]) swap(l string, v *T) *T         { return r.Swap(l, v) }
func (r *refReg[T]) cas(l string, old, new *T) bool { return r.CAS(l, old, new) }
func (r *refReg[T]) init(v *T)                      { r.Init(v) }

func doorway(l string)                { sched.Doorway(l) }
func delay(l string, _ time.Duration) { sched.Delay(l) }

// Spinning, yielding and waiting for a lock bit are all "wait until a
// register I read changes" under the scheduler.
func yield(l string)          { sched.Wait(l) }
func pause(l string)          { sched.Wait(l) }
func backoff(l string, _ int) { sched.Wait(l + sched.LayerWait) }
func maxSpinners() int64      { return 1 }

// poolWaiters: under the scheduler every wait gets a waiter of its own.
// A pooled one could come back with its parker's token from an earlier
// wait of the same execution, and which one the pool returns is not the
// scheduler's choice (the race detector drops pooled items at random):
// a replayed schedule would then diverge.
const poolWaiters = false

// One spin before a waiter parks: the scheduler explores the spin-to-park
// hand-over without multiplying executions by spin counts.
const (
	spinLimit  = 1
	spinBudget = 1
)

// parker is a waiter's wake-up, modelled by the scheduler: a parked
// goroutine is not runnable until an unpark.
type parker struct{ p sched.Parker }

func (p *parker) arm()            {}
func (p *parker) disarm()         {}
func (p *parker) park(l string)   { p.p.Park(l) }
func (p *parker) unpark(l string) { p.p.Unpark(l) }

// parkContext: the scheduler may cancel a context it holds while the
// goroutine is parked, as one of its choices (sched.Proc.CancelContext).
func (p *parker) parkContext(l string, ctx context.Context) bool {
	return p.p.ParkContext(l, ctx)
}
