package netsim

import (
	"container/heap"
	"fmt"
	"math/rand/v2"

	"github.com/lockgen/lockgen/ir"
)

// Config is one simulation, in the paper's terms (Johnson & Yoon 1996,
// section 5): every delay is exponential; a message takes Transit to
// arrive and Processing of its receiver's time to handle (a process
// handles one message at a time); a process holds the lock for Hold and
// requests again Think after releasing it, where load = n·Hold/Think.
type Config struct {
	N           int
	Entries     int     // critical-section entries to simulate (then drain)
	Load        float64 // n·Hold/Think; 2 is the paper's 200%
	Hold        float64 // mean time in the critical section (the paper's release delay, 10)
	Transit     float64 // mean message transit delay (1)
	Processing  float64 // mean time to handle one message (1)
	ReaderRatio int     // readers per writer (1, 2, 4, 9); 0: writers only; <0: readers only
	// FIFO delivers the messages from one process to another in the order
	// they were sent; otherwise independent delays reorder them.
	FIFO bool
	// ResumeLater lets a process handle other messages between the handler
	// that enables its waiting routine and the routine's resumption (one
	// Processing delay later): the interleaving the paper leaves open.
	ResumeLater bool
	Seed        uint64
	// Trace, when set, receives one line per event: the trail a
	// violation is read from.
	Trace func(string)
	// Detection, when set, adds the failure detection of lockgen's groups
	// (docs/distributed.md, "Epoch protocol").
	Detection *Detection
}

// Detection is the failure detection of a lockgen group over NATS
// (natstransport): every Period each process renews its lease in the
// store, whose reply comes back to it, and the store sends the update to
// the process's watcher (the next process in the ring, which watches its
// predecessor's lease): three messages. The store is not a process of the
// algorithm and answers at once: the reply and the update arrive two
// transit delays after the renewal left, and each takes Processing of its
// receiver's time, as any message does. Each process's first period
// starts at a random phase.
type Detection struct {
	Period float64
}

// detectionMessages is what one period costs a process: the renewal,
// its reply, the update to the watcher.
const detectionMessages = 3

// DetectionPeriod is the period, in message delays, at which
// docs/distributed.md holds failure detection to its target: at n = 160
// and the paper's 100% load, at most 10% of dCREW's messages per entry
// (TestDetectionCost). It is the default renewal period (500 ms, a
// quarter of natstransport's 2 s lease) over a one-way delay of 40 µs;
// natstransport TestOneWayDelay measures about 30 µs over the embedded
// server.
const DetectionPeriod = 12500

// DefaultConfig is the paper's setting for n processes at the given load.
func DefaultConfig(n int, load float64) Config {
	return Config{N: n, Entries: 20000, Load: load, Hold: 10, Transit: 1, Processing: 1, ReaderRatio: 1, Seed: 1}
}

// Result is what a simulation measured.
type Result struct {
	Entries, Reads, Writes int
	Messages               int // every message, the detection's included
	DetectionMessages      int // the detection's (Config.Detection)
	MessagesPerEntry       float64
	MeanAcquire            float64 // time from request to entry
	// SyncDelay is the mean time from the critical section falling empty
	// while a process waits to the next entry: the delay between entries
	// the papers' analyses call the synchronization delay (a message's
	// transit and handling take 2 on average). 0 if no entry waited.
	SyncDelay  float64
	MaxReaders int     // the most readers seen in the critical section at once
	Time       float64 // simulated time
	// Contention is the share of the time the lock is requested or held
	// by some process: the paper's C = T_rhlock / T_sim (section 5.3).
	Contention float64
	// Violation is the first broken property ("" if none): the invariant
	// (with the processes in the critical section), or a request never
	// granted (a deadlock or lost token).
	Violation string
}

type phase uint8

const (
	idle phase = iota
	acquiring
	inCS
	releasing
)

type event struct {
	at   float64
	seq  int
	kind int // evRequest, evRelease, evArrive, evHandled, evResume
	proc int
	msg  Msg
}

const (
	evRequest = iota
	evRelease
	evArrive
	evHandled
	evResume
	evDetect // a process's detection period: its requests leave
)

type queue []event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type sim struct {
	cfg      Config
	alg      *ir.Algorithm
	rng      *rand.Rand
	q        queue
	seq      int
	now      float64
	procs    []*Proc
	phase    []phase
	reading  []bool
	asked    []float64 // when the request in progress began
	inbox    [][]Msg
	handling []bool
	lastAt   map[[2]int]float64 // FIFO: the last delivery time per channel
	res      Result
	stopping bool
	acquire  float64
	busy     float64 // time some process requested or held the lock
	active   int     // processes not idle
	// emptiedAt is when the critical section fell empty with a process
	// waiting (-1: it is not empty, or nobody waited); delays and delayed
	// sum and count SyncDelay's samples.
	emptiedAt float64
	delays    float64
	delayed   int
}

// Run simulates cfg.N processes running a over the network cfg describes.
func Run(a *ir.Algorithm, cfg Config) Result {
	s := &sim{cfg: cfg, alg: a, rng: rand.New(rand.NewPCG(cfg.Seed, 0x6c6f636b67656e)),
		lastAt: map[[2]int]float64{}, emptiedAt: -1}
	par := ir.Params{N: cfg.N, K: 1}
	for i := 0; i < cfg.N; i++ {
		s.procs = append(s.procs, NewProc(a, par, i))
	}
	s.phase = make([]phase, cfg.N)
	s.reading = make([]bool, cfg.N)
	s.asked = make([]float64, cfg.N)
	s.inbox = make([][]Msg, cfg.N)
	s.handling = make([]bool, cfg.N)
	think := cfg.Hold * float64(cfg.N) / cfg.Load
	for i, p := range s.procs {
		p.Begin()
		s.flush(i)
	}
	for i := range s.procs {
		s.schedule(s.exp(think), evRequest, i, Msg{})
		if d := cfg.Detection; d != nil {
			s.schedule(s.rng.Float64()*d.Period, evDetect, i, Msg{})
		}
	}
	// A run that keeps handling messages while nobody enters has lost its
	// way (a request chasing the token for ever): bound the events between
	// two entries.
	quiet := 0
	limit := 20000 + 1000*cfg.N
	// The run ends when every process is idle after the last entry, even
	// with messages in flight: a token that circulates whether or not it
	// is wanted (Le Lann's) never lets the network fall silent.
	for s.q.Len() > 0 && s.res.Violation == "" && !(s.stopping && s.active == 0) {
		if quiet++; quiet > limit {
			s.res.Violation = fmt.Sprintf("no entry in %d events after %d entries: a request wanders for ever or the token is lost", limit, s.res.Entries)
			break
		}
		entries := s.res.Entries
		e := heap.Pop(&s.q).(event)
		if s.active > 0 {
			s.busy += e.at - s.now
		}
		s.now = e.at
		if cfg.Trace != nil {
			cfg.Trace(s.describe(e))
		}
		s.step(e, think)
		if s.res.Entries != entries {
			quiet = 0
		}
	}
	if s.res.Violation == "" {
		for i, ph := range s.phase {
			if ph != idle {
				s.res.Violation = fmt.Sprintf("process %d never finished %s (stopped at %s): deadlock or lost token", i, s.procs[i].Op(), s.stoppedAt(i))
				break
			}
		}
	}
	s.res.Time = s.now
	if s.now > 0 {
		s.res.Contention = s.busy / s.now
	}
	if s.res.Entries > 0 {
		s.res.MessagesPerEntry = float64(s.res.Messages) / float64(s.res.Entries)
		s.res.MeanAcquire = s.acquire / float64(s.res.Entries)
	}
	if s.delayed > 0 {
		s.res.SyncDelay = s.delays / float64(s.delayed)
	}
	return s.res
}

func (s *sim) stoppedAt(i int) string {
	if l, _ := s.procs[i].Waiting(); l != "" {
		return "line " + l
	}
	return "no await"
}

func (s *sim) exp(mean float64) float64 { return s.rng.ExpFloat64() * mean }

func (s *sim) schedule(after float64, kind, proc int, m Msg) {
	s.seq++
	heap.Push(&s.q, event{at: s.now + after, seq: s.seq, kind: kind, proc: proc, msg: m})
}

func (s *sim) step(e event, think float64) {
	i := e.proc
	p := s.procs[i]
	switch e.kind {
	case evRequest:
		if s.stopping {
			return
		}
		s.reading[i] = s.drawReader()
		s.phase[i] = acquiring
		s.active++
		s.asked[i] = s.now
		op := "Acquire"
		if s.reading[i] {
			op = "RAcquire"
		}
		if p.Start(op) {
			s.enter(i)
		}
	case evRelease:
		s.phase[i] = releasing
		s.noteEmptied()
		op := "Release"
		if s.reading[i] {
			op = "RRelease"
		}
		if p.Start(op) {
			s.released(i, think)
		}
	case evArrive:
		s.inbox[i] = append(s.inbox[i], e.msg)
		s.handleNext(i)
	case evHandled:
		if e.msg.From >= 0 {
			p.Deliver(e.msg)
		}
		s.handling[i] = false
		if _, ok := p.Waiting(); ok {
			if s.cfg.ResumeLater {
				s.schedule(s.exp(s.cfg.Processing), evResume, i, Msg{})
			} else {
				s.resume(i, think)
			}
		}
		s.handleNext(i)
	case evResume:
		if _, ok := p.Waiting(); ok {
			s.resume(i, think)
		}
	case evDetect:
		// The renewal leaves for the store; its reply comes back, and the
		// update goes to the watcher.
		s.res.Messages += detectionMessages
		s.res.DetectionMessages += detectionMessages
		watcher := (i + 1) % s.cfg.N
		s.schedule(s.exp(s.cfg.Transit)+s.exp(s.cfg.Transit), evArrive, i, Msg{From: -1, To: i, Name: "renewed"})
		s.schedule(s.exp(s.cfg.Transit)+s.exp(s.cfg.Transit), evArrive, watcher, Msg{From: -1, To: watcher, Name: "lease"})
		if !s.stopping {
			s.schedule(s.cfg.Detection.Period, evDetect, i, Msg{})
		}
	}
	s.flush(i)
	s.check()
}

// resume runs process i's routine on from the await a handler enabled.
func (s *sim) resume(i int, think float64) {
	if !s.procs[i].Resume() {
		return
	}
	switch s.phase[i] {
	case acquiring:
		s.enter(i)
	case releasing:
		s.released(i, think)
	}
}

func (s *sim) handleNext(i int) {
	if s.handling[i] || len(s.inbox[i]) == 0 {
		return
	}
	m := s.inbox[i][0]
	s.inbox[i] = s.inbox[i][1:]
	s.handling[i] = true
	s.schedule(s.exp(s.cfg.Processing), evHandled, i, m)
}

// flush puts the messages process i sent on the network.
func (s *sim) flush(i int) {
	p := s.procs[i]
	for _, m := range p.Out {
		s.res.Messages++
		at := s.now + s.exp(s.cfg.Transit)
		if s.cfg.FIFO {
			ch := [2]int{m.From, m.To}
			at = max(at, s.lastAt[ch])
			s.lastAt[ch] = at
		}
		s.schedule(at-s.now, evArrive, m.To, m)
	}
	p.Out = p.Out[:0]
}

func (s *sim) drawReader() bool {
	if s.alg.RAcquire == nil {
		return false // a mutex: writers only
	}
	switch r := s.cfg.ReaderRatio; {
	case r < 0:
		return true
	case r == 0:
		return false
	default:
		return s.rng.IntN(r+1) < r
	}
}

// noteEmptied starts a synchronization-delay sample when a release
// leaves the critical section empty while some process waits to enter.
func (s *sim) noteEmptied() {
	waiting := false
	for _, ph := range s.phase {
		switch ph {
		case inCS:
			return
		case acquiring:
			waiting = true
		}
	}
	if waiting {
		s.emptiedAt = s.now
	}
}

func (s *sim) enter(i int) {
	s.phase[i] = inCS
	if s.emptiedAt >= 0 {
		s.delays += s.now - s.emptiedAt
		s.delayed++
		s.emptiedAt = -1
	}
	s.acquire += s.now - s.asked[i]
	s.res.Entries++
	if s.reading[i] {
		s.res.Reads++
	} else {
		s.res.Writes++
	}
	if s.res.Entries >= s.cfg.Entries {
		s.stopping = true
	}
	s.schedule(s.exp(s.cfg.Hold), evRelease, i, Msg{})
}

func (s *sim) released(i int, think float64) {
	s.phase[i] = idle
	s.active--
	s.schedule(s.exp(think), evRequest, i, Msg{})
}

// check asserts the reader/writer invariant over the processes in the
// critical section.
func (s *sim) check() {
	readers, writers := 0, 0
	for i, ph := range s.phase {
		if ph == inCS && s.reading[i] {
			readers++
		} else if ph == inCS {
			writers++
		}
	}
	s.res.MaxReaders = max(s.res.MaxReaders, readers)
	if writers <= 1 && (writers == 0 || readers == 0) {
		return
	}
	// Broken: name who is inside (only now: check runs at every event).
	var who []string
	for i, ph := range s.phase {
		if ph == inCS {
			who = append(who, fmt.Sprintf("%s %d", map[bool]string{true: "reader", false: "writer"}[s.reading[i]], i))
		}
	}
	s.res.Violation = fmt.Sprintf("reader/writer exclusion broken at t=%.1f: %v in the critical section", s.now, who)
}

var eventNames = [...]string{evRequest: "request", evRelease: "release", evArrive: "arrives", evHandled: "handles", evResume: "resumes", evDetect: "detects"}

func (s *sim) describe(e event) string {
	what := eventNames[e.kind]
	switch e.kind {
	case evRelease:
		what += map[bool]string{true: " (reader)", false: " (writer)"}[s.reading[e.proc]]
	case evArrive, evHandled:
		what += " " + e.msg.String()
	}
	return fmt.Sprintf("t=%.2f p%d %s", e.at, e.proc, what)
}
