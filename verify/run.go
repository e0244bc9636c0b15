package verify

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// Running a layer without a test: for negative controls, which must be
// caught, and for tools built on verify, which read the report. Nothing
// is reported through a testing.TB and nothing fails.

// RunStress runs Stress on s and returns its report, failures included,
// without reporting them anywhere. It counts passages with a counter the
// race detector does not watch, so a lock that lets two holders in shows
// as a lost update in the report instead of failing the test binary (a
// race inside the lock itself is still the race detector's).
func RunStress(s Subject, opts ...StressOption) *StressReport {
	var rep StressReport
	q := &quietTB{}
	q.run(func(tb testing.TB) {
		Stress(tb, s, append(append([]StressOption{}, opts...), stressQuietCounter(), StressReportTo(&rep))...)
	})
	if q.fatal != "" && !rep.Failed() {
		rep.Failures = append(rep.Failures, StressFailure{Kind: StressPanic, Goroutine: -1, Passage: -1, Msg: q.fatal})
	}
	return &rep
}

// RunExplore runs Explore on s and returns its report (Failure is the
// violation found, if any), without reporting anything. The error is for
// a subject or option Explore cannot run (a bad replay token, say).
func RunExplore(s Subject, opts ...ExploreOption) (*ExploreReport, error) {
	var rep ExploreReport
	q := &quietTB{}
	q.run(func(tb testing.TB) {
		Explore(tb, s, append(append([]ExploreOption{}, opts...), ExploreReportTo(&rep))...)
	})
	if q.fatal != "" {
		return &rep, errors.New(q.fatal)
	}
	return &rep, nil
}

// quietTB is a testing.TB that keeps what a layer reports to itself. Only
// the methods the layers call are implemented; Fatal stops the goroutine
// as testing.T's does, so run calls f in a goroutine of its own.
type quietTB struct {
	testing.TB // nil: the layers call nothing else
	mu         sync.Mutex
	failed     bool
	fatal      string
}

func (q *quietTB) run(f func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(q)
	}()
	<-done
}

func (q *quietTB) Helper()             {}
func (q *quietTB) Log(...any)          {}
func (q *quietTB) Logf(string, ...any) {}
func (q *quietTB) Error(args ...any)   { q.Fail() }
func (q *quietTB) Errorf(string, ...any) {
	q.Fail()
}
func (q *quietTB) Fail() {
	q.mu.Lock()
	q.failed = true
	q.mu.Unlock()
}
func (q *quietTB) Failed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.failed
}
func (q *quietTB) Fatal(args ...any) { q.Fatalf("%s", fmt.Sprint(args...)) }
func (q *quietTB) Fatalf(format string, args ...any) {
	q.mu.Lock()
	q.failed, q.fatal = true, fmt.Sprintf(format, args...)
	q.mu.Unlock()
	runtime.Goexit()
}
func (q *quietTB) FailNow()     { q.Fatalf("FailNow") }
func (q *quietTB) Name() string { return "verify" }
