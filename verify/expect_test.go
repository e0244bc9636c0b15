package verify_test

import (
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/internal/tbtest"
	"github.com/lockgen/lockgen/verify/internal/testlocks"
)

// ExploreFinds passes only when the violation is found: on a broken lock
// it passes, on a correct one, or with the wrong kind, it fails.
func TestExploreFinds(t *testing.T) {
	broken := idLock("test-then-set", 0, func() *testlocks.TestThenSet { return &testlocks.TestThenSet{} })
	fast := []verify.ExploreOption{verify.ExploreSeed(1), verify.ExploreBudget(0)}

	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) { verify.ExploreFinds(tb, broken, verify.ExploreMutualExclusion, fast...) })
	if rec.Failed() {
		t.Errorf("ExploreFinds failed on a lock that breaks mutual exclusion: %v", rec.Messages())
	}

	rec = tbtest.New(t)
	rec.Run(func(tb testing.TB) { verify.ExploreFinds(tb, peterson, verify.ExploreMutualExclusion, fast...) })
	if !rec.Failed() || !rec.Contains("no longer catches") {
		t.Errorf("ExploreFinds passed on a correct lock: %v", rec.Messages())
	}

	rec = tbtest.New(t)
	rec.Run(func(tb testing.TB) { verify.ExploreFinds(tb, broken, verify.ExploreFIFO, fast...) })
	if !rec.Failed() || !rec.Contains("want FIFO") {
		t.Errorf("ExploreFinds accepted the wrong kind of violation: %v", rec.Messages())
	}
}

// Explore mixes try-acquires into its passages: a lock whose Acquire is
// right but whose TryLock is a separate load and store must fail.
func TestExploreRunsTryAcquire(t *testing.T) {
	racy := idLock("racy TryLock", 0, func() *testlocks.RacyTry { return &testlocks.RacyTry{} })
	verify.ExploreFinds(t, racy, verify.ExploreMutualExclusion, verify.ExploreSeed(1))
	// The same Acquire without the TryLock passes: the try passages caught it.
	verify.Explore(t, tas, verify.ExploreSeed(1), verify.ExploreBudget(time.Second))
}
