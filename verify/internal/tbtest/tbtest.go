// Package tbtest provides a testing.TB that records failures instead of
// reporting them, so that tests can assert that a checker (verify.Stress,
// verify.Explore) does fail on a known-wrong lock, and fails for the right
// reason.
//
// Typical use:
//
//	rec := tbtest.New(t)
//	rec.Run(func(tb testing.TB) { verify.Stress(tb, badSubject) })
//	if !rec.Failed() { t.Fatal("bad lock not caught") }
//	if !rec.Contains("occupancy") { t.Fatalf("wrong failure: %v", rec.Messages()) }
//
// Fatal, Fatalf, FailNow, Skip, Skipf and SkipNow stop the calling goroutine
// with runtime.Goexit, as the real testing.T does; Run contains that by
// running the function in a goroutine of its own. Methods not overridden
// (Name, TempDir, Cleanup, Setenv, Context, ...) go to the parent TB.
package tbtest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// Recorder is a testing.TB that records failures and logs. It is safe for
// use by several goroutines.
type Recorder struct {
	testing.TB // the parent, for everything not overridden

	mu      sync.Mutex
	failed  bool
	skipped bool
	msgs    []string
	logs    []string
}

// New returns a Recorder whose unrecorded methods go to parent.
func New(parent testing.TB) *Recorder { return &Recorder{TB: parent} }

// Run calls f with the recorder in a new goroutine and waits for it to end,
// so a FailNow (runtime.Goexit) inside f ends only that goroutine. A panic
// in f is recorded as a failure with its stack instead of crashing the
// test binary.
func (r *Recorder) Run(f func(tb testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				r.fail(fmt.Sprintf("panic: %v\n%s", v, debug.Stack()))
			}
		}()
		f(r)
	}()
	<-done
}

// Failed reports whether a failure was recorded.
func (r *Recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// Skipped reports whether Skip, Skipf or SkipNow was called.
func (r *Recorder) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skipped
}

// Messages returns the recorded failure messages, oldest first.
func (r *Recorder) Messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// Logs returns the recorded Log/Logf messages, oldest first.
func (r *Recorder) Logs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.logs...)
}

// Contains reports whether some failure message contains sub.
func (r *Recorder) Contains(sub string) bool {
	for _, m := range r.Messages() {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

func (r *Recorder) fail(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	if msg != "" {
		r.msgs = append(r.msgs, msg)
	}
}

func (r *Recorder) log(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, msg)
}

func sprintln(args ...any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }

// Helper does nothing.
func (r *Recorder) Helper() {}

// Fail records a failure without a message.
func (r *Recorder) Fail() { r.fail("") }

// Error records a failure.
func (r *Recorder) Error(args ...any) { r.fail(sprintln(args...)) }

// Errorf records a failure.
func (r *Recorder) Errorf(format string, args ...any) { r.fail(fmt.Sprintf(format, args...)) }

// FailNow records a failure and stops the calling goroutine.
func (r *Recorder) FailNow() { r.fail(""); runtime.Goexit() }

// Fatal records a failure and stops the calling goroutine.
func (r *Recorder) Fatal(args ...any) { r.fail(sprintln(args...)); runtime.Goexit() }

// Fatalf records a failure and stops the calling goroutine.
func (r *Recorder) Fatalf(format string, args ...any) {
	r.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// Log records a message.
func (r *Recorder) Log(args ...any) { r.log(sprintln(args...)) }

// Logf records a message.
func (r *Recorder) Logf(format string, args ...any) { r.log(fmt.Sprintf(format, args...)) }

// SkipNow records a skip and stops the calling goroutine.
func (r *Recorder) SkipNow() {
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	runtime.Goexit()
}

// Skip records a skip and stops the calling goroutine.
func (r *Recorder) Skip(args ...any) { r.log(sprintln(args...)); r.SkipNow() }

// Skipf records a skip and stops the calling goroutine.
func (r *Recorder) Skipf(format string, args ...any) {
	r.log(fmt.Sprintf(format, args...))
	r.SkipNow()
}
