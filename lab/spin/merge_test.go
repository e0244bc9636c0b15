package spin

import (
	"context"
	"testing"

	"github.com/lockgen/lockgen/ir"
)

// suiteVerdicts checks a definition for props at n = 2 through CheckEntry
// and returns each property's run.
func suiteVerdicts(t *testing.T, name string, def *ir.Algorithm, props ...Property) map[Property]Run {
	t.Helper()
	rep, err := CheckEntry(context.Background(), name, SuiteOptions{Sizes: []int{2}, Properties: props, Def: def, Passages: 2, Run: fast})
	if err != nil {
		t.Fatal(err)
	}
	runs := map[Property]Run{}
	for _, r := range rep.Runs {
		runs[r.Property] = r
	}
	return runs
}

// The merged search must give each property the verdict its own search
// gives: a pass, a deadlock (the negative control: a ticket lock whose
// release is gone), and a mutual-exclusion violation (test-then-set),
// after which Deadlock must be searched on its own.
func TestMergedRunsKeepVerdicts(t *testing.T) {
	needSpin(t)
	t.Parallel()
	noRelease := entryDef(t, "ticket")
	noRelease.Release = without(noRelease.Release, "T3", ir.Write{})
	cases := []struct {
		name       string
		entry      string
		def        *ir.Algorithm
		me, dl     Status
		dlFailure  string
		dlInMerged bool
	}{
		{"ticket", "ticket", nil, Passed, Passed, "", true},
		{"ticket without release", "ticket", noRelease, Passed, Failed, "invalid end state", true},
		{"test-then-set", "ticket", testThenSet(), Failed, Passed, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			both := suiteVerdicts(t, c.entry, c.def, MutualExclusion, Deadlock)
			alone := suiteVerdicts(t, c.entry, c.def, Deadlock)[Deadlock]
			me, dl := both[MutualExclusion], both[Deadlock]
			if me.Result.Status != c.me {
				t.Errorf("mutual exclusion %s, want %s: %s", me.Result.Status, c.me, me.Line())
			}
			if dl.Result.Status != c.dl || dl.Result.Failure != c.dlFailure {
				t.Errorf("deadlock %s (%q), want %s (%q): %s", dl.Result.Status, dl.Result.Failure, c.dl, c.dlFailure, dl.Line())
			}
			if alone.Result.Status != dl.Result.Status || alone.Result.Failure != dl.Result.Failure {
				t.Errorf("deadlock alone %s (%q), merged %s (%q)", alone.Result.Status, alone.Result.Failure, dl.Result.Status, dl.Result.Failure)
			}
			if got := dl.Shared == MutualExclusion; got != c.dlInMerged {
				t.Errorf("deadlock decided in the mutual-exclusion run: %v, want %v (%s)", got, c.dlInMerged, dl.Line())
			}
			if dl.Shared != "" && dl.Result.States != 0 {
				t.Errorf("a shared run counts the states again: %d", dl.Result.States)
			}
			if alone.Shared != "" {
				t.Errorf("deadlock alone claims to be shared with %s", alone.Shared)
			}
		})
	}
}
