// Package checked holds drop-in replacements for the standard library's
// synchronisation primitives that the controlled scheduler (verify/sched)
// can see, so that verify.Explore checks a hand-written lock as it checks
// a generated one: swap the imports
//
//	"sync/atomic" → "github.com/lockgen/lockgen/verify/checked/atomic"
//	"sync"        → "github.com/lockgen/lockgen/verify/checked/sync"
//
// and build the tests with -tags lockgen_check. In a normal build the
// types are the standard ones (type aliases: no cost at all); under the
// tag every atomic access, lock, unlock, wait, wake, send and receive is a
// scheduling point, reported in traces by the caller's file:line, and a
// goroutine blocked in one of them is not runnable until the wake it
// needs, so a lost wake-up is a deadlock Explore reports and replays.
// Outside a controlled execution the checked types behave as the real
// ones.
//
// Every checked sleep is a sched.Parker: the same primitive the generated
// locks' waiting layer sleeps on.
package checked
