package netstress

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/transport/inproc"
)

// FaultOptions size a Faults run; zero values take the defaults.
type FaultOptions struct {
	N         int           // processes; 0: 4
	Faults    int           // faults injected; 0: 12
	After     int           // passages every live process makes after the last fault; 0: 5
	LockDelay time.Duration // the group's lock-delay after a crash; 0: 5ms
	Timeout   time.Duration // for the whole run; 0: 60s
	Seed      uint64
}

// FaultReport is what a Faults run saw.
type FaultReport struct {
	Faults     int // crashes, restarts and leaves injected
	Passages   int64
	InFlight   int64 // requests that a change of epoch ended (returned an error, asked again)
	Resource   ResourceReport
	Recoveries []time.Duration // from each crash to the survivors' next accepted access
	Violations []string        // the run's own: live locks that failed, holders fenced off, no progress
}

// Faults checks a lock through failures in one program, over an
// in-process network that keeps a group (inproc.Member): n processes make
// passages through a fenced Resource while processes crash (holding the
// lock or not), pause past their lease (inproc's Isolate: the process
// goes on inside its passage, cut off, and stops once its lock fails),
// come back with the same id, and leave and join again. A crashed
// process's goroutines are kept from the resource from the moment it
// crashes (in one program nothing else can stop them). It fails t if the
// resource sees a violation or an inversion, if an incarnation is
// granted in an epoch not newer than every epoch before it joined (it
// took up an old epoch's state), if a live holder is fenced
// off (a paused one: before its lease ran out, when its lock could not
// yet tell it), if a live process's lock fails, or if the processes stop
// making progress.
func Faults(t testing.TB, s Subject, o FaultOptions) FaultReport {
	t.Helper()
	rep := runFaults(s, o)
	for _, v := range slices.Concat(rep.Resource.Violations, rep.Resource.Inversions, rep.Violations) {
		if v != "" {
			t.Error(v)
		}
	}
	return rep
}

// FindFaults is Faults for a negative control: it returns what the run
// saw instead of failing a test, so a test can require a finding.
func FindFaults(s Subject, o FaultOptions) FaultReport { return runFaults(s, o) }

// Found reports whether the run found anything wrong.
func (r FaultReport) Found() bool {
	return len(r.Resource.Violations)+len(r.Resource.Inversions)+len(r.Violations) > 0
}

// faultProc is one incarnation of a process in a Faults run.
type faultProc struct {
	id, inc int
	lock    Lock
	floor   int64      // the largest epoch the resource had seen when it joined
	gate    sync.Mutex // held around each access: a crash waits for it
	dead    bool       // crashed: the goroutine must not touch the resource
	cut     bool       // cut off (paused past its lease): it goes on, its lock fails
	pause   time.Duration
	leave   atomic.Bool
	holding atomic.Bool
	exited  chan struct{}
}

type faultRun struct {
	s     Subject
	o     FaultOptions
	nw    *inproc.Network
	res   *Resource
	ctx   context.Context
	mu    sync.Mutex
	procs []*faultProc // by id: the newest incarnation
	incs  int
	rep   FaultReport
	// lastCrash is when the last crash happened (zero once a survivor
	// was accepted after it).
	lastCrash time.Time
	stop      atomic.Bool
	wg        sync.WaitGroup
}

func (r *faultRun) violate(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rep.Violations) < 16 {
		r.rep.Violations = append(r.rep.Violations, fmt.Sprintf(format, args...))
	}
}

func runFaults(s Subject, o FaultOptions) FaultReport {
	s.defaults()
	if o.N == 0 {
		o.N = 4
	}
	if o.Faults == 0 {
		o.Faults = 12
	}
	if o.After == 0 {
		o.After = 5
	}
	if o.LockDelay == 0 {
		o.LockDelay = 5 * time.Millisecond
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	net := s.Network
	net.LockDelay = o.LockDelay
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	r := &faultRun{s: s, o: o, nw: inproc.New(o.N, net), res: NewResource(), ctx: ctx, procs: make([]*faultProc, o.N)}
	defer r.nw.Close()
	for i := range o.N {
		if err := r.start(i, r.nw.Member(i)); err != nil {
			r.violate("%v", err)
			return r.finish()
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 52))
	for f := 0; f < o.Faults && ctx.Err() == nil; f++ {
		time.Sleep(time.Duration(2+rng.IntN(10)) * time.Millisecond)
		r.inject(rng)
	}
	// After the last fault every live process makes o.After more
	// passages: the group must have come back.
	r.mu.Lock()
	live := slices.Clone(r.procs)
	r.mu.Unlock()
	r.stop.Store(true)
	for _, p := range live {
		select {
		case <-p.exited:
		case <-ctx.Done():
			r.violate("no progress: process %d (incarnation %d) did not finish its passages in %v", p.id, p.inc, o.Timeout)
		}
	}
	return r.finish()
}

func (r *faultRun) finish() FaultReport {
	r.stop.Store(true)
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rep.Resource = r.res.Report()
	return r.rep
}

// start runs a new incarnation of process id over tr.
func (r *faultRun) start(id int, tr Transport) error {
	floor := r.res.Max() >> EpochShift
	l, err := r.s.New(id, r.o.N, tr)
	if err != nil {
		return fmt.Errorf("process %d joining: %v", id, err)
	}
	r.mu.Lock()
	r.incs++
	p := &faultProc{id: id, inc: r.incs, lock: l, floor: floor, exited: make(chan struct{})}
	r.procs[id] = p
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(p.exited)
		r.loop(p)
	}()
	return nil
}

// loop makes p's passages until p crashes or leaves, or the run stops
// and p has made its passages after the last fault.
func (r *faultRun) loop(p *faultProc) {
	rng := rand.New(rand.NewPCG(uint64(p.inc), 7))
	rw, _ := p.lock.(RWLock)
	after := 0
	for n := int64(0); ; n++ {
		if r.stop.Load() {
			if after++; after > r.o.After {
				return
			}
		}
		if p.leave.Load() {
			if err := p.lock.Close(); err != nil {
				r.violate("process %d: Close: %v", p.id, err)
			}
			return
		}
		write := rw == nil || rng.IntN(3) == 0
		var err error
		if write {
			err = p.lock.LockContext(r.ctx)
		} else {
			err = rw.RLockContext(r.ctx)
		}
		if err != nil {
			switch {
			case r.isDead(p) || r.isCut(p) || r.ctx.Err() != nil:
				return
			case p.lock.Err() != nil:
				r.violate("process %d (incarnation %d): its lock failed: %v", p.id, p.inc, p.lock.Err())
				return
			}
			atomic.AddInt64(&r.rep.InFlight, 1) // a change of epoch ended the request
			continue
		}
		p.holding.Store(true)
		id := PassageID{Proc: p.id, Incarnation: int64(p.inc), N: n}
		fence := p.lock.Fence()
		if fence>>EpochShift <= p.floor {
			r.violate("process %d (incarnation %d) was granted token %#x of epoch %d, not after epoch %d it joined after: an incarnation must join in a new epoch, remembering nothing", p.id, p.inc, fence, fence>>EpochShift, p.floor)
		}
		ok1, alive := r.access(p, id, write, fence, false)
		// Whether the lock still tells its holder it holds, read after a
		// refused access (the lease only runs out, never back in).
		leaseHeld := !ok1 && p.lock.Err() == nil
		if pause := r.paused(p); pause > 0 {
			time.Sleep(pause) // inside its passage, cut off
		}
		if alive {
			for range 2 + rng.IntN(4) {
				runtime.Gosched()
			}
			if rng.IntN(4) == 0 {
				time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			}
		}
		ok2, alive2 := r.access(p, id, write, fence, true)
		leaseHeld = leaseHeld || !ok2 && p.lock.Err() == nil
		p.holding.Store(false)
		if write {
			err = p.lock.Unlock()
		} else {
			err = rw.RUnlock()
		}
		if !alive || !alive2 {
			return
		}
		if r.isCut(p) {
			if leaseHeld {
				r.violate("process %d (incarnation %d), paused inside its passage, was fenced off (token %#x) while its lease still held: another was granted the lock before the paused holder could learn it had lost it", p.id, p.inc, fence)
			}
			return // its lock fails: a restart brings it back
		}
		atomic.AddInt64(&r.rep.Passages, 1)
		if err != nil && !r.isDead(p) {
			r.violate("process %d (incarnation %d): Unlock: %v", p.id, p.inc, err)
			return
		}
		if !ok1 || !ok2 {
			r.violate("process %d (incarnation %d): a live holder was fenced off (token %#x): the lock granted a newer token while it was inside", p.id, p.inc, fence)
		}
	}
}

// access makes one access through the gate; alive is false if p has
// crashed, and then nothing is accessed.
func (r *faultRun) access(p *faultProc, id PassageID, write bool, fence int64, last bool) (ok, alive bool) {
	p.gate.Lock()
	defer p.gate.Unlock()
	if p.dead {
		return false, false
	}
	ok = r.res.Access(id, write, fence, last)
	if ok {
		r.mu.Lock()
		if !r.lastCrash.IsZero() && r.procs[p.id] == p {
			r.rep.Recoveries = append(r.rep.Recoveries, time.Since(r.lastCrash))
			r.lastCrash = time.Time{}
		}
		r.mu.Unlock()
	}
	return ok, true
}

func (r *faultRun) isDead(p *faultProc) bool {
	p.gate.Lock()
	defer p.gate.Unlock()
	return p.dead
}

func (r *faultRun) isCut(p *faultProc) bool {
	p.gate.Lock()
	defer p.gate.Unlock()
	return p.cut
}

// paused returns how long p pauses inside its passage: once, after it
// was cut off.
func (r *faultRun) paused(p *faultProc) time.Duration {
	p.gate.Lock()
	defer p.gate.Unlock()
	d := p.pause
	p.pause = 0
	return d
}

// inject makes one fault: a crash or a pause past the lease (of a holder
// if one holds the lock) followed by a restart with the same id, or a
// leave followed by a join.
// At least two processes stay in the group meanwhile.
func (r *faultRun) inject(rng *rand.Rand) {
	r.mu.Lock()
	procs := slices.Clone(r.procs)
	r.mu.Unlock()
	victim := procs[rng.IntN(len(procs))]
	for _, p := range procs {
		if p.holding.Load() && rng.IntN(2) == 0 {
			victim = p
		}
	}
	r.rep.Faults++
	switch rng.IntN(4) {
	case 0:
		// Leave at the next passage's boundary, then join again.
		victim.leave.Store(true)
		select {
		case <-victim.exited:
		case <-r.ctx.Done():
			return
		}
	case 1:
		// Cut off: it goes on inside its passage for up to twice its
		// lease, its lock fails, and it stops; then a new incarnation.
		victim.gate.Lock()
		victim.cut = true
		victim.pause = time.Duration(rng.Int64N(int64(2 * r.o.LockDelay)))
		r.nw.Isolate(victim.id)
		r.mu.Lock()
		r.lastCrash = time.Now()
		r.mu.Unlock()
		victim.gate.Unlock()
		select {
		case <-victim.exited:
		case <-r.ctx.Done():
			return
		}
	default:
		victim.gate.Lock()
		victim.dead = true
		r.nw.Crash(victim.id)
		r.mu.Lock()
		r.lastCrash = time.Now()
		r.mu.Unlock()
		victim.gate.Unlock()
	}
	if err := r.start(victim.id, r.nw.Restart(victim.id)); err != nil {
		r.violate("%v", err)
	}
}
