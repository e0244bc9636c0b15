// Package faults is the fault-injection suite of lockgen's distributed
// locks (make faults): every lock of the catalogue at n = 3 and 5, each
// process an operating-system process over the embedded NATS server,
// makes passages through a fenced resource (netstress.Resource) in the
// suite's process while the suite kills holders and waiters with SIGKILL,
// restarts them with the same id, stops them with SIGSTOP past their
// lease, restarts the server (losing its in-memory JetStream store) and
// sends the locks' subjects forged, replayed and malformed messages. It
// reports the rounds, the faults, the violations and fence inversions the
// resource saw (there must be none), the stale accesses it refused, and
// the time from each fault to the survivors' next grant.
//
// The suite's children are its own executable run again: a main (or
// TestMain) that starts the suite must call Child first when IsChild.
package faults

import (
	crand "crypto/rand"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/lockgen/lockgen/templates/distributed"
	"github.com/lockgen/lockgen/transport/natstransport"
	"github.com/lockgen/lockgen/transport/natstransport/embedded"
	"github.com/lockgen/lockgen/verify/netstress"
)

// Config sizes a run.
type Config struct {
	Algorithms []string      // catalogue entries (nil: all)
	Ns         []int         // group sizes (nil: 3 and 5)
	Faults     int           // faults to inject in all, at least one round per group
	Parallel   int           // groups under faults at once (0: 3)
	Lease      time.Duration // the groups' lease (0: natstransport's default, 2 s)
	Hold       time.Duration // the longest critical section and think time (0: 2 ms)
	// ServerRestarts is how many times the server restarts, evenly over
	// the run.
	ServerRestarts int
	// Intruder is how many forged, replayed and malformed messages an
	// outsider sends the groups, after the faults.
	Intruder int
	Seed     uint64
	Progress io.Writer // a line per group done (nil: none)
	// Trace, when set, gets the run's timeline: every fault, server
	// restart and intrusion, every access the resource refused and every
	// child's event, a line each with its time.
	// ChildArgs are the arguments a child is started with (a test binary
	// needs -test.run=^$).
	ChildArgs []string
	ChildLog  io.Writer // the children's stderr (nil: discarded)
	Trace     io.Writer
}

func (c *Config) defaults() {
	if c.Algorithms == nil {
		for _, e := range distributed.All() {
			c.Algorithms = append(c.Algorithms, e.Name)
		}
	}
	if c.Ns == nil {
		c.Ns = []int{3, 5}
	}
	if c.Parallel == 0 {
		c.Parallel = 3
	}
	if c.Lease == 0 {
		c.Lease = natstransport.DefaultLease
	}
	if c.Hold == 0 {
		c.Hold = 2 * time.Millisecond
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	if c.Trace == nil {
		c.Trace = io.Discard
	}
}

// run is one run of the suite.
type run struct {
	cfg       Config
	exe       string
	childArgs []string
	childLog  io.Writer
	key       string
	resAddr   string

	mu        sync.Mutex
	server    *embedded.Server
	port      int
	restarted time.Time // the last server restart
	restarts  int
	scenarios map[string]*scenario
	// pause is held (read) while a group injects a fault or an intruder
	// sends, and (write) while the server restarts.
	pause   sync.RWMutex
	traceMu sync.Mutex
}

// trace writes a line of the timeline.
func (r *run) trace(format string, args ...any) {
	r.traceMu.Lock()
	defer r.traceMu.Unlock()
	fmt.Fprintf(r.cfg.Trace, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
}

func (r *run) natsURL() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "nats://127.0.0.1:" + strconv.Itoa(r.port)
}

func (r *run) lastRestart() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.restarted
}

// Run runs the suite.
func Run(cfg Config) (*Report, error) {
	cfg.defaults()
	for _, a := range cfg.Algorithms {
		if catalogue[a] == nil {
			return nil, fmt.Errorf("faults: no algorithm %q", a)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r := &run{cfg: cfg, exe: exe, childArgs: cfg.ChildArgs, childLog: cfg.ChildLog, key: crand.Text(), scenarios: map[string]*scenario{}}
	if r.childLog == nil {
		r.childLog = io.Discard
	}
	if r.server, err = embedded.Start(0); err != nil {
		return nil, err
	}
	r.port = r.server.Addr().(*net.TCPAddr).Port
	defer func() { r.mu.Lock(); r.server.Shutdown(); r.mu.Unlock() }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r.resAddr = ln.Addr().String()
	hs := &http.Server{Handler: r.handler()}
	go hs.Serve(ln)
	defer hs.Close()

	start := time.Now()
	var groups []*scenario
	for _, a := range cfg.Algorithms {
		for _, n := range cfg.Ns {
			s := newScenario(r, a, n)
			r.scenarios[s.name] = s
			groups = append(groups, s)
		}
	}
	perGroup := max(1, (cfg.Faults+len(groups)-1)/len(groups))
	restartEvery := 0
	if cfg.ServerRestarts > 0 {
		restartEvery = max(1, len(groups)*perGroup/(cfg.ServerRestarts+1))
	}
	var (
		wg       sync.WaitGroup
		lanes    = make(chan struct{}, cfg.Parallel)
		injected int
		restarts int
		countMu  sync.Mutex
	)
	for i, s := range groups {
		wg.Add(1)
		lanes <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-lanes }()
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
			s.mu.Lock()
			s.running = true
			s.mu.Unlock()
			for id := range s.n {
				if err := s.spawn(id); err != nil {
					s.mu.Lock()
					s.errors = append(s.errors, fmt.Sprintf("%s: starting process %d: %v", s.name, id, err))
					s.mu.Unlock()
					return
				}
			}
			for s.total() < perGroup {
				before := s.total()
				s.round(rng)
				if s.total() == before {
					break // no progress: reported
				}
				countMu.Lock()
				injected += s.total() - before
				restart := restartEvery > 0 && restarts < cfg.ServerRestarts && injected >= (restarts+1)*restartEvery
				if restart {
					restarts++
				}
				countMu.Unlock()
				if restart {
					r.restartServer()
				}
			}
			if cfg.Intruder > 0 {
				s.intrude(cfg.Intruder / len(groups))
			}
			s.waitProgress(int64(s.n), 10*cfg.Lease+20*time.Second)
			s.stop()
			fmt.Fprintf(cfg.Progress, "faults: %-26s %3d rounds, %4d faults, %s\n", s.name, s.rounds, s.total(), time.Since(start).Round(time.Second))
		}()
	}
	wg.Wait()
	return r.report(groups, time.Since(start)), nil
}

// restartServer shuts the NATS server down and starts a new one on the
// same port: every connection fails and the in-memory JetStream store is
// lost; the children join again.
func (r *run) restartServer() {
	r.pause.Lock()
	defer r.pause.Unlock()
	r.mu.Lock()
	old := r.server
	r.restarted = time.Now() // the locks fail from now on: explained
	r.mu.Unlock()
	r.trace("server restart begins")
	old.Shutdown()
	var s *embedded.Server
	for {
		var err error
		if s, err = embedded.Start(r.port); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond) // the port is not free yet
	}
	now := time.Now()
	r.mu.Lock()
	r.server, r.restarted = s, now
	r.restarts++
	r.mu.Unlock()
	r.trace("server restarted")
	for _, g := range r.scenarios {
		g.mu.Lock()
		if g.running {
			g.pending, g.pendingAt = "server restart", now
		}
		g.mu.Unlock()
	}
}

// handler serves the children: their accesses to their group's fenced
// resource, their events and their counts.
func (r *run) handler() http.Handler {
	mux := http.NewServeMux()
	scenario := func(w http.ResponseWriter, q map[string][]string) (*scenario, int, int64) {
		s := r.scenarios[first(q, "s")]
		id, _ := strconv.Atoi(first(q, "p"))
		inc, _ := strconv.ParseInt(first(q, "inc"), 10, 64)
		if s == nil {
			http.Error(w, "no scenario", http.StatusBadRequest)
		}
		return s, id, inc
	}
	mux.HandleFunc("/access", func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		s, id, inc := scenario(w, q)
		if s == nil {
			return
		}
		k, _ := strconv.ParseInt(first(q, "k"), 10, 64)
		fence, _ := strconv.ParseInt(first(q, "f"), 10, 64)
		write, last := first(q, "w") == "true", first(q, "last") == "true"
		ok := s.res.Access(netstress.PassageID{Proc: id, Incarnation: inc, N: k}, write, fence, last)
		if !ok {
			r.trace("%s: refused process %d (incarnation %d) passage %d token %#x (last %v): the largest accepted is %#x", s.name, id, inc, k, fence, last, s.res.Max())
		}
		s.accessed(ok, !last) // a passage makes two accesses: its first, and its last
		if ok {
			io.WriteString(w, "1")
		} else {
			io.WriteString(w, "0")
		}
	})
	mux.HandleFunc("/event", func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		if s, id, inc := scenario(w, q); s != nil {
			r.trace("%s: process %d (incarnation %d) %s %s", s.name, id, inc, first(q, "kind"), first(q, "msg"))
			s.event(id, inc, first(q, "kind"), first(q, "msg"))
		}
	})
	mux.HandleFunc("/stats", func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		if s, id, inc := scenario(w, q); s != nil {
			d, _ := strconv.ParseInt(first(q, "dropped"), 10, 64)
			s.noteStats(id, inc, d)
		}
	})
	return mux
}

func first(q map[string][]string, k string) string {
	if v := q[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}
