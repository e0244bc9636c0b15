package tune

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/internal/tmpmod"
)

// Options control a tune.
type Options struct {
	Bench     string   // the benchmarks to run, a go test -bench regexp
	Packages  []string // package patterns whose benchmarks run; nil: the lock's package
	Benchtime string   // go test -benchtime of each run
	// MaxRounds bounds the rounds; MinRounds is how many a candidate
	// needs for benchmath to give a finite interval at Confidence (6):
	// a candidate the budget cannot give that many is dropped after its
	// first round and reported as not measured in time.
	MaxRounds, MinRounds int
	Budget               time.Duration // the whole tune, builds and the winner's tests included
	Objective            Objective
	OutDir               string // where the spec's package is generated, as generate's -o ("" the spec's directory)
	// Stress is the winner's stress run length (LOCKGEN_STRESS); 0: its
	// tests' default.
	Stress   time.Duration
	Progress io.Writer
}

// Status is what became of a candidate.
type Status string

const (
	Measured      Status = "measured"
	NotInTime     Status = "not measured in time"
	BuildFailed   Status = "build failed"
	BenchFailed   Status = "benchmark failed"
	TestsFailed   Status = "tests failed"
	TestsPassed   Status = "recommended" // the winner, its tests passed
	NotApplicable Status = "not applicable"
)

// Outcome is one candidate's measurements and fate.
type Outcome struct {
	Candidate *Candidate
	Status    Status
	Reason    string   // why it was dropped, with the go command's or the test's output
	Samples   []sample // by round; nil where it did not run
	BuildTime time.Duration
	roundTime time.Duration // its share of the last round
	bins      []binary

	Cells map[string]*Cell // by benchmark
	Ratio *Ratio           // the objective against the current variant; nil for it
}

type binary struct {
	path string
	pkg  pkg
}

// rounds is how many rounds it ran.
func (o *Outcome) rounds() int {
	n := 0
	for _, s := range o.Samples {
		if s != nil {
			n++
		}
	}
	return n
}

// values are its times on one benchmark, round by round.
func (o *Outcome) values(bench string) []float64 {
	var vs []float64
	for _, s := range o.Samples {
		if v, ok := s[bench]; ok {
			vs = append(vs, v)
		}
	}
	return vs
}

// Result is a tune's outcome.
type Result struct {
	Target      *Target
	Outcomes    []*Outcome // [0] is the current variant
	Benchmarks  []string
	Packages    []string
	Rounds      int
	Started     time.Time
	Elapsed     time.Duration
	Interrupted bool
	// Winner passed its tests and beats the current variant; nil keeps
	// the current one. Tests are the winner's tests that ran.
	Winner *Outcome
	Tests  []string
	Opts   Options
}

// Run tunes t: it builds every candidate, measures them in rounds until
// the budget or MaxRounds, and checks the best. When ctx ends it returns
// what was measured, with Interrupted set; nothing is ever written into
// the user's tree.
func Run(ctx context.Context, t *Target, cands []*Candidate, opts Options) (*Result, error) {
	start := time.Now()
	res := &Result{Target: t, Started: start, Opts: opts}
	progress := opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	say := func(format string, args ...any) {
		fmt.Fprintf(progress, "%s %s: %s\n", t.Path, t.Lock.Name, fmt.Sprintf(format, args...))
	}
	deadline := start.Add(opts.Budget)
	tmp, err := os.MkdirTemp("", "lockgen-tune-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	g := &goTool{dir: t.Dir}
	if opts.OutDir != "" {
		g.dir = filepath.Dir(t.absSpec())
	}
	if g.mod, err = tmpmod.Open(ctx, g.dir); err != nil {
		return nil, err
	}
	defer g.mod.Close()
	patterns := opts.Packages
	if len(patterns) == 0 {
		dir := t.Dir
		if opts.OutDir != "" {
			if dir, err = filepath.Abs(opts.OutDir); err != nil {
				return nil, err
			}
		}
		patterns = []string{dir}
	}
	pkgs, err := g.packages(ctx, patterns)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		res.Packages = append(res.Packages, p.ImportPath)
	}
	for _, c := range cands {
		res.Outcomes = append(res.Outcomes, &Outcome{Candidate: c})
	}

	// Builds, the current variant first: without it nothing compares.
	var builds []time.Duration
	for i, o := range res.Outcomes {
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		if i > 1 && time.Now().After(start.Add(opts.Budget*2/5)) {
			o.Status, o.Reason = NotInTime, "not built: the builds took 2/5 of the budget"
			continue
		}
		began := time.Now()
		err := build(ctx, g, t, o, pkgs, filepath.Join(tmp, strconv.Itoa(i)), opts.OutDir)
		o.BuildTime = time.Since(began)
		switch {
		case ctx.Err() != nil:
			res.Interrupted = true
		case err != nil && i == 0:
			return nil, fmt.Errorf("the current variant does not build: %v", err)
		case err != nil:
			o.Status, o.Reason = BuildFailed, err.Error()
			say("built %d/%d: %s: build failed", i+1, len(cands), o.Candidate.Label(t))
		case len(o.bins) == 0:
			return nil, fmt.Errorf("no package among %s has tests", strings.Join(res.Packages, ", "))
		default:
			builds = append(builds, o.BuildTime)
			say("built %d/%d: %s (%s)", i+1, len(cands), o.Candidate.Label(t), o.BuildTime.Round(100*time.Millisecond))
		}
	}

	// The winner's check needs a race build and a stress run: keep time
	// for it.
	reserve := 10 * time.Second
	if len(builds) > 0 {
		sorted := slices.Clone(builds)
		slices.Sort(sorted)
		reserve += 4 * sorted[len(sorted)/2]
	}
	if opts.Stress > 0 {
		reserve += 3 * opts.Stress
	}

	// Rounds.
	for r := 0; r < opts.MaxRounds && !res.Interrupted; r++ {
		active := measurable(res.Outcomes)
		if len(active) < 2 && r > 0 {
			break
		}
		if r > 0 {
			next := time.Duration(0)
			for _, o := range active {
				next += o.roundTime
			}
			if time.Now().Add(next).After(deadline.Add(-reserve)) {
				say("round %d would end past the budget (%s) with the winner's tests: stopping after %d rounds", r+1, opts.Budget, r)
				break
			}
		}
		// Each round starts one candidate later, so that none always
		// runs first or right after another.
		order := slices.Clone(active)
		k := r % len(order)
		order = append(order[k:], order[:k]...)
		for _, o := range order {
			if ctx.Err() != nil {
				break
			}
			began := time.Now()
			s, err := measure(ctx, o, opts)
			o.roundTime = time.Since(began)
			switch {
			case ctx.Err() != nil:
			case err != nil && o == res.Outcomes[0]:
				return nil, fmt.Errorf("the current variant's benchmarks failed: %v", err)
			case err != nil:
				o.Status, o.Reason = BenchFailed, err.Error()
				say("%s: benchmark failed", o.Candidate.Label(t))
			default:
				for len(o.Samples) <= r {
					o.Samples = append(o.Samples, nil)
				}
				o.Samples[r] = s
			}
		}
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		res.Rounds = r + 1
		if r == 0 {
			res.Benchmarks = benchmarksOf(res.Outcomes[0])
			if len(res.Benchmarks) == 0 {
				return nil, fmt.Errorf("no benchmark matches -bench %q in %s", opts.Bench, strings.Join(res.Packages, ", "))
			}
			if err := opts.Objective.check(res.Benchmarks); err != nil {
				return nil, err
			}
			dropLate(res.Outcomes, opts, deadline.Add(-reserve), say, t)
		}
		analyse(res.Outcomes, res.Benchmarks, opts.Objective)
		lead := "none beats the current variant yet"
		if w := ranked(res.Outcomes); len(w) > 0 {
			lead = fmt.Sprintf("ahead: %s %s", w[0].Candidate.Label(t), w[0].Ratio)
		}
		say("round %d/%d done, %s of %s: %d candidates; %s", r+1, opts.MaxRounds,
			time.Since(start).Round(time.Second), opts.Budget, len(measurable(res.Outcomes)), lead)
	}
	for _, o := range res.Outcomes {
		if o.Status == "" {
			o.Status = Measured
		}
	}
	if res.Rounds > 0 {
		analyse(res.Outcomes, res.Benchmarks, opts.Objective)
	}
	if !res.Interrupted {
		if err := checkWinner(ctx, g, t, res, tmp, say); err != nil {
			if ctx.Err() == nil {
				return nil, err
			}
			res.Interrupted = true
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// measurable are the candidates still measured.
func measurable(outcomes []*Outcome) []*Outcome {
	var out []*Outcome
	for _, o := range outcomes {
		if o.Status == "" && len(o.bins) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// dropLate drops, from the last, the candidates the budget cannot give
// MinRounds rounds, keeping the current variant and the standard lock.
func dropLate(outcomes []*Outcome, opts Options, end time.Time, say func(string, ...any), t *Target) {
	for {
		active := measurable(outcomes)
		var per time.Duration
		for _, o := range active {
			per += o.roundTime
		}
		if !time.Now().Add(time.Duration(opts.MinRounds-1) * per).After(end) {
			return
		}
		var victim *Outcome
		for _, o := range active {
			if !o.Candidate.Current && !o.Candidate.Standard {
				victim = o
			}
		}
		if victim == nil {
			say("the budget leaves fewer than %d rounds even for the current variant and the standard lock", opts.MinRounds)
			return
		}
		victim.Status, victim.Reason = NotInTime, fmt.Sprintf("dropped after its first round: %d rounds of every candidate do not fit the budget", opts.MinRounds)
		say("%s: not measured in time (%d rounds would not fit the budget)", victim.Candidate.Label(t), opts.MinRounds)
	}
}

// build generates the candidate's overlay and builds each package's test
// binary with it.
func build(ctx context.Context, g *goTool, t *Target, o *Outcome, pkgs []pkg, dir, outDir string) error {
	ov, err := t.overlay(o.Candidate, outDir, false)
	if err != nil {
		return err
	}
	file, err := ov.save(dir)
	if err != nil {
		return err
	}
	for j, p := range pkgs {
		bin, err := g.buildTest(ctx, file, filepath.Join(dir, fmt.Sprintf("%d-%s.test", j, p.Name)), p)
		if err != nil {
			return err
		}
		if bin != "" {
			o.bins = append(o.bins, binary{bin, p})
		}
	}
	return nil
}

// measure runs the candidate's benchmarks once, package after package.
func measure(ctx context.Context, o *Outcome, opts Options) (sample, error) {
	all := sample{}
	for _, b := range o.bins {
		s, err := runBench(ctx, b.path, b.pkg.Dir, opts.Bench, opts.Benchtime, nil)
		if err != nil {
			return nil, err
		}
		for name, v := range s {
			if len(o.bins) > 1 {
				name = b.pkg.ImportPath + "." + name
			}
			all[name] = v
		}
	}
	return all, nil
}

func benchmarksOf(o *Outcome) []string {
	seen := map[string]bool{}
	for _, s := range o.Samples {
		for n := range s {
			seen[n] = true
		}
	}
	out := sortedKeys(seen)
	sort.Strings(out)
	return out
}
