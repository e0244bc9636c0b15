package verify_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/internal/testlocks"
	"github.com/lockgen/lockgen/verify/sched"
)

// crashOnly runs only the crash phase, deterministically.
func crashOnly(seed uint64, opts ...verify.ExploreOption) []verify.ExploreOption {
	return fixed(seed, append([]verify.ExploreOption{verify.ExploreRandom(0), verify.ExplorePCT(0, 0), verify.ExploreDFS(-1)}, opts...)...)
}

// TestExploreCrashes: a counting semaphore, each step one CAS, keeps the
// others entering while k−1 of them crash anywhere; GuardedK, which waits
// for room holding its guard, does not, and the crash phase finds the
// deadlock, names the crash in its trace, and its token replays it.
func TestExploreCrashes(t *testing.T) {
	for _, k := range []int{2, 3} {
		s := idLock("semaphore", 0, func() *testlocks.Semaphore { return &testlocks.Semaphore{K: int64(k)} }).
			WithK(k).WithCrashTolerance(k-1, true)
		var rep verify.ExploreReport
		verify.Explore(t, s, crashOnly(1, verify.ExploreCrashRuns(400), verify.ExploreReportTo(&rep))...)
		if len(rep.Phases) != 1 || rep.Phases[0].Executions != 400 || !strings.HasPrefix(rep.Phases[0].Strategy, "crash(m=") {
			t.Fatalf("k=%d: phases %+v, want one crash phase of 400 executions", k, rep.Phases)
		}
		// Not every planned point is reached (a wait that never happens),
		// but most are.
		if c := rep.Phases[0].Crashes; c < 400*(k-1)/2 {
			t.Errorf("k=%d: %d crashes in 400 executions planning %d each", k, c, k-1)
		}
	}

	guarded := idLock("guarded k", 0, func() *testlocks.GuardedK { return &testlocks.GuardedK{K: 2} }).WithK(2).WithCrashTolerance(1, true)
	// Without crashes it is a correct 2-exclusion lock.
	verify.Explore(t, guarded, fixed(1, verify.ExploreRandom(300), verify.ExplorePCT(300, 3), verify.ExploreDFS(1), verify.ExploreCrashes(0))...)
	rep, err := verify.RunExplore(guarded, crashOnly(1)...)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil || f.Kind != sched.FailDeadlock {
		t.Fatalf("the crash phase missed GuardedK's deadlock: %s", rep.String())
	}
	if !strings.Contains(f.Trace, "CRASHED") || !strings.Contains(f.Message, "has crashed") || !strings.Contains(f.Token, "/crash=1,") {
		t.Errorf("the failure does not show its crash:\nmessage %s\ntoken %s\n%s", f.Message, f.Token, f.Trace)
	}
	again, err := verify.RunExplore(guarded, verify.ExploreReplay(f.Token))
	if err != nil {
		t.Fatal(err)
	}
	if again.Failure == nil || again.Failure.Trace != f.Trace {
		t.Errorf("replay of %s gave another execution: %v", f.Token, again.Failure)
	}
}

// TestStressCrashes: with k − 1 goroutines crashed inside the critical
// section of a k-exclusion lock the others still finish; with k crashed,
// nobody else can enter and the watchdog says so.
func TestStressCrashes(t *testing.T) {
	sem := func(k int) verify.Subject {
		return idLock("semaphore", 0, func() *testlocks.Semaphore { return &testlocks.Semaphore{K: int64(k)} }).WithK(k)
	}
	rep := verify.RunStress(sem(3).WithCrashTolerance(2, false), verify.StressGoroutines(6), verify.StressPassages(200))
	if rep.Failed() || rep.Crashed != 2 || rep.Passages < 4*200 {
		t.Fatalf("k=3 with 2 crashed: %s %v", rep.String(), rep.Failures)
	}
	if !strings.Contains(rep.String(), "2 crashed holding the lock") {
		t.Errorf("the summary does not say who crashed: %s", rep.String())
	}
	// Enough passages that the two goroutines that do not crash cannot
	// finish theirs before the crashing ones first run: with 4 goroutines
	// on 2 Ps, 200 passages (under a millisecond) fitted in the first two
	// goroutines' time slice in a clean-clone run, and nobody was left to
	// hang.
	verify.StressFinds(t, sem(2), verify.StressHang, verify.StressCrashes(2), verify.StressGoroutines(4),
		verify.StressPassages(100000), verify.StressStall(300*time.Millisecond), verify.StressTimeout(2*time.Second))
}

// TestExploreCrashHold: the crash phase's hold executions crash their
// victims inside the critical section on their first passage and schedule
// the rest with PCT; with K − 1 slots so held, LastSlotRace's second
// arrival at the last slot is a violation, and the failure's token (a
// crashhold plan with a PCT schedule) replays it. The seed is one whose
// first failure comes from a hold execution (20, 26 and 297 of the first
// 300; the others' come from the seeded plans' random executions, which
// find it within 15 executions).
func TestExploreCrashHold(t *testing.T) {
	race := idLock("last-slot race", 0, func() *testlocks.LastSlotRace { return &testlocks.LastSlotRace{K: 2} }).
		WithK(2).WithCrashTolerance(1, true)
	rep, err := verify.RunExplore(race, crashOnly(20, verify.ExploreCrashRuns(400))...)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil {
		t.Fatalf("the crash phase missed LastSlotRace's third holder: %s", rep.String())
	}
	if !strings.Contains(f.Token, "/crashhold=1,") || !strings.Contains(f.Token, "/pct:") {
		t.Fatalf("the failure does not come from a hold execution: token %s", f.Token)
	}
	if !strings.Contains(f.Trace, "inside the critical section, passage 1") || !strings.Contains(f.Message, "at most 2 allowed") {
		t.Errorf("the failure does not show a holder crashed inside on its first passage, or too many holders:\nmessage %s\n%s", f.Message, f.Trace)
	}
	again, err := verify.RunExplore(race, verify.ExploreReplay(f.Token))
	if err != nil {
		t.Fatal(err)
	}
	if again.Failure == nil || again.Failure.Trace != f.Trace {
		t.Errorf("replay of %s gave another execution: %v", f.Token, again.Failure)
	}
}

// TestExploreKExclusionSizing: a k-exclusion lock's random and crash
// executions run 2 passages and its PCT executions 3, and asking for more
// passages deepens PCT only (explore-deep's ExplorePassages(4) keeps the
// crash phase at the size that finds Zehavi's violations); a mutex's
// phases all take what is asked.
func TestExploreKExclusionSizing(t *testing.T) {
	sem := idLock("semaphore", 0, func() *testlocks.Semaphore { return &testlocks.Semaphore{K: 2} }).
		WithK(2).WithCrashTolerance(1, true)
	mutex := idLock("semaphore of 1", 0, func() *testlocks.Semaphore { return &testlocks.Semaphore{K: 1} })
	small := []verify.ExploreOption{verify.ExploreRandom(5), verify.ExplorePCT(5, 3), verify.ExploreDFS(-1), verify.ExploreCrashRuns(5)}
	passages := func(s verify.Subject, opts ...verify.ExploreOption) map[string]int {
		var rep verify.ExploreReport
		verify.Explore(t, s, fixed(1, append(append(small, opts...), verify.ExploreReportTo(&rep))...)...)
		got := map[string]int{}
		for _, ph := range rep.Phases {
			got[strings.SplitN(ph.Strategy, "(", 2)[0]] = ph.Passages
		}
		return got
	}
	for _, c := range []struct {
		s    verify.Subject
		opts []verify.ExploreOption
		want map[string]int
	}{
		{sem, nil, map[string]int{"random": 2, "pct": 3, "crash": 2}},
		{sem, []verify.ExploreOption{verify.ExplorePassages(4)}, map[string]int{"random": 2, "pct": 4, "crash": 2}},
		{sem, []verify.ExploreOption{verify.ExplorePassages(1)}, map[string]int{"random": 1, "pct": 1, "crash": 1}},
		{mutex, []verify.ExploreOption{verify.ExplorePassages(4)}, map[string]int{"random": 4, "pct": 4}},
	} {
		if got := passages(c.s, c.opts...); !maps.Equal(got, c.want) {
			t.Errorf("%s %d options: passages by phase %v, want %v", c.s.Name, len(c.opts), got, c.want)
		}
	}
}

// TestExploreKExclusionDFS: a k-exclusion lock's exhaustive search runs
// k + 1 goroutines of one passage, the smallest configuration in which
// k + 1 can be inside at once. It finds LastSlotRace's third holder on its
// own (one preemption); the mutex's 2 × 2 cannot, whatever the bound.
func TestExploreKExclusionDFS(t *testing.T) {
	race := idLock("last-slot race", 0, func() *testlocks.LastSlotRace { return &testlocks.LastSlotRace{K: 2} }).WithK(2)
	dfsOnly := []verify.ExploreOption{verify.ExploreRandom(0), verify.ExplorePCT(0, 0), verify.ExploreCrashes(0)}
	rep, err := verify.RunExplore(race, fixed(1, dfsOnly...)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Phases) != 1 || rep.Phases[0].Goroutines != 3 || rep.Phases[0].Passages != 1 {
		t.Fatalf("phases %+v, want one DFS of 3 goroutines × 1 passage", rep.Phases)
	}
	if f := rep.Failure; f == nil || f.Kind != verify.ExploreMutualExclusion || !strings.Contains(f.Strategy, "dfs(P=1)") {
		t.Fatalf("the default DFS missed LastSlotRace's third holder, or needed more than one preemption: %s", rep.String())
	}
	small, err := verify.RunExplore(race, fixed(1, append(dfsOnly, verify.ExploreDFSSize(2, 2), verify.ExploreDFS(3))...)...)
	if err != nil {
		t.Fatal(err)
	}
	if small.Failure != nil || !small.Exhausted {
		t.Fatalf("2 × 2 should exhaust its schedules without a violation: %s", small.String())
	}
}
