package inproc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/generated/dcrew"
	naimitrehel "github.com/lockgen/lockgen/generated/naimi-trehel"
	suzukikasami "github.com/lockgen/lockgen/generated/suzuki-kasami"
	"github.com/lockgen/lockgen/transport/inproc"
	"github.com/lockgen/lockgen/verify/netstress"
)

// faultSubjects are the real locks the controls break the group under,
// taken in turn: token algorithms whose initial state gives process 0
// the token, dCREW a readers-writer one.
var faultSubjects = []struct {
	name string
	new  func(self, n int, tr netstress.Transport) (netstress.Lock, error)
}{
	{"naimi-trehel", func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return naimitrehel.NewNaimiTrehel(self, n, tr)
	}},
	{"dcrew", func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return dcrew.NewDCREW(self, n, tr)
	}},
	{"suzuki-kasami", func(self, n int, tr netstress.Transport) (netstress.Lock, error) {
		return suzukikasami.NewSuzukiKasami(self, n, tr)
	}},
}

// The fault checks of netstress.Faults bite: each bug planted in the
// group breaks a claim of docs/distributed.md's failure model, and the
// run over a real lock must report it as the finding named; the same run
// without the bug must report nothing.
func TestFaultControlsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fault checks over real locks")
	}
	// A planted bug may hang the group before it shows what it breaks (a
	// crash nobody notices loses the token its holder had): a short
	// timeout ends such a run, and another seed tries again.
	opts := netstress.FaultOptions{Faults: 30, LockDelay: 40 * time.Millisecond, Timeout: 2 * time.Second}
	for _, c := range []struct {
		bug, breaks string
		caught      func(netstress.FaultReport) bool
	}{
		{
			bug: "restart-in-place",
			breaks: "a restart is a new incarnation that remembers nothing, in a new epoch " +
				"(issue 52's restart that took the write lock beside its holder)",
			caught: func(r netstress.FaultReport) bool {
				return len(r.Resource.Violations)+len(r.Resource.Inversions) > 0 ||
					mentions(r.Violations, "an incarnation must join in a new epoch")
			},
		},
		{
			bug: "no-lock-delay",
			breaks: "a holder that loses contact learns it through its lease before anyone else " +
				"can be granted the lock (Chubby's lock-delay, Burrows, OSDI 2006, section 2.4)",
			caught: func(r netstress.FaultReport) bool { return mentions(r.Violations, "while its lease still held") },
		},
		{
			bug: "epoch-overflow",
			breaks: "fencing tokens strictly increase across epochs (Kleppmann's fencing tokens; " +
				"Chubby's sequencers)",
			// The resource counts a token of an older epoch as stale (a
			// paused holder's); the run knows the holder it refused is
			// live.
			caught: func(r netstress.FaultReport) bool { return mentions(r.Violations, "a live holder was fenced off") },
		},
	} {
		t.Run(c.bug, func(t *testing.T) {
			for attempt := range 15 {
				lock := faultSubjects[attempt%len(faultSubjects)]
				s := netstress.Subject{New: lock.new, Network: inproc.Planted(inproc.Options{}, c.bug)}
				o := opts
				o.Seed = uint64(attempt)
				r := netstress.FindFaults(s, o)
				if !c.caught(r) {
					t.Logf("attempt %d (%s) missed: %q %q %q", attempt, lock.name, first(r.Resource.Violations), first(r.Resource.Inversions), first(r.Violations))
					continue
				}
				t.Logf("attempt %d (%s), %d faults: %q %q %q", attempt, lock.name, r.Faults, first(r.Resource.Violations), first(r.Resource.Inversions), first(r.Violations))
				s.Network, o.Timeout = inproc.Options{}, 0
				if r := netstress.FindFaults(s, o); r.Found() {
					t.Fatalf("the same run without the bug found %q %q %q", r.Resource.Violations, r.Resource.Inversions, r.Violations)
				}
				return
			}
			t.Fatalf("%s not caught in 15 runs: it breaks %s", c.bug, c.breaks)
		})
	}
}

func mentions(findings []string, s string) bool {
	for _, f := range findings {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

func first(findings []string) string {
	if len(findings) == 0 {
		return ""
	}
	return findings[0]
}
