// Package corpus is a corpus of small concurrent programs written on
// verify/checked's primitives, each either correct or a control with one
// known bug. The same programs run on the standard primitives with real
// goroutines (corpus_test.go, in a normal build: the checked types are the
// standard ones there) and under the controlled scheduler on the checked
// ones (corpus_check_test.go, -tags lockgen_check). A checked primitive
// must allow exactly the behaviours of the one it stands for: a correct
// program the real run passes must pass every schedule explored, and each
// control must be caught there. Every primitive is used by at least one
// correct program (Uses), so a model that is too strict (a deadlock the
// real one cannot reach) or too loose (a control missed) shows up here.
package corpus

import (
	stdatomic "sync/atomic"
	"time"

	"github.com/lockgen/lockgen/verify/checked/atomic"
	"github.com/lockgen/lockgen/verify/checked/runtime"
	"github.com/lockgen/lockgen/verify/checked/sync"
)

// Primitives names every primitive of verify/checked, as Program.Uses
// lists them.
var Primitives = []string{
	"Mutex", "RWMutex", "Cond", "WaitGroup", "Once", "Sema", "Parker", "Chan",
	"atomic.Int32", "atomic.Int64", "atomic.Uint32", "atomic.Uint64", "atomic.Uintptr",
	"atomic.Bool", "atomic.Pointer", "Gosched",
}

// Program is one program of the corpus.
type Program struct {
	Name string
	Uses []string // the primitives it exercises
	// Bug is "" for a correct program; for a control, the bug it plants,
	// which exploring its schedules must find.
	Bug string
	// New makes a fresh instance.
	New func() *Instance
}

// Instance is one run's program: its goroutines and the check of what they
// left. A goroutine that sees something wrong calls Fail.
type Instance struct {
	Bodies []func()
	Check  func(*Instance) // after every body returned; may call Fail
	failed stdatomic.Pointer[string]
}

// Fail records what went wrong (the first report is kept).
func (in *Instance) Fail(msg string) { in.failed.CompareAndSwap(nil, &msg) }

// Failure is what went wrong, or "".
func (in *Instance) Failure() string {
	if p := in.failed.Load(); p != nil {
		return *p
	}
	return ""
}

// occupancy counts the goroutines inside a critical section: each step is
// a scheduling point under the controlled scheduler, so an interleaving
// that lets too many in is seen.
type occupancy struct{ n atomic.Int32 }

func (o *occupancy) enter(in *Instance, most int32, what string) {
	if o.n.Add(1) > most {
		in.Fail(what)
	}
}

func (o *occupancy) leave() { o.n.Add(-1) }

// counter is a count incremented in two steps (a load, then a store), so
// that a lost update needs, and shows, an interleaving.
type counter struct{ v atomic.Int64 }

func (c *counter) inc() { c.v.Store(c.v.Load() + 1) }

func (c *counter) expect(in *Instance, want int64) {
	if got := c.v.Load(); got != want {
		in.Fail("lost update: counter " + itoa(got) + ", want " + itoa(want))
	}
}

func itoa(v int64) string {
	if v < 0 {
		return "-" + itoa(-v)
	}
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

// repeat is n copies of body.
func repeat(n int, body func()) []func() {
	out := make([]func(), n)
	for i := range out {
		out[i] = body
	}
	return out
}

// Programs is the corpus: correct programs first, then the controls.
func Programs() []Program {
	return append(correct(), controls()...)
}

func correct() []Program {
	return []Program{
		{Name: "mutex counter", Uses: []string{"Mutex", "atomic.Int64", "atomic.Int32"}, New: func() *Instance {
			var mu sync.Mutex
			var c counter
			var o occupancy
			in := &Instance{}
			in.Bodies = repeat(3, func() {
				for range 2 {
					mu.Lock()
					o.enter(in, 1, "two inside a Mutex")
					c.inc()
					o.leave()
					mu.Unlock()
				}
			})
			in.Check = func(in *Instance) { c.expect(in, 6) }
			return in
		}},
		{Name: "mutex trylock", Uses: []string{"Mutex", "Gosched"}, New: func() *Instance {
			var mu sync.Mutex
			var c counter
			in := &Instance{}
			in.Bodies = repeat(2, func() {
				for !mu.TryLock() {
					runtime.Gosched()
				}
				c.inc()
				mu.Unlock()
			})
			in.Check = func(in *Instance) { c.expect(in, 2) }
			return in
		}},
		{Name: "rwmutex writer, reader, writer", Uses: []string{"RWMutex"}, New: func() *Instance {
			// The program the old checked RWMutex deadlocked: a writer
			// inside, a reader and a second writer waiting.
			var rw sync.RWMutex
			var c counter
			in := &Instance{}
			writer := func() { rw.Lock(); c.inc(); rw.Unlock() }
			reader := func() { rw.RLock(); c.v.Load(); rw.RUnlock() }
			in.Bodies = []func(){writer, reader, writer}
			in.Check = func(in *Instance) { c.expect(in, 2) }
			return in
		}},
		{Name: "rwmutex readers share, writers exclude", Uses: []string{"RWMutex", "atomic.Int32"}, New: func() *Instance {
			var rw sync.RWMutex
			var writers, readers occupancy
			in := &Instance{}
			reader := func() {
				for range 2 {
					rw.RLock()
					readers.enter(in, 2, "")
					if writers.n.Load() != 0 {
						in.Fail("a reader inside with a writer")
					}
					readers.leave()
					rw.RUnlock()
				}
			}
			writer := func() {
				rw.Lock()
				writers.enter(in, 1, "two writers inside")
				if readers.n.Load() != 0 {
					in.Fail("a writer inside with a reader")
				}
				writers.leave()
				rw.Unlock()
			}
			in.Bodies = []func(){reader, writer, reader}
			return in
		}},
		{Name: "rwmutex try and rlocker", Uses: []string{"RWMutex", "Gosched"}, New: func() *Instance {
			var rw sync.RWMutex
			var c counter
			in := &Instance{}
			in.Bodies = []func(){
				func() {
					for !rw.TryLock() {
						runtime.Gosched()
					}
					c.inc()
					rw.Unlock()
				},
				func() {
					for !rw.TryRLock() {
						runtime.Gosched()
					}
					rw.RUnlock()
				},
				func() {
					r := rw.RLocker()
					r.Lock()
					r.Unlock()
					rw.Lock()
					c.inc()
					rw.Unlock()
				},
			}
			in.Check = func(in *Instance) { c.expect(in, 2) }
			return in
		}},
		{Name: "cond signal and broadcast", Uses: []string{"Cond", "Mutex"}, New: func() *Instance {
			var mu sync.Mutex
			cond := sync.NewCond(&mu)
			stage := 0 // guarded by mu
			in := &Instance{}
			waitFor := func(s int) {
				mu.Lock()
				for stage < s {
					cond.Wait()
				}
				mu.Unlock()
			}
			in.Bodies = []func(){
				func() { waitFor(2) },
				func() { waitFor(2) },
				func() { waitFor(1); mu.Lock(); stage = 2; cond.Broadcast(); mu.Unlock() },
				func() {
					mu.Lock()
					stage = 1
					cond.Signal()
					cond.Signal()
					cond.Signal()
					mu.Unlock()
				},
			}
			return in
		}},
		{Name: "waitgroup", Uses: []string{"WaitGroup", "atomic.Uint64"}, New: func() *Instance {
			var wg sync.WaitGroup
			var done atomic.Uint64
			in := &Instance{}
			wg.Add(2)
			worker := func() { done.Add(1); wg.Done() }
			in.Bodies = []func(){worker, worker, func() {
				wg.Wait()
				if done.Load() != 2 {
					in.Fail("Wait returned before both Done")
				}
			}}
			return in
		}},
		{Name: "once", Uses: []string{"Once", "atomic.Uint32"}, New: func() *Instance {
			var once sync.Once
			var inits, ready atomic.Uint32
			in := &Instance{}
			in.Bodies = repeat(3, func() {
				once.Do(func() { inits.Add(1); ready.Store(1) })
				if ready.Load() != 1 {
					in.Fail("Do returned before its function ran")
				}
			})
			in.Check = func(in *Instance) {
				if n := inits.Load(); n != 1 {
					in.Fail("the function ran " + itoa(int64(n)) + " times")
				}
			}
			return in
		}},
		{Name: "sema holds k", Uses: []string{"Sema", "atomic.Int32"}, New: func() *Instance {
			s := sync.NewSema(2)
			var o occupancy
			in := &Instance{}
			in.Bodies = []func(){
				func() { s.Acquire(); o.enter(in, 2, "three inside a Sema(2)"); o.leave(); s.Release() },
				func() { s.Acquire(); o.enter(in, 2, "three inside a Sema(2)"); o.leave(); s.Release() },
				func() {
					for !s.TryAcquire() {
						if s.AcquireTimeout(time.Millisecond) {
							break
						}
					}
					o.enter(in, 2, "three inside a Sema(2)")
					o.leave()
					s.Release()
				},
			}
			return in
		}},
		{Name: "parker handshake", Uses: []string{"Parker", "atomic.Bool", "atomic.Pointer"}, New: func() *Instance {
			return handshake(true)
		}},
		{Name: "chan handoff, buffer and close", Uses: []string{"Chan", "atomic.Int64"}, New: func() *Instance {
			unbuf := sync.NewChan[int](0)
			buf := sync.NewChan[int](1)
			var sum atomic.Int64
			in := &Instance{}
			in.Bodies = []func(){
				func() { unbuf.Send(1); buf.Send(2); buf.Send(3); buf.Close() },
				func() {
					v, _ := unbuf.Recv()
					sum.Add(int64(v))
					for {
						v, ok := buf.Recv()
						if !ok {
							break
						}
						sum.Add(int64(v))
					}
				},
			}
			in.Check = func(in *Instance) {
				if s := sum.Load(); s != 6 {
					in.Fail("received " + itoa(s) + ", want 6")
				}
			}
			return in
		}},
		{Name: "chan try and timeout", Uses: []string{"Chan"}, New: func() *Instance {
			c := sync.NewChan[int](1)
			in := &Instance{}
			got := 0 // the receiver's alone
			in.Bodies = []func(){
				func() {
					if !c.TrySend(1) {
						in.Fail("TrySend into an empty buffer of one failed")
					}
				},
				func() {
					for got == 0 {
						if _, _, ok := c.TryRecv(); ok {
							got++
						} else if _, _, ok := c.RecvTimeout(time.Millisecond); ok {
							got++
						}
					}
				},
			}
			return in
		}},
		{Name: "spin lock on CAS", Uses: []string{"atomic.Int32", "atomic.Uintptr", "Gosched"}, New: func() *Instance {
			var state atomic.Int32
			var owner atomic.Uintptr
			var c counter
			in := &Instance{}
			body := func(id uintptr) func() {
				return func() {
					for !state.CompareAndSwap(0, 1) {
						runtime.Gosched()
					}
					owner.Store(id)
					c.inc()
					if owner.Load() != id {
						in.Fail("another owner inside")
					}
					state.Store(0)
				}
			}
			in.Bodies = []func(){body(1), body(2)}
			in.Check = func(in *Instance) { c.expect(in, 2) }
			return in
		}},
	}
}

// handshake is a waiter parking until a flag is set and a waker setting
// it. The waiter announces itself, checks the flag, and only then parks,
// so either the waker sees it or its check sees the flag; announceFirst
// false checks first (the control), and the wake can fall between.
func handshake(announceFirst bool) *Instance {
	var flag atomic.Bool
	var waiter atomic.Pointer[sync.Parker]
	in := &Instance{}
	in.Bodies = []func(){
		func() {
			p := new(sync.Parker)
			if announceFirst {
				waiter.Store(p)
				for !flag.Load() {
					p.Park()
				}
				return
			}
			if !flag.Load() {
				waiter.Store(p)
				p.Park()
			}
		},
		func() {
			flag.Store(true)
			if p := waiter.Load(); p != nil {
				p.Unpark()
			}
		},
	}
	return in
}

func controls() []Program {
	return []Program{
		{Name: "cond without a loop", Bug: "waits only if the flag was unset when it looked, unlocked: the Signal can come first", New: func() *Instance {
			var mu sync.Mutex
			cond := sync.NewCond(&mu)
			var flag atomic.Bool
			in := &Instance{}
			in.Bodies = []func(){
				func() {
					if !flag.Load() {
						mu.Lock()
						cond.Wait()
						mu.Unlock()
					}
				},
				func() { flag.Store(true); mu.Lock(); cond.Signal(); mu.Unlock() },
			}
			return in
		}},
		{Name: "counter outside the mutex", Bug: "one goroutine increments without the lock", New: func() *Instance {
			var mu sync.Mutex
			var c counter
			in := &Instance{}
			in.Bodies = []func(){
				func() { mu.Lock(); c.inc(); mu.Unlock() },
				func() { c.inc() },
			}
			in.Check = func(in *Instance) { c.expect(in, 2) }
			return in
		}},
		{Name: "rlock again with a writer waiting", Bug: "a reader's second RLock waits for a writer that waits for the reader", New: func() *Instance {
			var rw sync.RWMutex
			in := &Instance{}
			in.Bodies = []func(){
				func() { rw.RLock(); rw.RLock(); rw.RUnlock(); rw.RUnlock() },
				func() { rw.Lock(); rw.Unlock() },
			}
			return in
		}},
		{Name: "waitgroup add inside the worker", Bug: "Add runs in the goroutine it counts, so Wait can return first", New: func() *Instance {
			var wg sync.WaitGroup
			var done atomic.Bool
			in := &Instance{}
			in.Bodies = []func(){
				func() { wg.Add(1); done.Store(true); wg.Done() },
				func() {
					wg.Wait()
					if !done.Load() {
						in.Fail("Wait returned before the work")
					}
				},
			}
			return in
		}},
		{Name: "parker checked before announced", Bug: "the waiter checks the flag before it announces itself: the wake can fall between", New: func() *Instance {
			return handshake(false)
		}},
		{Name: "sema permit not returned", Bug: "one holder never releases, and the other's acquire can wait for ever", New: func() *Instance {
			s := sync.NewSema(1)
			in := &Instance{}
			in.Bodies = []func(){
				func() { s.Acquire() },
				func() { s.Acquire(); s.Release() },
			}
			return in
		}},
		{Name: "once by hand", Bug: "a flag tested and then set runs the function twice", New: func() *Instance {
			var started atomic.Bool
			var inits atomic.Int64
			in := &Instance{}
			in.Bodies = repeat(2, func() {
				if !started.Load() {
					started.Store(true)
					inits.Add(1)
				}
			})
			in.Check = func(in *Instance) {
				if n := inits.Load(); n != 1 {
					in.Fail("the function ran " + itoa(n) + " times")
				}
			}
			return in
		}},
		{Name: "chan receive nobody sends", Bug: "the sender gives up when the buffer is full; the receiver waits for a second value", New: func() *Instance {
			c := sync.NewChan[int](1)
			in := &Instance{}
			in.Bodies = []func(){
				func() { c.TrySend(1); c.TrySend(2) },
				func() { c.Recv(); c.Recv() },
			}
			return in
		}},
		{Name: "spin lock on load then store", Bug: "the lock is tested and then taken in two steps", New: func() *Instance {
			var state atomic.Int32
			var o occupancy
			in := &Instance{}
			in.Bodies = repeat(2, func() {
				for state.Load() != 0 {
					runtime.Gosched()
				}
				state.Store(1)
				o.enter(in, 1, "two inside the spin lock")
				o.leave()
				state.Store(0)
			})
			return in
		}},
	}
}
