package report

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
)

// synthetic builds a report with the given subjects' nanoseconds per
// passage, the same in every run.
func synthetic(cells map[string]float64, meta map[string]perf.Result) *perf.Report {
	rep := &perf.Report{GOMAXPROCS: 2, Config: perf.ReportConfig{
		Goroutines: []int{1, 2, 8, 64}, Workloads: perf.DefaultWorkloads(), ReadFraction: 0.9, Count: 3, Duration: time.Millisecond}}
	for name, ns := range cells {
		for _, wl := range rep.Config.Workloads {
			for _, g := range rep.Config.Goroutines {
				r := meta[name]
				r.Subject, r.Workload, r.Goroutines = name, wl.Name, g
				for i := 0; i < 3; i++ {
					r.Runs = append(r.Runs, perf.Run{NsPerPassage: ns, Jain: 1, Passages: 100})
				}
				r.Latency = perf.Latency{P50: time.Microsecond, P99: 2 * time.Microsecond, Max: 3 * time.Microsecond, Samples: 10}
				rep.Results = append(rep.Results, r)
			}
		}
	}
	return rep
}

func TestTargetsJudgeRatios(t *testing.T) {
	rep := synthetic(map[string]float64{"sync.Mutex": 10, "fair chan queue": 100, "Fast": 9, "Slow": 20},
		map[string]perf.Result{
			"sync.Mutex":      {Mode: mode.Mutex, Baseline: true},
			"fair chan queue": {Mode: mode.Mutex, Baseline: true, FIFO: true},
			"Fast":            {Mode: mode.Mutex, Algorithm: "tas", Wait: "adaptive"},
			"Slow":            {Mode: mode.Mutex, Algorithm: "mcs", Wait: "adaptive", FIFO: true},
		})
	met := map[string]bool{}
	for _, tg := range Targets(rep) {
		met[tg.What] = tg.Met
	}
	for what, want := range map[string]bool{
		"uncontended Fast ≤ 1.1× sync.Mutex's time":                                                  true,
		"uncontended Slow ≤ 1.5× sync.Mutex's time":                                                  false, // 2×
		"contended, 64 goroutines, workload empty: a generated mutex ≥ 1.0× sync.Mutex's throughput": true,  // Fast
	} {
		got, ok := met[what]
		if !ok || got != want {
			t.Errorf("%s: met %v (present %v), want %v", what, got, ok, want)
		}
	}
	var fifo bool
	for what, m := range met {
		if strings.HasPrefix(what, "FIFO Slow, 64 goroutines") {
			fifo = true
			if !m { // 20 ns against the fair queue's 100: 5× its throughput
				t.Errorf("%s: not met", what)
			}
		}
	}
	if !fifo {
		t.Error("no FIFO target for the FIFO lock")
	}
}

// againstBaseline is a synthetic report of one lock of algorithm alg and
// its baseline, with their nanoseconds per passage.
func againstBaseline(m mode.Mode, baseline string, baseNs float64, name, alg string, ns float64) *perf.Report {
	return synthetic(map[string]float64{baseline: baseNs, name: ns}, map[string]perf.Result{
		baseline: {Mode: m, Baseline: true},
		name:     {Mode: m, Algorithm: alg, Wait: DefaultWait},
	})
}

// Replace-add's uncontended row states what its line 1 read costs, from
// the machine's limits, and what the passage would cost without it.
func TestReplaceAddReadCost(t *testing.T) {
	rep := againstBaseline(mode.Mutex, "sync.Mutex", 10, "RA", "replace-add", 12)
	rep.Limits.ReadBeforeRMWNs = 1.5
	for _, tg := range Targets(rep) {
		if strings.HasPrefix(tg.What, "uncontended RA") {
			if tg.Met || !strings.Contains(tg.Measured, "costs 1.5ns here (limits): without it, 1.05×") {
				t.Errorf("%+v", tg)
			}
			return
		}
	}
	t.Error("no uncontended target for replace-add")
}

// An uncontended row that misses its bound states the lock's atomic steps
// against sync.Mutex's, from the step table, and what one costs here;
// where the run timed passages of bare steps, what as many bare steps
// cost against sync.Mutex, inline and in two calls, and whether that
// alone exceeds the bound. A lock with nodes = "array" names its records
// by ids: none of its steps is on pointers.
func TestUncontendedAtomicSteps(t *testing.T) {
	missed := func(bare ...perf.BareSteps) *perf.Report {
		rep := againstBaseline(mode.Mutex, "sync.Mutex", 10, "DT1", "dvir-taubenfeld-1", 20)
		rep.Limits.AtomicIntNs, rep.Limits.AtomicPointerNs = 2, 5
		rep.Limits.BareSteps = bare
		return rep
	}
	steps := "; its passage makes 4 atomic writes or read-modify-writes (lines 3, 4, 10, 12), 2 of them on pointers, against sync.Mutex's 2 on integers (one integer swap costs 2.0ns here, one pointer swap 5.0ns)"
	two := perf.BareSteps{Steps: 2, Ns: []float64{10, 10.5, 9.5}}
	fourPtr := func(ns ...float64) perf.BareSteps { return perf.BareSteps{Steps: 4, Pointer: 2, Ns: ns} }
	met := againstBaseline(mode.Mutex, "sync.Mutex", 10, "DT1", "dvir-taubenfeld-1", 14)
	byIDs := missed(two, perf.BareSteps{Steps: 4, Ns: []float64{12, 12, 12}}, fourPtr(16, 15, 17))
	for i := range byIDs.Results {
		if byIDs.Results[i].Algorithm != "" {
			byIDs.Results[i].Nodes = "array"
		}
	}
	for _, c := range []struct {
		rep  *perf.Report
		want string
	}{
		{missed(), steps},
		{missed(two, perf.BareSteps{Steps: 4, Ns: []float64{1, 1, 1}}, fourPtr(16, 15, 17)),
			steps + "; a passage of 4 bare atomic steps, 2 on pointers, and nothing else, timed the same way, costs 1.60× [1.50–1.70] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×): no passage of these steps meets 1.5× here"},
		{missed(two, fourPtr(13, 13, 13)),
			steps + "; a passage of 4 bare atomic steps, 2 on pointers, and nothing else, timed the same way, costs 1.30× [1.30–1.30] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×): these steps fit within 1.5×, the rest is this passage's own"},
		{missed(two, fourPtr(13, 13, 13), perf.BareSteps{Steps: 4, Pointer: 2, Called: true, Ns: []float64{16, 16, 16}}),
			steps + "; a passage of 4 bare atomic steps, 2 on pointers, and nothing else, timed the same way, costs 1.30× [1.30–1.30] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×); the same steps in two calls that do not inline, 1.60× [1.60–1.60]: no lock that makes these steps and does not inline meets 1.5× here"},
		{missed(two, fourPtr(13, 13, 13), perf.BareSteps{Steps: 4, Pointer: 2, Called: true, Ns: []float64{14, 14, 14}}),
			steps + "; a passage of 4 bare atomic steps, 2 on pointers, and nothing else, timed the same way, costs 1.30× [1.30–1.30] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×); the same steps in two calls that do not inline, 1.40× [1.40–1.40]: these steps and calls fit within 1.5×, the rest is this passage's own"},
		{inlining(missed(two, fourPtr(13, 13, 13), perf.BareSteps{Steps: 4, Pointer: 2, Called: true, Ns: []float64{16, 16, 16}}),
			perf.Inlining{Type: "DT1", Method: "Lock", Cost: 89, Budget: 80},
			perf.Inlining{Type: "DT1", Method: "Unlock", Cost: 40, Inlinable: true, Inlined: true}),
			steps + "; a passage of 4 bare atomic steps, 2 on pointers, and nothing else, timed the same way, costs 1.30× [1.30–1.30] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×); the same steps in two calls that do not inline, 1.60× [1.60–1.60] (the compiler inlines this lock's Unlock into the benchmark's loop, but not Lock (cost 89, budget 80)): no lock that makes these steps and does not inline meets 1.5× here"},
		{byIDs, strings.Replace(steps, "2 of them on pointers", "0 of them on pointers", 1) +
			"; a passage of 4 bare atomic steps, 0 on pointers, and nothing else, timed the same way, costs 1.20× [1.20–1.20] sync.Mutex's time (2 integer steps, as sync.Mutex makes: 1.00×): these steps fit within 1.5×, the rest is this passage's own"},
		{met, ""},
	} {
		found := false
		for _, tg := range Targets(c.rep) {
			if strings.HasPrefix(tg.What, "uncontended DT1") {
				found = true
				if _, tail, _ := strings.Cut(tg.Measured, "]"); tail != c.want {
					t.Errorf("%+v: want the tail %q", tg, c.want)
				}
			}
		}
		if !found {
			t.Error("no uncontended target for dvir-taubenfeld-1")
		}
	}
}

// Reader/writer targets are judged in every workload, each on its own.
func TestRWTargetPerWorkload(t *testing.T) {
	rep := againstBaseline(mode.RW, "sync.RWMutex", 10, "RW", "mcs-rw", 12)
	// RW is faster than sync.RWMutex in the work workload only.
	for i := range rep.Results {
		if r := &rep.Results[i]; r.Subject == "RW" && r.Workload == "work" {
			for j := range r.Runs {
				r.Runs[j].NsPerPassage = 8
			}
		}
	}
	got := map[string]bool{}
	for _, tg := range Targets(rep) {
		if strings.HasPrefix(tg.What, "reader/writer") {
			got[tg.What] = tg.Met
		}
	}
	want := map[string]bool{}
	for _, wl := range []string{"empty", "work"} {
		for _, g := range []int{8, 64} {
			want[fmt.Sprintf("reader/writer, 90%% reads, %d goroutines, workload %s: ≥ 1.0× sync.RWMutex's throughput", g, wl)] = wl == "work"
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("reader/writer targets %v, want %v", got, want)
	}
}

// A missed reader/writer target says what the calls cost: sync.RWMutex
// called through functions that do not inline, against sync.RWMutex, and
// the lock against that; a met one says nothing more.
func TestRWMissGivesTheCallsShare(t *testing.T) {
	rep := synthetic(map[string]float64{"sync.RWMutex": 10, perf.RWMutexCalled: 12, "RW": 12.5},
		map[string]perf.Result{
			"sync.RWMutex":     {Mode: mode.RW, Baseline: true},
			perf.RWMutexCalled: {Mode: mode.RW, Baseline: true},
			"RW":               {Mode: mode.RW, Algorithm: "mcs-rw", Wait: DefaultWait},
		})
	var seen int
	for _, tg := range Targets(rep) {
		if !strings.HasPrefix(tg.What, "reader/writer") {
			continue
		}
		seen++
		want := "sync.RWMutex called through functions that do not inline: 0.83× [0.83–0.83] sync.RWMutex's throughput, and RW against it 0.96× [0.96–0.96]"
		if tg.Met || !strings.Contains(tg.Measured, want) {
			t.Errorf("%+v\nwant it to contain %q", tg, want)
		}
	}
	if seen == 0 {
		t.Error("no reader/writer target")
	}
	rep = againstBaseline(mode.RW, "sync.RWMutex", 10, "RW", "mcs-rw", 8)
	for _, tg := range Targets(rep) {
		if strings.HasPrefix(tg.What, "reader/writer") && (!tg.Met || strings.Contains(tg.Measured, "called")) {
			t.Errorf("met target %+v: want no calls' share", tg)
		}
	}
}

// The k-exclusion target is judged per k on the best lock: a slow
// read/write algorithm beside a fast one does not fail it, and it names the
// lock that met it; a k with only slow locks is not met.
func TestKExclusionTargetPerK(t *testing.T) {
	rep := synthetic(map[string]float64{"semaphore.Weighted(2)": 100, "semaphore.Weighted(4)": 100, "FastK2": 10, "SlowK2": 1000, "SlowK4": 1000},
		map[string]perf.Result{
			"semaphore.Weighted(2)": {Mode: mode.KExclusion, K: 2, Baseline: true},
			"semaphore.Weighted(4)": {Mode: mode.KExclusion, K: 4, Baseline: true},
			"FastK2":                {Mode: mode.KExclusion, K: 2, Algorithm: "replace-add"},
			"SlowK2":                {Mode: mode.KExclusion, K: 2, Algorithm: "zehavi"},
			"SlowK4":                {Mode: mode.KExclusion, K: 4, Algorithm: "zehavi"},
		})
	got := map[string]Target{}
	for _, tg := range Targets(rep) {
		if strings.HasPrefix(tg.What, "k-exclusion") {
			got[tg.What] = tg
		}
	}
	k2 := got["k-exclusion, k = 2, 64 goroutines: a generated lock ≥ 2× semaphore.Weighted's throughput"]
	k4 := got["k-exclusion, k = 4, 64 goroutines: a generated lock ≥ 2× semaphore.Weighted's throughput"]
	if len(got) != 2 || !k2.Met || !strings.Contains(k2.Measured, "FastK2") || k4.Met {
		t.Errorf("k-exclusion targets: %+v", got)
	}
}

// mutexReport is a synthetic report of one ticket lock, lock, at ns per
// passage, beside sync.Mutex at 10 ns and the fair channel queue at fair.
func mutexReport(lock string, fair, ns float64) *perf.Report {
	return synthetic(map[string]float64{"sync.Mutex": 10, "fair chan queue": fair, lock: ns},
		map[string]perf.Result{
			"sync.Mutex":      {Mode: mode.Mutex, Baseline: true},
			"fair chan queue": {Mode: mode.Mutex, Baseline: true},
			lock:              {Mode: mode.Mutex, Algorithm: "ticket"},
		})
}

func TestRenderings(t *testing.T) {
	rep := mutexReport("Some lock with a long name", 100, 12)
	var table strings.Builder
	Table(&table, rep)
	for _, line := range strings.Split(strings.TrimSpace(table.String()), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("table line of %d columns: %q", n, line)
		}
	}
	if !strings.Contains(table.String(), "0.83× [0.83–0.83]") {
		t.Errorf("table lacks the ratio 10/12:\n%s", table.String())
	}
	var md strings.Builder
	Markdown(&md, rep, "lockgen bench x", nil, Targets(rep))
	for _, want := range []string{"## Targets", "## Mutual exclusion", "### Workload empty", "| Some lock with a long name | 12.0 ns, 0.83×"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

// A missed ratio target whose runs fall on both sides of the bound says
// so; one missed by every run, or met, does not.
func TestMissedTargetWithinNoise(t *testing.T) {
	const note = "within this run's noise"
	for _, c := range []struct {
		r        Ratio
		met, say bool
	}{
		{Ratio{Med: 0.96, Lo: 0.90, Hi: 1.04, Baseline: "b"}, false, true},
		{Ratio{Med: 0.80, Lo: 0.70, Hi: 0.90, Baseline: "b"}, false, false},
		{Ratio{Med: 1.10, Lo: 0.90, Hi: 1.20, Baseline: "b"}, true, false},
	} {
		tg := ratioTarget("t", "best: L", c.r, 1)
		if tg.Met != c.met || strings.Contains(tg.Measured, note) != c.say {
			t.Errorf("%v: %+v, want met %v, noise noted %v", c.r, tg, c.met, c.say)
		}
	}
}

// The Markdown report lays the bare-steps passages out as a grid of steps
// by pointers, each against sync.Mutex's time in the same rounds.
func TestBareStepsGrid(t *testing.T) {
	rep := againstBaseline(mode.Mutex, "sync.Mutex", 10, "TAS", "tas", 10)
	rep.Limits.BareSteps = []perf.BareSteps{
		{Steps: 2, Ns: []float64{10, 10, 10}}, {Steps: 2, Pointer: 1, Ns: []float64{15, 15, 15}},
		{Steps: 3, Ns: []float64{12, 12, 12}}, {Steps: 3, Pointer: 1, Ns: []float64{18, 18, 18}},
	}
	var b strings.Builder
	Markdown(&b, rep, "lockgen bench", nil, nil)
	want := "| steps | 0 on pointers | 1 on pointers |\n|---|---|---|\n| 2 | 10.0ns, 1.00× | 15.0ns, 1.50× |\n| 3 | 12.0ns, 1.20× | 18.0ns, 1.80× |\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("no grid %q in\n%s", want, b.String())
	}
}

// The FIFO targets compare the medians of the latency runs' longest
// waits, and a miss whose runs overlap sync.Mutex's says so.
func TestMaxWaitJudgesMedians(t *testing.T) {
	ms := func(xs ...int) perf.Latency {
		var l perf.Latency
		for _, x := range xs {
			l.Maxes = append(l.Maxes, time.Duration(x)*time.Millisecond)
		}
		l.Max = l.Maxes[1] // the median of three, given in order
		return l
	}
	for _, tc := range []struct {
		lock, mutex perf.Latency
		met         bool
		noise       bool
	}{
		{ms(1, 2, 9), ms(1, 3, 4), true, false},  // a worse worst run, a better median
		{ms(1, 4, 5), ms(1, 3, 4), false, true},  // worse, overlapping
		{ms(5, 6, 7), ms(1, 3, 4), false, false}, // worse in every run
	} {
		x := NewIndex(&perf.Report{Limits: perf.Limits{Stalls: []time.Duration{4 * time.Millisecond}}})
		got, met := x.maxWait(&perf.Result{Latency: tc.lock}, &perf.Result{Latency: tc.mutex})
		if met != tc.met || strings.Contains(got, "within this run's noise") != tc.noise {
			t.Errorf("%v against %v: met %v, %q", tc.lock.Maxes, tc.mutex.Maxes, met, got)
		}
		if !met && !strings.Contains(got, "for up to 4.00ms") {
			t.Errorf("%q does not give the machine's stall", got)
		}
	}
}
