//go:build lockgen_check

package filter_test

import (
	"testing"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/sched"
)

// TestFilterKCrashDeadlocks backs the catalogue's note on the filter lock:
// its k-exclusion does not survive even one process that crashes inside
// the critical section (the crashed process holds FLAGLEVEL at the top,
// and the last process to reach a level waits for a newcomer). Written by
// hand beside the generated tests; lockgen leaves it alone.
func TestFilterKCrashDeadlocks(t *testing.T) {
	verify.ExploreFinds(t, filterKSubject().WithCrashTolerance(1, false), sched.FailDeadlock,
		verify.ExploreRandom(0), verify.ExplorePCT(0, 0), verify.ExploreDFS(-1), verify.ExploreGoroutines(4))
}
