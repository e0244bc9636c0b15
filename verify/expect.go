package verify

import (
	"testing"

	"github.com/lockgen/lockgen/verify/sched"
)

// ExploreFinds is Explore for a negative control: a lock known to be wrong
// (Hyman's) or wrong once timing gives no guarantee (Fischer's, whose
// delays are only scheduling points under the scheduler). It fails t
// unless Explore reports a violation of the given kind, so a checker that
// stops catching the control fails the build; it logs the violation with
// the token that replays it. The expected violation is not reported as a
// failure.
func ExploreFinds(t testing.TB, s Subject, kind sched.FailKind, opts ...ExploreOption) {
	t.Helper()
	exploreFinds(t, s, kind, opts)
}

// ExploreFindsAny is ExploreFinds for a control that must be caught
// whatever the violation it shows.
func ExploreFindsAny(t testing.TB, s Subject, opts ...ExploreOption) {
	t.Helper()
	exploreFinds(t, s, "", opts)
}

func exploreFinds(t testing.TB, s Subject, kind sched.FailKind, opts []ExploreOption) {
	t.Helper()
	rep, err := RunExplore(s, opts...)
	want := string(kind)
	if want == "" {
		want = "any"
	}
	switch {
	case err != nil:
		t.Fatalf("verify.ExploreFinds: %s: %v", s.Name, err)
	case rep.Failure == nil:
		t.Errorf("verify.ExploreFinds: %s: no %s violation found (%s); the checker no longer catches this negative control", s.Name, want, rep)
	case kind != "" && rep.Failure.Kind != kind:
		t.Errorf("verify.ExploreFinds: %s: found %s, want %s: %s", s.Name, rep.Failure.Kind, kind, rep.Failure.Message)
	case rep.Failure.Token == "": // a verdict over all executions, not one of them
		t.Logf("found the expected %s violation by %s: %s", rep.Failure.Kind, rep.Failure.Strategy, rep.Failure.Message)
	default:
		t.Logf("found the expected %s violation by %s: %s\nreplay with verify.ExploreReplay(%q)", rep.Failure.Kind, rep.Failure.Strategy, rep.Failure.Message, rep.Failure.Token)
	}
}

// StressFinds is Stress for a negative control: it fails t unless Stress
// reports a violation of the given kind ("" for any), and does not report
// the expected violation as a failure (see RunStress).
func StressFinds(t testing.TB, s Subject, kind StressKind, opts ...StressOption) {
	t.Helper()
	rep := RunStress(s, opts...)
	switch {
	case !rep.Failed():
		t.Errorf("verify.StressFinds: %s: no violation found (%s); the checker no longer catches this negative control", s.Name, rep)
	case kind != "" && !rep.Has(kind):
		t.Errorf("verify.StressFinds: %s: found %s, want %s", s.Name, rep.Failures[0].Kind, kind)
	default:
		t.Logf("found the expected violation: %s", rep.Failures[0])
	}
}
