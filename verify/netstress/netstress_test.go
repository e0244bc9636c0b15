package netstress

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fake is a "distributed" lock that ignores its transport: every process
// shares one sync.RWMutex. Its bugs are the negative controls that prove
// each of netstress's checks bites.
type fake struct {
	shared *fakeShared
	bug    string
	local  sync.Mutex // one passage at a time per process, as the real locks
	fence  int64
}

type fakeShared struct {
	mu    sync.RWMutex
	clock atomic.Int64
}

func (f *fake) Lock() {
	f.local.Lock()
	if f.bug != "no-exclusion" {
		f.shared.mu.Lock()
	}
	f.fence = f.shared.clock.Add(1)
	if f.bug == "stale-fence" {
		f.fence = 1
	}
}

func (f *fake) Unlock() error {
	if f.bug != "no-exclusion" {
		f.shared.mu.Unlock()
	}
	f.local.Unlock()
	return nil
}

func (f *fake) LockContext(ctx context.Context) error {
	if f.bug == "stuck" {
		<-ctx.Done()
		return ctx.Err()
	}
	f.Lock()
	return nil
}

func (f *fake) RLock() {
	f.local.Lock()
	if f.bug == "exclusive-readers" {
		f.shared.mu.Lock()
	} else {
		f.shared.mu.RLock()
	}
	f.fence = f.shared.clock.Load()
}

func (f *fake) RUnlock() error {
	if f.bug == "exclusive-readers" {
		f.shared.mu.Unlock()
	} else {
		f.shared.mu.RUnlock()
	}
	f.local.Unlock()
	return nil
}

func (f *fake) RLockContext(ctx context.Context) error {
	if f.bug == "stuck" {
		<-ctx.Done()
		return ctx.Err()
	}
	f.RLock()
	return nil
}

func (f *fake) TryLock() bool         { return false }
func (f *fake) TryRLock() bool        { return false }
func (f *fake) Fence() int64          { return f.fence } // read by the holder only
func (f *fake) Done() <-chan struct{} { return nil }
func (f *fake) Err() error            { return nil }
func (f *fake) Close() error          { return nil }

func fakeSubject(bug string) Subject {
	shared := &fakeShared{}
	return Subject{
		New:         func(self, n int, tr Transport) (Lock, error) { return &fake{shared: shared, bug: bug}, nil },
		Passages:    40,
		Timeout:     2 * time.Second,
		OverlapWait: 300 * time.Millisecond,
	}
}

func TestCorrectFakePasses(t *testing.T) {
	r := Run(t, fakeSubject(""))
	if r.MaxReaders != 4 || r.Reads == 0 || r.Writes == 0 {
		t.Errorf("report %+v", r)
	}
}

// Each check bites: two writers at once, a writer's stale fencing token,
// readers that never share, a lock that never grants.
func TestChecksBite(t *testing.T) {
	for bug, want := range map[string]string{
		"no-exclusion":      "beside another writer",
		"stale-fence":       "fencing token",
		"exclusive-readers": "readers do not share",
		"stuck":             "no progress",
	} {
		if bug == "no-exclusion" && raceEnabled {
			continue // the race detector reports the writers' counter itself
		}
		r := Find(fakeSubject(bug))
		found := false
		for _, v := range r.Violations {
			found = found || strings.Contains(v, want)
		}
		if !found {
			t.Errorf("%s: no violation mentioning %q in %q", bug, want, r.Violations)
		}
	}
}
