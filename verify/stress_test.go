package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/lockgen/lockgen/verify/internal/tbtest"
)

// ---- correct locks: Stress must pass ----

func mutexSubject() Subject {
	return Locker("sync.Mutex", func() sync.Locker { return new(sync.Mutex) })
}

func TestStressMutex(t *testing.T) {
	var rep StressReport
	Stress(t, mutexSubject(), StressReportTo(&rep))
	t.Log(rep.String())
	if rep.MaxOccupancy != 1 {
		t.Errorf("max occupancy %d, want 1", rep.MaxOccupancy)
	}
	if !rep.Tryable || rep.TryAttempts == 0 || rep.TrySuccesses == 0 {
		t.Errorf("TryLock not exercised: %s", rep.String())
	}
	if rep.PassagesPerGoroutine != 0 || rep.Sized != DefaultStressDuration || rep.Passages < 1000 {
		t.Errorf("a default run: %d passages per goroutine, sized %v, %d passages; want a run of %v with many passages",
			rep.PassagesPerGoroutine, rep.Sized, rep.Passages, DefaultStressDuration)
	}
	if rep.Duration < DefaultStressDuration {
		t.Errorf("a run sized by time ended after %v, before its %v", rep.Duration, DefaultStressDuration)
	}
}

// TestStressSizedByCount: StressPassages makes every goroutine make
// exactly that many passages.
func TestStressSizedByCount(t *testing.T) {
	var rep StressReport
	Stress(t, mutexSubject(), StressReportTo(&rep), StressPassages(300))
	if want := int64(rep.Goroutines * 300); rep.Passages != want {
		t.Errorf("passages %d, want %d", rep.Passages, want)
	}
}

// TestStressSizedByTimeScalesWithProcesses: a 2-process lock gets as long
// a run as any other, not 2 × a fixed count of passages. (Not a count of
// passages: on a machine whose processors are busy elsewhere, 100 ms
// under -race held 137 passages once.)
func TestStressSizedByTimeScalesWithProcesses(t *testing.T) {
	var rep StressReport
	s := IDLocker("2-process mutex", 2, func() IDLock { return &idMutex{procs: 2, owner: -1} })
	Stress(t, s, StressReportTo(&rep), StressDuration(100*time.Millisecond))
	if rep.Goroutines != 2 || rep.Duration < 100*time.Millisecond || rep.Sized != 100*time.Millisecond || rep.PassagesPerGoroutine != 0 {
		t.Errorf("2-process lock: %d goroutines, %v (sized %v), %d passages per goroutine", rep.Goroutines, rep.Duration, rep.Sized, rep.PassagesPerGoroutine)
	}
}

// idMutex is an id-based lock that checks the ids Stress passes.
type idMutex struct {
	mu    sync.Mutex
	owner int // guarded by mu
	procs int
}

func (l *idMutex) check(id int) {
	if id < 0 || id >= l.procs {
		panic(fmt.Sprintf("idMutex: id %d out of range [0,%d)", id, l.procs))
	}
}
func (l *idMutex) Lock(id int) { l.check(id); l.mu.Lock(); l.owner = id }
func (l *idMutex) Unlock(id int) {
	l.check(id)
	if l.owner != id {
		panic(fmt.Sprintf("idMutex: Unlock(%d) by non-owner (owner %d)", id, l.owner))
	}
	l.owner = -1
	l.mu.Unlock()
}
func (l *idMutex) TryLock(id int) bool {
	l.check(id)
	if !l.mu.TryLock() {
		return false
	}
	l.owner = id
	return true
}

func TestStressIDLocker(t *testing.T) {
	var rep StressReport
	s := IDLocker("idMutex", 5, func() IDLock { return &idMutex{procs: 5, owner: -1} })
	Stress(t, s, StressReportTo(&rep))
	t.Log(rep.String())
	if rep.Goroutines != 5 {
		t.Errorf("goroutines %d, want 5 (capped by Procs)", rep.Goroutines)
	}
	if !rep.Tryable || rep.TrySuccesses == 0 {
		t.Errorf("TryLock(id) not exercised: %s", rep.String())
	}
}

// clh is a CLH queue lock with per-process handles: each handle owns a
// node and takes over its predecessor's on release.
type clh struct{ tail atomic.Pointer[clhNode] }

type clhNode struct{ locked atomic.Bool }

type clhHandle struct {
	l          *clh
	node, pred *clhNode
}

func newCLH() *clh {
	l := new(clh)
	l.tail.Store(new(clhNode))
	return l
}

func (h *clhHandle) Lock() {
	h.node.locked.Store(true)
	h.pred = h.l.tail.Swap(h.node)
	for h.pred.locked.Load() {
		runtime.Gosched()
	}
}

func (h *clhHandle) Unlock() {
	h.node.locked.Store(false)
	h.node, h.pred = h.pred, nil
}

func TestStressPerProcess(t *testing.T) {
	var rep StressReport
	s := PerProcess("CLH", func() func(int) sync.Locker {
		l := newCLH()
		return func(int) sync.Locker { return &clhHandle{l: l, node: new(clhNode)} }
	})
	// A FIFO queue lock whose waiters yield hands over only when the
	// successor is scheduled; on a loaded machine that makes passages slow
	// (seconds for the default run), so this run is shorter.
	Stress(t, s, StressReportTo(&rep), StressPassages(500))
	t.Log(rep.String())
	if rep.Tryable {
		t.Errorf("CLH handles have no TryLock, but the report says Tryable")
	}
}

func TestStressRWMutex(t *testing.T) {
	var rep StressReport
	s := RWLocker("sync.RWMutex", func() RWLock { return new(sync.RWMutex) })
	Stress(t, s, StressReportTo(&rep))
	t.Log(rep.String())
	if rep.MaxReaders < 2 {
		t.Errorf("readers never overlapped: %s", rep.String())
	}
	if rep.Reads == 0 || rep.Reads == rep.Passages {
		t.Errorf("want both reads and writes: %s", rep.String())
	}
}

// semLocker adapts a weighted semaphore of capacity k to sync.Locker with
// TryLock.
type semLocker struct{ s *semaphore.Weighted }

func (l semLocker) Lock() {
	if err := l.s.Acquire(context.Background(), 1); err != nil {
		panic(err)
	}
}
func (l semLocker) Unlock()       { l.s.Release(1) }
func (l semLocker) TryLock() bool { return l.s.TryAcquire(1) }

// semNoTry hides TryLock, so that only the concurrent run can catch what
// is wrong.
type semNoTry struct{ l semLocker }

func (l semNoTry) Lock()   { l.l.Lock() }
func (l semNoTry) Unlock() { l.l.Unlock() }

func semSubject(name string, capacity int64, try bool) Subject {
	return Locker(name, func() sync.Locker {
		l := semLocker{semaphore.NewWeighted(capacity)}
		if !try {
			return semNoTry{l}
		}
		return l
	})
}

func TestStressSemaphoreK3(t *testing.T) {
	var rep StressReport
	Stress(t, semSubject("semaphore(3)", 3, true).WithK(3), StressReportTo(&rep))
	t.Log(rep.String())
	if rep.MaxOccupancy < 2 || rep.MaxOccupancy > 3 {
		t.Errorf("max occupancy %d, want 2..3", rep.MaxOccupancy)
	}
}

func TestStressRaisesGOMAXPROCS(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	var rep StressReport
	Stress(t, mutexSubject(), StressReportTo(&rep), StressPassages(100))
	if rep.Race != raceEnabled() {
		t.Errorf("report says race %v", rep.Race)
	}
	if rep.GOMAXPROCS != 2 || rep.Goroutines != 8 {
		t.Errorf("GOMAXPROCS %d, goroutines %d during the run; want 2 and 8", rep.GOMAXPROCS, rep.Goroutines)
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d after the run, want 1 restored", got)
	}
}

// ---- wrong locks: Stress must fail, for the right reason ----

// stressMustFail runs Stress on s through a recording TB and checks that it
// failed with one of the kinds in want, both in the report and in the
// message given to t.
func stressMustFail(t *testing.T, s Subject, want []StressKind, opts ...StressOption) (*StressReport, string) {
	t.Helper()
	return stressMustFailWithin(t, 1, 0, s, want, opts...)
}

// stressMustFailWithin is stressMustFail for a wrong lock that Stress
// catches only with some probability per run: it must fail within the
// given number of runs or the time budget, whichever comes first.
func stressMustFailWithin(t *testing.T, runs int, budget time.Duration, s Subject, want []StressKind, opts ...StressOption) (*StressReport, string) {
	t.Helper()
	var (
		rec *tbtest.Recorder
		rep StressReport
		run int
	)
	opts = append(opts, StressReportTo(&rep), stressQuietCounter())
	start := time.Now()
	for run = 1; run <= runs; run++ {
		rec = tbtest.New(t)
		rec.Run(func(tb testing.TB) { Stress(tb, s, opts...) })
		if rec.Failed() || time.Since(start) > budget {
			break
		}
	}
	if run > 1 {
		t.Logf("%s: %d run(s) in %v", s.Name, min(run, runs), time.Since(start).Round(time.Millisecond))
	}
	if !rec.Failed() || !rep.Failed() {
		t.Fatalf("%s: Stress did not fail in %d run(s) (recorder %v, report %v); last saw %s",
			s.Name, min(run, runs), rec.Failed(), rep.Failed(), rep.String())
	}
	msgs := rec.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%s: want one failure message, got %d", s.Name, len(msgs))
	}
	msg := msgs[0]
	found := false
	for _, k := range want {
		if rep.Has(k) && strings.Contains(msg, string(k)+": ") {
			found = true
		}
	}
	if !found {
		t.Fatalf("%s: failed, but not with %v:\n%s", s.Name, want, msg)
	}
	for _, part := range []string{"configuration: ", "seen: ", s.Name} {
		if !strings.Contains(msg, part) {
			t.Errorf("%s: message lacks %q:\n%s", s.Name, part, msg)
		}
	}
	short := msg
	if i := strings.Index(short, "all goroutine stacks:"); i >= 0 {
		short = short[:i] + "all goroutine stacks: [...]"
	}
	t.Logf("caught as expected:\n%s", short)
	return &rep, msg
}

var mutualExclusion = []StressKind{StressOccupancy, StressLostUpdate}

type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}

func TestStressCatchesNoLock(t *testing.T) {
	stressMustFail(t, Locker("no lock", func() sync.Locker { return noLock{} }), mutualExclusion)
}

// testThenSet checks the flag and sets it in two separate atomic steps.
type testThenSet struct{ flag atomic.Int32 }

func (l *testThenSet) Lock() {
	for {
		if l.flag.Load() == 0 {
			l.flag.Store(1)
			return
		}
		runtime.Gosched()
	}
}
func (l *testThenSet) Unlock() { l.flag.Store(0) }

// The window between the test and the set is a few instructions with no
// yield in it: Stress hits it only when two goroutines run truly in
// parallel and load the free flag within nanoseconds of each other. Under
// the race detector, whose instrumentation widens the window, between 15%
// and 100% of runs catch it on the 2-core machines, depending on their
// load; without it, about one run in several hundred. Hence repeated runs
// within a budget, under -race only; the controlled scheduler (Explore) is
// the layer that catches it every time.
func TestStressCatchesTestThenSet(t *testing.T) {
	if !raceEnabled() {
		t.Skip("the test-then-set window is too narrow to hit reliably without -race")
	}
	stressMustFailWithin(t, 200, 10*time.Second,
		Locker("test-then-set", func() sync.Locker { return new(testThenSet) }), mutualExclusion)
}

func TestStressCatchesKPlusOne(t *testing.T) {
	// Without TryLock: the concurrent run must see the fourth holder.
	rep, _ := stressMustFail(t, semSubject("semaphore(4) as k=3", 4, false).WithK(3), []StressKind{StressOccupancy})
	if rep.MaxOccupancy != 4 {
		t.Errorf("max occupancy %d, want 4", rep.MaxOccupancy)
	}
	// With TryLock: the fresh-instance check already sees it.
	stressMustFail(t, semSubject("semaphore(4) with TryLock as k=3", 4, true).WithK(3), []StressKind{StressTryHeld})
}

// lockOnly hides TryLock.
type lockOnly struct{ l sync.Locker }

func (l lockOnly) Lock()   { l.l.Lock() }
func (l lockOnly) Unlock() { l.l.Unlock() }

func TestStressCatchesKExclusionThatIsAMutex(t *testing.T) {
	s := Locker("sync.Mutex as k=3", func() sync.Locker { return lockOnly{new(sync.Mutex)} }).WithK(3)
	stressMustFail(t, s, []StressKind{StressNoOverlap})
	// With TryLock, the fresh-instance check sees that a second holder
	// cannot get in.
	s = Locker("sync.Mutex with TryLock as k=3", func() sync.Locker { return new(sync.Mutex) }).WithK(3)
	stressMustFail(t, s, []StressKind{StressTryFresh})
}

// rwAsMutex is a reader/writer lock whose readers exclude each other.
type rwAsMutex struct{ sync.Mutex }

func (l *rwAsMutex) RLock()   { l.Lock() }
func (l *rwAsMutex) RUnlock() { l.Unlock() }

func TestStressCatchesRWThatIsAMutex(t *testing.T) {
	s := RWLocker("RW as mutex", func() RWLock { return new(rwAsMutex) })
	rep, _ := stressMustFail(t, s, []StressKind{StressNoOverlap})
	if rep.MaxReaders != 1 {
		t.Errorf("max readers %d, want 1", rep.MaxReaders)
	}
}

// rwWriterIgnoresReaders keeps readers out while a writer is in, but lets a
// writer in while readers are.
type rwWriterIgnoresReaders struct {
	mu      sync.Mutex
	readers atomic.Int32
}

func (l *rwWriterIgnoresReaders) RLock()   { l.mu.Lock(); l.readers.Add(1); l.mu.Unlock() }
func (l *rwWriterIgnoresReaders) RUnlock() { l.readers.Add(-1) }
func (l *rwWriterIgnoresReaders) Lock()    { l.mu.Lock() }
func (l *rwWriterIgnoresReaders) Unlock()  { l.mu.Unlock() }

func TestStressCatchesRWWriterWithReaders(t *testing.T) {
	s := RWLocker("RW writer ignores readers", func() RWLock { return new(rwWriterIgnoresReaders) })
	stressMustFail(t, s, []StressKind{StressWriterShared})
}

// forgetfulMutex's Unlock forgets to release about once in 64 calls.
type forgetfulMutex struct {
	mu sync.Mutex
	n  int // guarded by mu
}

func (l *forgetfulMutex) Lock() { l.mu.Lock() }
func (l *forgetfulMutex) Unlock() {
	l.n++
	if rand.IntN(64) == 0 && l.n > 1 {
		return
	}
	l.mu.Unlock()
}

func TestStressCatchesLostRelease(t *testing.T) {
	start := time.Now()
	rep, msg := stressMustFail(t, Locker("forgetful", func() sync.Locker { return new(forgetfulMutex) }),
		[]StressKind{StressHang}, StressStall(200*time.Millisecond), StressTimeout(2*time.Second))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("hang took %v to report, want about the 200ms stall", d)
	}
	for _, part := range []string{"had not finished", "in Acquire", "all goroutine stacks:", "goroutine ", "(*stressRun).worker"} {
		if !strings.Contains(msg, part) {
			t.Errorf("hang report lacks %q", part)
		}
	}
	if rep.Stacks == "" {
		t.Errorf("report has no stacks")
	}
}

// neverTry is a mutex whose TryLock always fails.
type neverTry struct{ sync.Mutex }

func (*neverTry) TryLock() bool { return false }

func TestStressCatchesTryLockThatNeverSucceeds(t *testing.T) {
	stressMustFail(t, Locker("never-try", func() sync.Locker { return new(neverTry) }), []StressKind{StressTryFresh})
}

// onceTry is a mutex whose TryLock succeeds only on a never-used lock (a
// try-acquire reading stale state, like a ticket lock's TryLock that
// forgets to read NOW).
type onceTry struct {
	sync.Mutex
	used atomic.Bool
}

func (l *onceTry) Lock() { l.used.Store(true); l.Mutex.Lock() }
func (l *onceTry) TryLock() bool {
	if l.used.Load() {
		return false
	}
	l.used.Store(true)
	return l.Mutex.TryLock()
}

func TestStressCatchesTryLockThatWorksOnce(t *testing.T) {
	stressMustFail(t, Locker("once-try", func() sync.Locker { return new(onceTry) }), []StressKind{StressTryFresh})
}

// turnTry is an id mutex whose TryLock succeeds only for the process that
// held the lock last (a try that tests a turn register it should not).
type turnTry struct {
	idMutex
	last atomic.Int64
}

func (l *turnTry) Unlock(id int) { l.last.Store(int64(id)); l.idMutex.Unlock(id) }
func (l *turnTry) TryLock(id int) bool {
	if int64(id) != l.last.Load() {
		return false
	}
	return l.idMutex.TryLock(id)
}

func TestStressCatchesTryLockOnlyForTheLastHolder(t *testing.T) {
	s := IDLocker("turn-try", 4, func() IDLock { return &turnTry{idMutex: idMutex{procs: 4, owner: -1}} })
	_, msg := stressMustFail(t, s, []StressKind{StressTryFresh})
	if !strings.Contains(msg, "had just released") {
		t.Errorf("caught, but not by the every-process check:\n%s", msg)
	}
}

// alwaysTry is a mutex whose TryLock succeeds even when the lock is held.
type alwaysTry struct{ sync.Mutex }

func (*alwaysTry) TryLock() bool { return true }
func (l *alwaysTry) Unlock()     { l.Mutex.TryLock(); l.Mutex.Unlock() }

func TestStressCatchesTryLockThatIgnoresTheHolder(t *testing.T) {
	stressMustFail(t, Locker("always-try", func() sync.Locker { return new(alwaysTry) }), []StressKind{StressTryHeld})
}

// panicky panics in Unlock after a while, as a lock's misuse check might.
type panicky struct {
	mu sync.Mutex
	n  int
}

func (l *panicky) Lock() { l.mu.Lock() }
func (l *panicky) Unlock() {
	l.n++
	if l.n == 100 {
		l.mu.Unlock()
		panic("panicky: unlock of unlocked lock")
	}
	l.mu.Unlock()
}

func TestStressCatchesPanic(t *testing.T) {
	_, msg := stressMustFail(t, Locker("panicky", func() sync.Locker { return new(panicky) }), []StressKind{StressPanic})
	if !strings.Contains(msg, "unlock of unlocked lock") {
		t.Errorf("panic value missing from the report")
	}
}

// TestStressPlainCounterRaces checks that the race detector watches the
// plain counter: a child test binary stresses no lock at all without the
// quiet counter, and must die reporting a data race on the counter.
func TestStressPlainCounterRaces(t *testing.T) {
	if os.Getenv("VERIFY_STRESS_CHILD") == "plain-counter" {
		Stress(t, Locker("no lock", func() sync.Locker { return noLock{} }), StressPassages(100))
		return
	}
	if !raceEnabled() {
		t.Skip("needs -race")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStressPlainCounterRaces$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VERIFY_STRESS_CHILD=plain-counter")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("child passed:\n%s", out)
	}
	for _, want := range []string{"WARNING: DATA RACE", "(*stressRun).writeCounter", "race detected during execution of test"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

// ---- the recorder ----

func TestRecorder(t *testing.T) {
	rec := tbtest.New(t)
	reached := false
	rec.Run(func(tb testing.TB) {
		tb.Helper()
		tb.Logf("log %d", 1)
		tb.Errorf("first %d", 1)
		tb.Fatalf("second %s", "x")
		reached = true
	})
	if reached {
		t.Errorf("Fatalf did not stop the goroutine")
	}
	if !rec.Failed() || len(rec.Messages()) != 2 || rec.Messages()[1] != "second x" || !rec.Contains("first 1") {
		t.Errorf("recorded %v", rec.Messages())
	}
	if len(rec.Logs()) != 1 {
		t.Errorf("logs %v", rec.Logs())
	}
	rec2 := tbtest.New(t)
	rec2.Run(func(testing.TB) { panic("boom") })
	if !rec2.Contains("panic: boom") {
		t.Errorf("panic not recorded: %v", rec2.Messages())
	}
}

// slowMutex is correct but takes about a millisecond to acquire.
type slowMutex struct{ mu sync.Mutex }

func (l *slowMutex) Lock()   { time.Sleep(time.Millisecond); l.mu.Lock() }
func (l *slowMutex) Unlock() { l.mu.Unlock() }

// A slow but live lock that cannot finish its passages within the time
// budget passes: the goroutines stop after their current passage.
func TestStressTimeBudgetEndsALiveRunEarly(t *testing.T) {
	var rep StressReport
	rec := tbtest.New(t)
	rec.Run(func(tb testing.TB) {
		Stress(tb, Locker("slow", func() sync.Locker { return new(slowMutex) }), StressPassages(DefaultStressPassages),
			StressTimeout(300*time.Millisecond), StressStall(time.Second), StressReportTo(&rep))
	})
	if rec.Failed() || rep.Failed() {
		t.Fatalf("a live lock failed at the time budget: %v", rec.Messages())
	}
	planned := int64(rep.Goroutines * rep.PassagesPerGoroutine)
	if rep.Passages == 0 || rep.Passages >= planned {
		t.Fatalf("passages = %d, want some but fewer than the %d planned", rep.Passages, planned)
	}
	if !rep.OutOfTime || !strings.Contains(rep.String(), "stopped early at the time budget") {
		t.Errorf("report does not say the budget ran out:\n%s", rep.String())
	}
}
