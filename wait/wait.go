// Package wait defines how a process waits where its algorithm waits (an
// await, a busy loop): a lock's wait key. Each policy is one value whose
// methods carry its rules: whether a waiter sleeps, whether the spin key
// applies, what workload it suits and how a lock's documentation says its
// waiters wait. The spec, the catalogue, the backends and the lab ask a
// policy instead of comparing it, so a new policy is added here, in the
// table below, and in the runtime that carries it out
// (backend/golang/lockrt/wait.go, whose constant for it the Go backend
// names after it: wait"Name" in camel case, waitSpinThenPark).
package wait

import (
	"fmt"
	"strings"
)

// Policy is a policy's name, as a spec writes it (wait = "adaptive").
type Policy string

const (
	Spin          Policy = "spin"            // re-check without yielding
	Yield         Policy = "yield"           // runtime.Gosched between checks
	Park          Policy = "park"            // block until a write to what it waits on
	SpinThenYield Policy = "spin-then-yield" // spin a bounded number of times, then yield
	SpinThenPark  Policy = "spin-then-park"  // spin a bounded number of times, then park
	Adaptive      Policy = "adaptive"        // spin while it pays (bounded, fewer spinners than Ps), then park
)

// All lists the policies in documentation order.
var All = []Policy{Spin, Yield, Park, SpinThenYield, SpinThenPark, Adaptive}

// rules is what a policy carries.
type rules struct {
	// fits says which workload the policy suits (lockgen explain shows
	// it; docs/performance.md has the measurements behind it).
	fits string
	// describe says how a waiter waits, for a lock's doc comment, given
	// the spin key.
	describe  func(spin int) string
	parks     bool // a waiter may sleep until a write may satisfy its wait
	takesSpin bool // the spin key applies: how many checks before it yields or sleeps
	// countsSpinners: the policy spins only while fewer waiters spin than
	// there are other processors, so a lock keeps a count of its spinners.
	countsSpinners bool
}

const asleep = "asleep until a write may let it in"

var table = map[Policy]rules{
	Spin: {
		fits:     "no more goroutines than processors and critical sections of well under a microsecond; a waiter burns its processor",
		describe: func(int) string { return "spinning, yielding the processor every 16 checks" },
	},
	Yield: {
		fits:     "many goroutines on few processors with short critical sections; every check costs a trip through the scheduler",
		describe: func(int) string { return "yielding the processor between checks" },
	},
	Park: {
		fits:     "long critical sections, or far more goroutines than processors: no CPU while waiting, but every handoff pays a goroutine wake-up",
		describe: func(int) string { return asleep },
		parks:    true,
	},
	SpinThenYield: {
		fits:      "like yield, after a fixed spin (the spin key) that catches quick handoffs",
		describe:  func(spin int) string { return fmt.Sprintf("spinning %d times, then yielding", spin) },
		takesSpin: true,
	},
	SpinThenPark: {
		fits:      "like park, after a fixed spin (the spin key) tuned to a known critical-section length",
		describe:  func(spin int) string { return fmt.Sprintf("spinning %d times, then %s", spin, asleep) },
		parks:     true,
		takesSpin: true,
	},
	Adaptive: {
		fits:           "most workloads (the default): spins only about as long as a wake-up costs and only while fewer waiters spin than there are other processors, then parks",
		describe:       func(int) string { return "spinning while that pays, then " + asleep },
		parks:          true,
		countsSpinners: true,
	},
}

func (w Policy) rules() rules {
	r, ok := table[w]
	if !ok {
		panic(fmt.Sprintf("wait: unknown policy %q", string(w)))
	}
	return r
}

// Valid reports whether w names one of All.
func (w Policy) Valid() bool { _, ok := table[w]; return ok }

// Fits says which workload w suits.
func (w Policy) Fits() string { return w.rules().fits }

// Describe says how a waiter of w waits, with spin checks where the spin
// key applies, for a lock's doc comment.
func (w Policy) Describe(spin int) string { return w.rules().describe(spin) }

// Parks reports whether a waiter of w may sleep.
func (w Policy) Parks() bool { return w.rules().parks }

// TakesSpin reports whether the spin key applies to w.
func (w Policy) TakesSpin() bool { return w.rules().takesSpin }

// CountsSpinners reports whether w needs the lock's count of its spinning
// waiters.
func (w Policy) CountsSpinners() bool { return w.rules().countsSpinners }

// Where lists the policies of All for which rule holds.
func Where(rule func(Policy) bool) []Policy {
	var out []Policy
	for _, w := range All {
		if rule(w) {
			out = append(out, w)
		}
	}
	return out
}

// Or joins policies for a message: `"spin-then-yield" or "spin-then-park"`.
func Or(ws []Policy) string {
	quoted := make([]string, len(ws))
	for i, w := range ws {
		quoted[i] = fmt.Sprintf("%q", string(w))
	}
	return strings.Join(quoted, " or ")
}
