//go:build lockgen_check

package verify_test

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/checked/sync"
)

// The same hand-written lock under the controlled scheduler (go test
// -tags lockgen_check): every lock, unlock, wait and signal of
// verify/checked/sync is a step Explore schedules, and a goroutine asleep
// in Wait is not runnable until a Signal reaches it. The correct lock
// passes; the one whose Unlock forgets to signal leaves a waiter asleep
// forever, which Explore reports as a deadlock, with the interleaving
// named by this file's lines and a token that replays it.
func ExampleRunExplore_handWritten() {
	good, _ := verify.RunExplore(verify.Locker("condLock", func() sync.Locker { return newCondLock(true) }))
	fmt.Println("correct lock, violation found:", good.Failure != nil)

	bad, _ := verify.RunExplore(verify.Locker("condLock without Signal", func() sync.Locker { return newCondLock(false) }))
	fmt.Println("forgotten Signal, violation found:", bad.Failure.Kind)
	fmt.Println("trace names the lock's lines:", strings.Contains(bad.Failure.Trace, "example_handwritten_test.go:"))
	fmt.Println("replayable:", bad.Failure.Token != "")
	// Output:
	// correct lock, violation found: false
	// forgotten Signal, violation found: deadlock
	// trace names the lock's lines: true
	// replayable: true
}
