package spin

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"testing"
	"time"
)

// epochModel is the epoch protocol of the distributed locks
// (docs/distributed.md, "Epoch protocol"), written by hand for SPIN: the
// store, leases, crashes and restarts, pauses, a token lock in epochs and
// a fenced resource. Its header comment says what it models and how.
//
//go:embed testdata/epoch/epoch.pml
var epochModel string

// epochAt is the model at n processes with the given macros defined
// (a control, or CHECK_A/B/C to check only those properties).
func epochAt(n int, defines ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#define N %d\n", n)
	for _, d := range defines {
		fmt.Fprintf(&b, "#define %s\n", d)
	}
	return b.String() + epochModel
}

// requireSpin fails the test when spin or gcc is missing: the epoch
// protocol's checks are part of make test, whose deps target installs
// spin.
func requireSpin(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Fatalf("the epoch protocol's SPIN checks need spin and gcc (make deps installs spin): %v", err)
	}
}

// epochOpts are the options of the full searches: about 10 million
// states at n = 2, 172 bytes each before COLLAPSE.
var epochOpts = Options{Collapse: true, HashBits: 24, MemLimitMB: 4096, Timeout: 20 * time.Minute}

// TestEpochProtocol checks the epoch protocol's three properties — (a)
// no interleaved accepted accesses, (b) increasing fences, (c) a holder
// has lost its lease before another is granted — over every crash,
// restart, pause and message loss the model allows, at n = 2 and 3, and
// that fencing alone keeps (a) and (b) without the lock-delay. It runs
// with LOCKGEN_SPIN_LONG=1 only (make test-long): n = 2 alone stores 10
// million states.
func TestEpochProtocol(t *testing.T) {
	requireSpin(t)
	type run struct {
		n       int
		defines []string
		what    string
	}
	if !long() {
		// 10 million states, 2 to 4 minutes: more than make test's budget
		// allows one model. make test runs the controls (TestEpochControls).
		t.Skip("the full searches run in make test-long (LOCKGEN_SPIN_LONG=1)")
	}
	runs := []run{
		{2, nil, "(a), (b), (c)"},
		{2, []string{"NO_LOCKDELAY", "CHECK_A", "CHECK_B"}, "(a), (b) without the lock-delay: fencing alone"},
		{3, nil, "(a), (b), (c)"},
	}
	for _, r := range runs {
		t.Run(strings.TrimSpace(fmt.Sprintf("n=%d %s", r.n, strings.Join(r.defines, " "))), func(t *testing.T) {
			res, err := Check(context.Background(), epochAt(r.n, r.defines...), MutualExclusion, epochOpts)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("n = %d, %s: %s, %d states, %d transitions, depth %d, %.0f MB, search %v, all %v",
				r.n, r.what, res.Status, res.States, res.Transitions, res.Depth, res.MemoryMB, res.SearchTime, res.Elapsed.Round(time.Second))
			if res.Status != Passed {
				t.Fatalf("%s %s %s %s\n%s", res.Status, res.Failure, res.Message, res.Reason, Counterexample(res, 60))
			}
		})
	}
}

// TestEpochControls requires each planted defect to be caught, by the
// property that should catch it.
func TestEpochControls(t *testing.T) {
	requireSpin(t)
	controls := []struct {
		name    string
		defines []string
		want    string // in pan's assertion message
	}{
		// A watcher removes a member once its lease has run out by the
		// clock, without the margin for a late timer: (c).
		{"no lock-delay", []string{"NO_LOCKDELAY", "CHECK_C"}, "left[j]==0"},
		// A restarted process joins with its old incarnation: the removal
		// meant for the dead incarnation takes the live one out unawares,
		// and the survivors' new epoch grants while it holds: (c).
		{"restart with the old incarnation", []string{"RESTART_SAME", "CHECK_C"}, "left[j]==0"},
		// Create and Update of the epoch record are blind writes: two
		// epochs with one number, and two holders with one fence: (b).
		{"blind writes of the epoch record", []string{"BLIND", "CHECK_A", "CHECK_B"}, "fence[p]>rMax"},
		// The resource accepts every fence: a paused holder's late access
		// interleaves with the next holder's: (a).
		{"no fencing", []string{"NOFENCE", "CHECK_A"}, "rCross[p]"},
	}
	opts := Options{Optimize: "-O0", HashBits: 22, MemLimitMB: 2048, Timeout: 5 * time.Minute}
	for _, c := range controls {
		t.Run(c.name, func(t *testing.T) {
			res, err := Check(context.Background(), epochAt(2, c.defines...), MutualExclusion, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s %s, %d states, depth %d, %v", c.name, res.Status, res.Message, res.States, res.Depth, res.Elapsed.Round(time.Second))
			if res.Status != Failed || !strings.Contains(res.Message, c.want) {
				t.Fatalf("the control %s (%s) is not caught as it should be (%q): %s %s %s",
					c.name, strings.Join(c.defines, " "), c.want, res.Status, res.Message, res.Reason)
			}
			t.Logf("trail, last steps:\n%s", Counterexample(res, 40))
		})
	}
}
