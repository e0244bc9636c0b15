//go:build lockgen_check

package verify_test

import (
	"testing"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/internal/handwritten"
	"github.com/lockgen/lockgen/verify/sched"
)

func TestHandwrittenExplore(t *testing.T) {
	for name, s := range handwrittenSubjects(handwritten.Correct) {
		t.Run(name, func(t *testing.T) { verify.Explore(t, s) })
	}
}

// TestHandwrittenControls plants each classic waiting mistake in the
// hand-written locks and requires Explore to report the deadlock it
// causes, with the interleaving by the locks' own file:line.
func TestHandwrittenControls(t *testing.T) {
	for _, c := range []struct {
		lock string
		bug  handwritten.Bug
	}{
		{"CondLock", handwritten.CheckBeforeAnnounce}, // a waiter checks, then waits: the signal between is lost
		{"MCS", handwritten.CheckBeforeAnnounce},      // a waiter checks, then announces: the release does not unpark it
		{"ChanLock", handwritten.SkipWake},            // the release forgets to hand over to the last waiter
		{"RW", handwritten.SkipWake},                  // the last reader out does not wake the writer
		{"ChanLockTimeout", handwritten.DropHandoff},  // the lock handed to a waiter that timed out is lost
		{"ChanLock", handwritten.DropHandoff},         // the lock handed to a waiter whose context the scheduler cancelled is lost
		{"TTAS", handwritten.GiveUpHolding},           // a cancelled waiter gives up the lock it has just taken
	} {
		t.Run(c.lock+"/"+bugName[c.bug], func(t *testing.T) {
			verify.ExploreFinds(t, handwrittenSubjects(c.bug)[c.lock], sched.FailDeadlock)
		})
	}
}

var bugName = map[handwritten.Bug]string{
	handwritten.CheckBeforeAnnounce: "check-before-announce",
	handwritten.SkipWake:            "skip-wake",
	handwritten.DropHandoff:         "drop-handoff",
	handwritten.GiveUpHolding:       "give-up-holding",
}
