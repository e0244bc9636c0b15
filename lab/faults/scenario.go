package faults

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/verify/netstress"
)

// scenario is one lock group under faults: an algorithm of the
// catalogue at n processes, each an OS process, checked against a fenced
// resource of its own.
type scenario struct {
	name string // the lock's name over NATS: algorithm-n
	alg  string
	n    int
	run  *run
	res  *netstress.Resource

	mu      sync.Mutex
	running bool    // its children run: a server restart is its fault too
	procs   []*proc // by id: the newest child
	grants  int64   // first accesses accepted
	// pending is the fault the next accepted first access ends: its kind
	// and when it was injected (zero: none pending).
	pending     string
	pendingAt   time.Time
	recoveries  map[string][]time.Duration
	faults      map[string]int
	rounds      int
	stopped     map[int]time.Time // when each id was last stopped or resumed
	violations  []string          // reported by children, or no progress
	errors      []string          // the suite's own: a child it could not start
	unexplained []string          // lock failures no fault explains
	dropped     map[[2]int64]int64
	intruded    intrusion
}

// proc is one child process.
type proc struct {
	id     int
	cmd    *exec.Cmd
	exited chan struct{}
}

func newScenario(r *run, alg string, n int) *scenario {
	return &scenario{name: fmt.Sprintf("%s-%d", alg, n), alg: alg, n: n, run: r, res: netstress.NewResource(),
		procs: make([]*proc, n), recoveries: map[string][]time.Duration{}, faults: map[string]int{},
		stopped: map[int]time.Time{}, dropped: map[[2]int64]int64{}}
}

// spawn starts a child as process id.
func (s *scenario) spawn(id int) error {
	cmd := exec.Command(s.run.exe, s.run.childArgs...)
	cmd.Env = append(os.Environ(), envChild+"="+s.name, envURL+"="+s.run.natsURL(), envRes+"="+s.run.resAddr,
		envAlg+"="+s.alg, envID+"="+strconv.Itoa(id), envN+"="+strconv.Itoa(s.n), envKey+"="+s.run.key,
		envLease+"="+s.run.cfg.Lease.String(), envHold+"="+s.run.cfg.Hold.String())
	cmd.Stderr = s.run.childLog
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // no orphans if the suite dies
	if err := cmd.Start(); err != nil {
		return err
	}
	p := &proc{id: id, cmd: cmd, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(p.exited) }()
	s.mu.Lock()
	s.procs[id] = p
	s.mu.Unlock()
	return nil
}

// stop kills every child.
func (s *scenario) stop() {
	s.mu.Lock()
	procs := slices.Clone(s.procs)
	s.running = false
	if s.pending == "server restart" {
		s.pending = "" // its last grants came before the restart
	}
	s.mu.Unlock()
	for _, p := range procs {
		if p != nil {
			p.cmd.Process.Signal(syscall.SIGCONT)
			p.cmd.Process.Kill()
			<-p.exited
		}
	}
}

// accessed is the resource's answer to an access, noted: an accepted
// first access ends a pending fault's recovery.
func (s *scenario) accessed(ok, first bool) {
	if !ok || !first {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grants++
	if s.pending != "" {
		s.recoveries[s.pending] = append(s.recoveries[s.pending], time.Since(s.pendingAt))
		s.pending = ""
	}
}

// event takes a child's report in.
func (s *scenario) event(id int, inc int64, kind, msg string) {
	restarted := s.run.lastRestart()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case "violation":
		s.violations = append(s.violations, fmt.Sprintf("%s: process %d (incarnation %d): %s", s.name, id, inc, msg))
	case "failed", "request-failed", "join-refused":
		// A lock fails when its process was stopped past its lease, or when
		// the server restarted; anything else is a failure no fault explains.
		if t, ok := s.stopped[id]; ok && time.Since(t) < 10*s.run.cfg.Lease {
			return
		}
		if time.Since(restarted) < 10*s.run.cfg.Lease {
			return
		}
		if kind == "join-refused" {
			return // a restarted process may try before its old incarnation's lease is over
		}
		if len(s.unexplained) < 16 {
			s.unexplained = append(s.unexplained, fmt.Sprintf("%s: process %d (incarnation %d) %s: %s", s.name, id, inc, kind, msg))
		}
	}
}

// waitProgress waits for k more accepted first accesses; false after
// timeout.
func (s *scenario) waitProgress(k int64, timeout time.Duration) bool {
	s.mu.Lock()
	want := s.grants + k
	s.mu.Unlock()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		got, pending := s.grants, s.pending
		s.mu.Unlock()
		if got >= want && pending == "" {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// round makes one round: the group has made progress, then one fault is
// injected (a kill of a holder or of a waiter, followed by a restart with
// the same id; or a stop past the lease).
func (s *scenario) round(rng *rand.Rand) {
	lease := s.run.cfg.Lease
	if !s.waitProgress(int64(s.n), 10*lease+20*time.Second) {
		total := s.total()
		s.mu.Lock()
		s.violations = append(s.violations, fmt.Sprintf("%s: no progress after %d faults (no grant accepted for %v)", s.name, total, 10*lease+20*time.Second))
		s.mu.Unlock()
		return
	}
	s.run.pause.RLock()
	defer s.run.pause.RUnlock()
	holders := map[int]bool{}
	for _, id := range s.res.Open() {
		holders[id.Proc] = true
	}
	var holding, waiting []int
	for id := range s.n {
		if holders[id] {
			holding = append(holding, id)
		} else {
			waiting = append(waiting, id)
		}
	}
	pick := func(ids []int) int { return ids[rng.IntN(len(ids))] }
	s.mu.Lock()
	s.rounds++
	s.mu.Unlock()
	switch r := rng.IntN(10); {
	case r < 4 && len(holding) > 0:
		s.kill(pick(holding), "kill -9 of a holder", rng)
	case r < 7 && len(waiting) > 0:
		s.kill(pick(waiting), "kill -9 of a waiter", rng)
	default:
		id := rng.IntN(s.n)
		kind := "SIGSTOP past the lease (a waiter)"
		if holders[id] {
			kind = "SIGSTOP past the lease (a holder)"
		}
		s.pause(id, kind, lease+lease/2+time.Duration(rng.Int64N(int64(lease/2))))
	}
}

// kill kills process id's child with SIGKILL and, after up to a lease,
// starts a new one with the same id.
func (s *scenario) kill(id int, kind string, rng *rand.Rand) {
	s.mu.Lock()
	p := s.procs[id]
	s.pending, s.pendingAt = kind, time.Now()
	s.faults[kind]++
	s.mu.Unlock()
	s.run.trace("%s: %s: process %d", s.name, kind, id)
	p.cmd.Process.Kill()
	<-p.exited
	time.Sleep(time.Duration(rng.Int64N(int64(s.run.cfg.Lease))))
	s.run.trace("%s: restart process %d", s.name, id)
	if err := s.spawn(id); err != nil {
		s.mu.Lock()
		s.errors = append(s.errors, fmt.Sprintf("%s: restarting process %d: %v", s.name, id, err))
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	s.faults["restart with the same id"]++
	s.mu.Unlock()
}

// pause stops process id's child with SIGSTOP for d, then lets it go on.
func (s *scenario) pause(id int, kind string, d time.Duration) {
	s.mu.Lock()
	p := s.procs[id]
	s.pending, s.pendingAt = kind, time.Now()
	s.faults[kind]++
	s.stopped[id] = time.Now()
	s.mu.Unlock()
	s.run.trace("%s: %s: process %d for %v", s.name, kind, id, d)
	p.cmd.Process.Signal(syscall.SIGSTOP)
	time.Sleep(d)
	p.cmd.Process.Signal(syscall.SIGCONT)
	s.run.trace("%s: SIGCONT process %d", s.name, id)
	s.mu.Lock()
	s.stopped[id] = time.Now()
	s.mu.Unlock()
}

// total is how many faults the scenario has injected.
func (s *scenario) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := 0
	for _, k := range s.faults {
		t += k
	}
	return t
}

// noteStats keeps a child's latest count of dropped messages.
func (s *scenario) noteStats(id int, inc, dropped int64) {
	s.mu.Lock()
	s.dropped[[2]int64{int64(id), inc}] = dropped
	s.mu.Unlock()
}

// droppedTotal is the dropped messages the children have reported.
func (s *scenario) droppedTotal() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t int64
	for _, d := range s.dropped {
		t += d
	}
	return t
}
