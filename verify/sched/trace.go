package sched

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// EventKind is the kind of a trace event.
type EventKind uint8

// Trace events. The first four come from the lock's registers, the next
// three from the harness (Proc.Point, Yield, Note).
const (
	EvAccess  EventKind = iota // a register access
	EvWait                     // an await that did not hold
	EvDoorway                  // the end of an acquire's doorway
	EvDelay                    // a timing delay
	EvPoint                    // a harness event after a scheduling point
	EvYield                    // a harness event after a yield point
	EvNote                     // a harness event
	EvEnd                      // the goroutine's body returned
	EvPark                     // Parker.Park: took the token, blocked, or timed out
	EvUnpark                   // Parker.Unpark: woke a goroutine or left the token
	EvCrash                    // Proc.Crash: the goroutine stopped for good
	EvCancel                   // the scheduler cancelled the goroutine's context while it waited
)

// Instrumented reports whether the event comes from the code under test's
// instrumented primitives (registers, parkers) rather than the harness.
func (k EventKind) Instrumented() bool {
	switch k {
	case EvAccess, EvWait, EvPark, EvUnpark:
		return true
	}
	return false
}

// Event is one step of an execution's trace.
type Event struct {
	G     int       // the goroutine
	Kind  EventKind //
	Label string    // the paper's line label, or the harness's text
	Op    Op        // EvAccess: the operation
	Reg   int       // EvAccess: the register, numbered by first access (r1, r2, ...)
	Val   Value     // EvAccess: the value read (see ResultInt)
	Wrote bool      // EvAccess: the register was written
	// EvWait: the goroutine blocked, on these registers; EvPark: it
	// blocked (Reg is the Parker's number).
	Blocked bool
	WaitOn  []int
	// EvPark: the wait gave up (ParkTimeout); EvUnpark: the goroutine it
	// woke (-1: it left the token).
	TimedOut bool
	Woke     int
	Tag      int // harness events: the harness's tag
}

// ValueKind is the type of a Value.
type ValueKind uint8

// Value kinds.
const (
	ValNone ValueKind = iota
	ValInt
	ValBool
	ValRef
)

// Value is a register value as the trace shows it. References are numbered
// by first appearance within the execution (n1, n2, ...; 0 is nil), so that
// traces do not depend on addresses and replays print identically.
type Value struct {
	Kind ValueKind
	N    int64
	ref  unsafe.Pointer // until named
}

func (v Value) String() string {
	switch v.Kind {
	case ValInt:
		return strconv.FormatInt(v.N, 10)
	case ValBool:
		return strconv.FormatBool(v.N != 0)
	case ValRef:
		if v.N == 0 {
			return "nil"
		}
		return "n" + strconv.FormatInt(v.N, 10)
	}
	return ""
}

// String formats the event as "g1  [7]  load r2 = 0".
func (e *Event) String() string {
	var what string
	switch e.Kind {
	case EvAccess:
		r := fmt.Sprintf("r%d", e.Reg)
		switch e.Op {
		case OpLoad:
			what = fmt.Sprintf("load   %-4s = %s", r, e.Val)
		case OpStore:
			what = fmt.Sprintf("store  %-4s := %s", r, e.Val)
		case OpCAS:
			res := "failed"
			if e.Val.N != 0 {
				res = "succeeded"
			}
			what = fmt.Sprintf("cas    %-4s %s", r, res)
		default: // swap, add: the old value
			what = fmt.Sprintf("%-6s %-4s was %s", e.Op, r, e.Val)
		}
	case EvWait:
		if e.Blocked {
			var rs []string
			for _, r := range e.WaitOn {
				rs = append(rs, fmt.Sprintf("r%d", r))
			}
			what = "wait   blocked until a write to " + strings.Join(rs, ", ")
		} else {
			what = "wait   (retry: a register read has changed)"
		}
	case EvPark:
		switch {
		case e.TimedOut:
			what = fmt.Sprintf("park   p%d timed out", e.Reg)
		case e.Blocked:
			what = fmt.Sprintf("park   p%d: asleep until an unpark", e.Reg)
		default:
			what = fmt.Sprintf("park   p%d took the token", e.Reg)
		}
	case EvUnpark:
		if e.Woke >= 0 {
			what = fmt.Sprintf("unpark p%d wakes g%d", e.Reg, e.Woke)
		} else {
			what = fmt.Sprintf("unpark p%d leaves the token", e.Reg)
		}
	case EvDoorway:
		what = "doorway done"
	case EvDelay:
		what = "delay"
	case EvEnd:
		return fmt.Sprintf("g%d  finished", e.G)
	case EvCrash:
		return fmt.Sprintf("g%d  CRASHED %s: takes no further step", e.G, e.Label)
	case EvCancel:
		return fmt.Sprintf("g%d  CANCELLED: %s", e.G, cancelMsg(e))
	default:
		return fmt.Sprintf("g%d  %s", e.G, e.Label)
	}
	return fmt.Sprintf("g%d  %-8s %s", e.G, "["+e.Label+"]", what)
}

// FormatTrace formats events as numbered lines, keeping only the last tail
// events (all if tail <= 0).
func FormatTrace(events []Event, tail int) string {
	var b strings.Builder
	from := 0
	if tail > 0 && len(events) > tail {
		from = len(events) - tail
		fmt.Fprintf(&b, "  ... %d earlier events omitted\n", from)
	}
	w := len(strconv.Itoa(len(events)))
	for i := from; i < len(events); i++ {
		fmt.Fprintf(&b, "  %*d  %s\n", w, i+1, events[i].String())
	}
	return b.String()
}
