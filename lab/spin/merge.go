package spin

import "slices"

// mergedRuns lets one search decide mutual exclusion and the absence of
// deadlock at a size. The mutual-exclusion model is the deadlock model
// plus a ghost count of the processes inside, updated by statements that
// are always executable: the two have the same runs, and so the same
// invalid end states. Run without -E (Options.EndStates), the
// mutual-exclusion search reports both its assertions and those end
// states, so the deadlock search, which would explore the same states
// again, is not made: at n = 3 it is as large as the mutual-exclusion one
// (Dvir–Taubenfeld's first algorithm, Zehavi's mutex: millions of states).
type mergedRuns struct {
	byN map[int]Run // the mutual-exclusion run at n, when it decided Deadlock too
}

// merging reports whether prop's run should also decide Deadlock.
func (m *mergedRuns) merging(prop Property, props []Property) bool {
	return prop == MutualExclusion && slices.Contains(props, Deadlock)
}

// keep records a mutual-exclusion run made with EndStates. It returns false
// when that run stopped at an invalid end state: a deadlock, which then
// is Deadlock's verdict, while mutual exclusion must be searched again
// without end states.
func (m *mergedRuns) keep(r Run) bool {
	if m.byN == nil {
		m.byN = map[int]Run{}
	}
	m.byN[r.N] = r
	return !(r.Result.Status == Failed && r.Result.Failure == "invalid end state")
}

// reuse returns the Deadlock run at n that a mutual-exclusion run decided.
// A pass or a run without a verdict stands for both; a deadlock is
// Deadlock's own failure; a mutual-exclusion violation says nothing of
// end states (pan stopped there), so Deadlock then runs on its own.
func (m *mergedRuns) reuse(n int, prop Property) (Run, bool) {
	me, ok := m.byN[n]
	if prop != Deadlock || !ok {
		return Run{}, false
	}
	res := me.Result
	switch {
	case res.Status == Failed && res.Failure != "invalid end state":
		return Run{}, false
	case res.Status == Skipped:
		return Run{}, false
	}
	res.Property = Deadlock
	r := Run{N: n, Property: Deadlock, Reduced: me.Reduced, Result: res, Shared: MutualExclusion}
	r.Coverage = me.Coverage + "; decided by the mutual-exclusion run's search, which also reported invalid end states"
	// The figures are that search's: counted once, there.
	r.Result.States, r.Result.Transitions, r.Result.SearchTime, r.Result.Elapsed = 0, 0, 0, 0
	return r, true
}
