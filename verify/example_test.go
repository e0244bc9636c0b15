package verify_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/lockgen/lockgen/verify"
)

// In a test file, checking a lock is one call:
//
//	func TestMutex(t *testing.T) {
//		verify.Stress(t, verify.Locker("sync.Mutex", func() sync.Locker { return new(sync.Mutex) }))
//	}
//
// The examples below stand in a quiet testing.TB for the test's t, and
// print what the run saw.
func ExampleStress() {
	var t testing.TB = quietTB{} // in a real test: the test's *testing.T

	s := verify.Locker("sync.Mutex", func() sync.Locker { return new(sync.Mutex) })
	var rep verify.StressReport
	verify.Stress(t, s, verify.StressReportTo(&rep))

	fmt.Println("failed:", rep.Failed())
	fmt.Println("max occupancy:", rep.MaxOccupancy)
	fmt.Println("TryLock checked:", rep.Tryable)
	fmt.Println("ran for its whole length:", rep.Duration >= verify.DefaultStressDuration)
	// Output:
	// failed: false
	// max occupancy: 1
	// TryLock checked: true
	// ran for its whole length: true
}

func ExampleStress_rwMutex() {
	var t testing.TB = quietTB{} // in a real test: the test's *testing.T

	s := verify.RWLocker("sync.RWMutex", func() verify.RWLock { return new(sync.RWMutex) })
	var rep verify.StressReport
	verify.Stress(t, s, verify.StressReportTo(&rep))

	fmt.Println("failed:", rep.Failed())
	fmt.Println("readers shared the lock:", rep.MaxReaders >= 2)
	// Output:
	// failed: false
	// readers shared the lock: true
}

// quietTB stands in for a test's *testing.T in the examples: it prints
// failures and drops logs.
type quietTB struct{ testing.TB }

func (quietTB) Helper()                      {}
func (quietTB) Logf(string, ...any)          {}
func (quietTB) Errorf(f string, args ...any) { fmt.Printf("FAIL: "+f+"\n", args...) }
func (quietTB) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
