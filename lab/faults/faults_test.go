package faults

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockgen/lockgen/templates/distributed"
)

// envPlant names the bug TestShortRunCatches plants in its children.
const envPlant = "LOCKGEN_FAULTS_TEST_PLANT"

// TestMain lets the test binary be a child of the suite too.
func TestMain(m *testing.M) {
	if os.Getenv(envPlant) == "frozen-fence" {
		plantLock = func(l lock) lock { return &frozenFence{lock: l} }
	}
	if IsChild() {
		Child()
	}
	os.Exit(m.Run())
}

// The suite knows every entry of the catalogue.
func TestCatalogueCovered(t *testing.T) {
	for _, e := range distributed.All() {
		if catalogue[e.Name] == nil {
			t.Errorf("the catalogue's %s is not in the fault suite", e.Name)
		}
	}
}

// The short run make test makes: every lock of the catalogue at n = 3
// through two rounds of faults (kills of holders and waiters with a
// restart, stops past the lease), one server restart and an intruder;
// no violation, no inversion, every group back after every fault, no
// intruder's message through. Lock failures no fault explains (a live
// process that lost its lease on a loaded machine) are logged: make
// faults fails on them.
func TestShortRun(t *testing.T) {
	if raceEnabled {
		t.Skip("its children are this binary: make test runs it without -race")
	}
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	var log lockedBuilder
	rep, err := Run(Config{Ns: []int{3}, Faults: 30, ServerRestarts: 1, Intruder: 600, Lease: time.Second,
		ChildArgs: []string{"-test.run=^$"}, ChildLog: &log, Progress: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Write(&b)
	t.Log("\n" + b.String())
	if rep.Failed() {
		t.Errorf("the suite failed:\n%s\nchildren's stderr:\n%s", b.String(), log.String())
	}
	if u := rep.Unexplained(); u > 0 {
		t.Logf("%d lock failures no fault explains (see above)", u)
	}
	if rep.TotalFaults() < 30 {
		t.Errorf("%d faults injected, want at least 30", rep.TotalFaults())
	}
}

// lockedBuilder collects the children's stderr, written from a
// goroutine per child.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// frozenFence is a lock whose fencing token stops at its first grant's:
// later passages carry a token that does not rise, against the fencing
// token's defining property (Kleppmann, "How to do distributed
// locking", 2016; Chubby's sequencers, Burrows, OSDI 2006).
type frozenFence struct {
	lock
	first int64
}

func (f *frozenFence) Fence() int64 {
	if f.first == 0 {
		f.first = f.lock.Fence()
	}
	return f.first
}

// The OS-process suite sees a wrong lock: with children whose tokens
// stop rising (frozenFence), a short run must report inversions and
// fail. Its figures are logged.
func TestShortRunCatches(t *testing.T) {
	if raceEnabled {
		t.Skip("its children are this binary: make test runs it without -race")
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Setenv(envPlant, "frozen-fence")
	rep, err := Run(Config{Algorithms: []string{"suzuki-kasami"}, Ns: []int{3}, Faults: 2, Lease: time.Second,
		ChildArgs: []string{"-test.run=^$"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Write(&b)
	var inversions []string
	for _, g := range rep.Groups {
		inversions = append(inversions, g.Inversions...)
	}
	if len(inversions) == 0 || !rep.Failed() {
		t.Fatalf("children whose tokens do not rise: %d inversions, failed %v:\n%s", len(inversions), rep.Failed(), b.String())
	}
	t.Logf("%d faults, %d inversions caught, the first: %s", rep.TotalFaults(), len(inversions), inversions[0])
}
