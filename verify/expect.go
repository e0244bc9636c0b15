package verify

import (
	"testing"

	"github.com/lockgen/lockgen/verify/internal/tbtest"
	"github.com/lockgen/lockgen/verify/sched"
)

// ExploreFinds is Explore for a negative control: a lock known to be wrong
// (Hyman's) or wrong once timing gives no guarantee (Fischer's, whose
// delays are only scheduling points under the scheduler). It fails t
// unless Explore reports a violation of the given kind, so a checker that
// stops catching the control fails the build; it logs the violation with
// the token that replays it.
func ExploreFinds(t testing.TB, s Subject, kind sched.FailKind, opts ...ExploreOption) {
	t.Helper()
	var rep ExploreReport
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) { Explore(tb, s, append(opts, ExploreReportTo(&rep))...) })
	switch {
	case rep.Failure == nil:
		t.Errorf("verify.ExploreFinds: %s: no %s violation found (%s); the checker no longer catches this negative control", s.Name, kind, &rep)
	case rep.Failure.Kind != kind:
		t.Errorf("verify.ExploreFinds: %s: found %s, want %s: %s", s.Name, rep.Failure.Kind, kind, rep.Failure.Message)
	default:
		t.Logf("found the expected %s violation by %s: %s\nreplay with verify.ExploreReplay(%q)", kind, rep.Failure.Strategy, rep.Failure.Message, rep.Failure.Token)
	}
}
