package verify_test

import (
	"sync"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/internal/handwritten"
)

// Locks written by hand against verify/checked, one of each shape, checked
// the way a user checks theirs: Stress here (any build), Explore and the
// planted mistakes in handwritten_check_test.go (-tags lockgen_check).

// timeoutLock takes its ChanLock with LockTimeout first, then with Lock.
type timeoutLock struct{ *handwritten.ChanLock }

func (l timeoutLock) Lock() {
	if !l.LockTimeout(20 * time.Microsecond) {
		l.ChanLock.Lock()
	}
}

func handwrittenSubjects(bug handwritten.Bug) map[string]verify.Subject {
	return map[string]verify.Subject{
		"TTAS": verify.Locker("TTAS", func() sync.Locker { return &handwritten.TTAS{Bug: bug} }),
		"ChanLock": verify.Locker("ChanLock", func() sync.Locker {
			return &handwritten.ChanLock{Bug: bug}
		}),
		"ChanLockTimeout": verify.Locker("ChanLock with timeouts", func() sync.Locker {
			return timeoutLock{&handwritten.ChanLock{Bug: bug}}
		}),
		"CondLock": verify.Locker("CondLock", func() sync.Locker { return &handwritten.CondLock{Bug: bug} }),
		"MCS": verify.PerProcess("MCS with parkers", func() func(int) sync.Locker {
			l := &handwritten.MCS{Bug: bug}
			return func(int) sync.Locker { return l.NewHandle() }
		}).WithFIFO(),
		"RW": verify.RWLocker("RW (mutex and cond)", func() verify.RWLock { return &handwritten.RW{Bug: bug} }),
	}
}

func TestHandwrittenStress(t *testing.T) {
	for name, s := range handwrittenSubjects(handwritten.Correct) {
		t.Run(name, func(t *testing.T) { verify.Stress(t, s) })
	}
}

// Stress cancels contexts at random, so an abort mistake that needs no
// narrow race shows there too, as a hang: a lock lost to a give-up leaves
// every later acquire waiting for ever. (ChanLock's DropHandoff needs a
// cancellation to land between a handoff and the waiter's withdrawal,
// which a second of stress under -race did not hit; Explore's scheduler
// makes it a choice, TestHandwrittenControls.)
func TestHandwrittenStressContextControls(t *testing.T) {
	for _, c := range []struct {
		lock string
		bug  handwritten.Bug
	}{
		{"TTAS", handwritten.GiveUpHolding},
	} {
		t.Run(c.lock, func(t *testing.T) {
			verify.StressFinds(t, handwrittenSubjects(c.bug)[c.lock], verify.StressHang,
				verify.StressDuration(time.Second), verify.StressStall(500*time.Millisecond), verify.StressTimeout(10*time.Second))
		})
	}
}
