// Package report renders a perf.Report: a terminal table, Markdown, plots
// (gonum.org/v1/plot), and the project's performance targets.
package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
)

// Ratio is a throughput ratio to a baseline with its spread: each run of
// the subject against the run of the baseline in the same round (runs are
// interleaved), median, minimum and maximum. Above 1: faster.
type Ratio struct {
	Med, Lo, Hi float64
	Baseline    string
}

func (r Ratio) String() string {
	if r.Baseline == "" || math.IsNaN(r.Med) {
		return "–"
	}
	return fmt.Sprintf("%.2f× [%.2f–%.2f]", r.Med, r.Lo, r.Hi)
}

// Index finds results.
type Index struct {
	rep *perf.Report
	by  map[key]*perf.Result
}

type key struct {
	subject, workload string
	g                 int
}

// NewIndex indexes a report's results.
func NewIndex(rep *perf.Report) *Index {
	x := &Index{rep: rep, by: map[key]*perf.Result{}}
	for i := range rep.Results {
		r := &rep.Results[i]
		x.by[key{r.Subject, r.Workload, r.Goroutines}] = r
	}
	return x
}

// Get returns a subject's result, or nil.
func (x *Index) Get(subject, workload string, g int) *perf.Result {
	return x.by[key{subject, workload, g}]
}

// BaselineOf names the standard lock a result is compared with:
// sync.Mutex, sync.RWMutex, or the semaphore of the same k.
func BaselineOf(r *perf.Result) string { return perf.BaselineNames(r.Mode, r.K)[0] }

// RatioTo is r's throughput ratio to subject base in the same cell.
func (x *Index) RatioTo(r *perf.Result, base string) Ratio {
	b := x.Get(base, r.Workload, r.Goroutines)
	if b == nil {
		return Ratio{Med: math.NaN()}
	}
	return pairedRatio(nsOf(b.Runs), nsOf(r.Runs), base)
}

// pairedRatio is num[i]/den[i] run by run (runs of the same round), as a
// median with its spread; NaN without a pair whose den is positive.
func pairedRatio(num, den []float64, base string) Ratio {
	var rs []float64
	for i := 0; i < min(len(num), len(den)); i++ {
		if den[i] > 0 {
			rs = append(rs, num[i]/den[i])
		}
	}
	if len(rs) == 0 {
		return Ratio{Med: math.NaN()}
	}
	return Ratio{Med: median(rs), Lo: slices.Min(rs), Hi: slices.Max(rs), Baseline: base}
}

// nsOf is the time per passage of each run.
func nsOf(runs []perf.Run) []float64 {
	out := make([]float64, len(runs))
	for i, run := range runs {
		out[i] = run.NsPerPassage
	}
	return out
}

// Ratio is r's throughput ratio to its own baseline.
func (x *Index) Ratio(r *perf.Result) Ratio { return x.RatioTo(r, BaselineOf(r)) }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// NsPerPassage is the median time per passage and its spread.
func NsPerPassage(r *perf.Result) (med, lo, hi float64) {
	return r.Median(func(x perf.Run) float64 { return x.NsPerPassage })
}

// Jain is the median fairness index.
func Jain(r *perf.Result) float64 {
	m, _, _ := r.Median(func(x perf.Run) float64 { return x.Jain })
	return m
}

// Table writes a terminal table at most 100 columns wide: one line per
// subject, goroutine count and workload, then one per generated lock on
// what the compiler inlined, when the report has its verdicts.
func Table(w io.Writer, rep *perf.Report) {
	x := NewIndex(rep)
	fmt.Fprintf(w, "%-22s %3s %-6s %9s %-20s %5s %8s %8s %6s\n",
		"LOCK", "G", "LOAD", "NS/PASS", "THROUGHPUT VS BASE", "JAIN", "P99", "MAX", "ALLOCS")
	for i := range rep.Results {
		r := &rep.Results[i]
		med, _, _ := NsPerPassage(r)
		ratio := "(baseline)"
		if !r.Baseline {
			ratio = x.Ratio(r).String()
		}
		fmt.Fprintf(w, "%-22s %3d %-6s %9.1f %-20s %5.3f %8s %8s %6.2f\n",
			trunc(r.Subject, 22), r.Goroutines, trunc(r.Workload, 6), med, trunc(ratio, 20), Jain(r),
			dur(r.Latency.P99), dur(r.Latency.Max), r.Allocs())
	}
	inliningLines(w, x)
}

func trunc(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// dur formats a latency compactly.
func dur(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d.Nanoseconds())/1e3)
	}
	return fmt.Sprintf("%.2fms", float64(d.Nanoseconds())/1e6)
}

// durs lists durations, comma-separated.
func durs(ds []time.Duration) string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = dur(d)
	}
	return strings.Join(out, ", ")
}

// Subjects lists the report's subjects in order, baselines first within
// each mode.
func Subjects(rep *perf.Report, m mode.Mode) []string {
	var base, locks []string
	seen := map[string]bool{}
	for _, r := range rep.Results {
		if r.Mode != m || seen[r.Subject] {
			continue
		}
		seen[r.Subject] = true
		if r.Baseline {
			base = append(base, r.Subject)
		} else {
			locks = append(locks, r.Subject)
		}
	}
	return append(base, locks...)
}

// Modes lists the modes of the report's generated locks, in mode.All order.
func Modes(rep *perf.Report) []mode.Mode {
	var out []mode.Mode
	for _, k := range mode.All {
		for _, r := range rep.Results {
			if r.Mode == k && !r.Baseline {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// Markdown writes the report as Markdown; plots, when not empty, maps
// plot titles to file names relative to the Markdown file.
func Markdown(w io.Writer, rep *perf.Report, command string, plots []Plot, targets []Target) {
	x := NewIndex(rep)
	fmt.Fprintf(w, "# Performance\n\nGenerated by `%s` on %s, in %s, on %s/%s, %d CPUs (GOMAXPROCS %d), %s. Do not edit: regenerate.\n\n",
		command, rep.Started.UTC().Format("2006-01-02 15:04 UTC"), rep.Elapsed.Round(time.Second), rep.GOOS, rep.GOARCH,
		rep.NumCPU, rep.GOMAXPROCS, rep.GoVersion)
	c := rep.Config
	if c.PGO {
		fmt.Fprint(w, "Built with profile-guided optimization (-pgo): the measured binary was compiled with the CPU profile of a first, shorter pass, so that calls hot in that profile, such as a lock's Lock and Unlock in its loop, get the larger inlining budget PGO gives them, as in a program built with go build -pgo. Without it most generated locks' Lock and Unlock exceed the inliner's budget, while sync.Mutex's fit it.\n\n")
	}
	fmt.Fprintf(w, "Every cell is %d runs of %s each (a run's window opens once every goroutine has finished a passage, so that goroutines the scheduler has not run yet do not count as starved), interleaved across locks so that drift in the machine's speed falls on all alike (a round runs every lock's cell of one workload and goroutine count, baselines first, before the next, so that the two runs a ratio pairs are seconds apart); a ratio is the baseline's time per passage over the lock's, run by run against the baseline's run of the same round: median [minimum–maximum]. Above 1 the lock is faster. Goroutines: %s. Workloads: %s. Reader/writer locks read on %.0f%% of passages. Latency (time to acquire: p50, p99, max) comes from %d more runs per cell that time every acquire, which adds two clock reads outside the critical section, into a histogram allocated before the run (quantiles within 3%%); an acquire still waiting when a run ends counts with its wait so far, so that a goroutine starved through the whole run shows in the maximum. p50 and p99 are over all those runs' acquires; max is the median of the runs' longest waits, each a single sample of a rare event (see the machine's stalls below). Jain's index is over the goroutines' passage counts (1: all equal). Allocations are per passage, the median of the runs in which no garbage collection ran (after one, the runtime refills the caches it emptied, such as parked goroutines' records: a few allocations that are not the lock's), or of every run if each had one: a lock's own allocations recur in every run, the runtime's one-off ones land in one.\n\n",
		c.Count, c.Duration, joinInts(c.Goroutines), workloads(c.Workloads), 100*c.ReadFraction, c.LatencyCount)
	l := rep.Limits
	fmt.Fprintf(w, "## This machine's limits\n\nMeasured in the same run: one goroutine wake-up %s (half a channel ping-pong); one cache-line transfer between processors %s (half a round trip of two goroutines alternately writing one word); one atomic integer swap %.1fns, one atomic pointer swap %.1fns (a call carrying the GC write barrier); an atomic read of a word just before a read-modify-write of it %.1fns (a read then a swap, less a swap: the test of a test-and-test-and-set). sync.Mutex's uncontended passage is two integer read-modify-writes; a FIFO handoff to a goroutine that sleeps costs a wake-up, and one to a goroutine spinning on another processor a cache-line transfer.\n\n",
		dur(l.WakeUp), dur(l.CacheLine), l.AtomicIntNs, l.AtomicPointerNs, l.ReadBeforeRMWNs)
	if len(l.Stalls) > 0 {
		fmt.Fprintf(w, "Before each round of latency runs, %d goroutines (one per processor) read the clock in a loop for %s, waiting for nothing: the longest gap between two reads, round by round, was %s. Whatever takes a processor away here (the operating system, the hypervisor, the runtime) can take it from a lock's holder, and every waiter then waits as long: a floor under any lock's maximum wait on this machine, and under a FIFO lock's more so, since a stalled waiter near the head of its queue holds up those behind it.\n\n",
			rep.GOMAXPROCS, c.Duration, durs(l.Stalls))
	}
	if len(l.BareSteps) > 0 {
		bareStepsTable(w, x, c.Workloads[0].Name)
	}
	if len(rep.Inlining) > 0 {
		inliningTable(w, x)
	}
	if len(targets) > 0 {
		fmt.Fprintf(w, "## Targets\n\n| target | measured | met |\n|---|---|---|\n")
		for _, t := range targets {
			met := "yes"
			if !t.Met {
				met = "**no**"
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", t.What, t.Measured, met)
		}
		fmt.Fprintln(w)
	}
	for _, k := range Modes(rep) {
		fmt.Fprintf(w, "## %s\n\n", k.Title())
		for _, wl := range c.Workloads {
			fmt.Fprintf(w, "### Workload %s\n\nTime per passage over all goroutines, and throughput against %s.\n\n| lock |", wl.Name, baselineName(k))
			for _, g := range c.Goroutines {
				fmt.Fprintf(w, " %d goroutine%s |", g, plural(g))
			}
			fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(c.Goroutines)))
			for _, s := range Subjects(rep, k) {
				fmt.Fprintf(w, "| %s |", s)
				for _, g := range c.Goroutines {
					r := x.Get(s, wl.Name, g)
					if r == nil {
						fmt.Fprintf(w, " – |")
						continue
					}
					med, _, _ := NsPerPassage(r)
					if r.Baseline && r.Subject == BaselineOf(r) {
						fmt.Fprintf(w, " %.1f ns |", med)
					} else {
						fmt.Fprintf(w, " %.1f ns, %s |", med, x.Ratio(r))
					}
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "\nFairness and latency (Jain's index; p50 / p99 / max time to acquire; allocations per passage):\n\n| lock |")
			for _, g := range c.Goroutines {
				fmt.Fprintf(w, " %d |", g)
			}
			fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(c.Goroutines)))
			for _, s := range Subjects(rep, k) {
				fmt.Fprintf(w, "| %s |", s)
				for _, g := range c.Goroutines {
					r := x.Get(s, wl.Name, g)
					if r == nil {
						fmt.Fprintf(w, " – |")
						continue
					}
					fmt.Fprintf(w, " %.3f; %s / %s / %s; %.2f |", Jain(r), dur(r.Latency.P50), dur(r.Latency.P99), dur(r.Latency.Max), r.Allocs())
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w)
			for _, p := range plots {
				if p.Mode == k && p.Workload == wl.Name {
					fmt.Fprintf(w, "![%s](%s)\n\n", p.Title, p.File)
				}
			}
		}
	}
}

func baselineName(m mode.Mode) string {
	if m.TakesK() {
		return "semaphore.Weighted of the same k"
	}
	return perf.BaselineNames(m, 1)[0]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

func workloads(ws []perf.Workload) string {
	var s []string
	for _, w := range ws {
		if w.CS == 0 && w.Outside == 0 {
			s = append(s, w.Name+" (an empty critical section)")
			continue
		}
		s = append(s, fmt.Sprintf("%s (%s inside, %s between passages)", w.Name, w.CS, w.Outside))
	}
	return strings.Join(s, "; ")
}

// bareStepsTable writes the bare-steps passages (perf.BareSteps) as a grid:
// one row per number of steps, one column per how many are on pointers.
func bareStepsTable(w io.Writer, x *Index, workload string) {
	l := x.rep.Limits
	minN, maxN, maxPtr := l.BareSteps[0].Steps, 0, 0
	for _, b := range l.BareSteps {
		minN, maxN, maxPtr = min(minN, b.Steps), max(maxN, b.Steps), max(maxPtr, b.Pointer)
	}
	fmt.Fprintf(w, "A passage of bare atomic steps and nothing else (swaps of distinct words, half before the critical section and half after), timed like the locks at one goroutine on the %s workload: its time, and that time against sync.Mutex's in the same rounds. It is the floor of a passage making that many atomic writes or read-modify-writes, before any call, branch or read of the lock's own. In two calls: the same passage with each half in a function that does not inline, as a generated lock's Lock and Unlock are called (sync.Mutex's inline into the caller's loop): the floor of a lock that does not inline.\n\n| steps |", workload)
	kinds := []bool{false} // inline, then in two calls if measured
	if slices.ContainsFunc(l.BareSteps, func(b perf.BareSteps) bool { return b.Called }) {
		kinds = append(kinds, true)
	}
	for _, called := range kinds {
		for p := 0; p <= maxPtr; p++ {
			if called {
				fmt.Fprintf(w, " %d on pointers, in two calls |", p)
			} else {
				fmt.Fprintf(w, " %d on pointers |", p)
			}
		}
	}
	cols := len(kinds) * (maxPtr + 1)
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", cols))
	for n := minN; n <= maxN; n++ {
		fmt.Fprintf(w, "| %d |", n)
		for _, called := range kinds {
			for p := 0; p <= maxPtr; p++ {
				ns := l.BareStepsNs(n, p, called)
				ratio, ok := x.bareSteps(n, p, called)
				switch {
				case ok:
					fmt.Fprintf(w, " %.1fns, %.2f× |", median(ns), ratio.Med)
				case len(ns) > 0:
					fmt.Fprintf(w, " %.1fns |", median(ns))
				default:
					fmt.Fprint(w, " |")
				}
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// Plot is one image the report shows, drawn by perf/cmd/benchplots (which
// lockgen bench builds in the user's module, so that the plotting library
// stays out of the command's dependencies).
type Plot struct {
	Title    string
	File     string // relative to the report
	Mode     mode.Mode
	Workload string
}
