// Package mutation measures lockgen's verifier: it runs every mutant of
// every catalogue algorithm (mutate) through the three layers —
// stress under the race detector, the controlled scheduler, SPIN — and
// reports, per algorithm and layer, how many mutants each layer killed,
// and every survivor, classified as equivalent to the original, as correct
// wherever it can be checked, or as a gap in the checker (with the reason,
// recorded in Equivalences, CheckedOnly and Gaps).
//
// Each algorithm's mutants are generated as locks of one package (like the
// backend's matrix test) and compiled twice: with -race for stress and
// with -tags lockgen_check for the controlled scheduler. Each mutant's test
// then runs in a process of its own (gotest.Binary.Run), so that a mutant
// that hangs, spins or leaks goroutines costs its own watchdog time and
// nothing more. SPIN runs on the Promela lowering of the mutated
// definition through lab/spin. Jobs of all three layers run on a
// worker pool, so that compilation, test processes and SPIN overlap.
// Mutants no layer killed are explored once more with a larger
// configuration (layer Deep), to tell the ones that need a bigger search
// from the equivalent ones. Each algorithm's unmutated definition goes
// through the same layers first: it must pass them, or that layer's
// verdicts on its mutants mean nothing.
//
// RunControls does the same for the named negative controls
// (mutate.Controls), which must all be caught.
package mutation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/verify/harness"
)

// Layer is a verification layer.
type Layer string

const (
	Stress  Layer = "stress"
	Explore Layer = "explore"
	SPIN    Layer = "spin"
	// Deep is the controlled scheduler again, with a larger configuration
	// and budget (Config.Deep), run only on the mutants that no other
	// layer killed: the runner's way to tell a survivor that needs a
	// bigger search from an equivalent one.
	Deep Layer = "explore-deep"
	// Hunt is SPIN again, on the k-exclusion mutants that no other layer
	// killed: a bit-state search (Config.Hunt) at the smallest size where
	// k + 1 can be inside, which is too large to search exhaustively.
	Hunt Layer = "spin-hunt"
)

// Layers in report order (the SurvivorLayers are reported apart).
var Layers = []Layer{Stress, Explore, SPIN}

// SurvivorLayers run only on the mutants that the three Layers let
// through, once those are done.
var SurvivorLayers = []Layer{Deep, Hunt}

// AllLayers are Layers then SurvivorLayers.
func AllLayers() []Layer { return append(slices.Clone(Layers), SurvivorLayers...) }

// Config configures a run.
type Config struct {
	// Module is the module root (the directory of go.mod); "" finds it
	// from the working directory. Scratch packages go under
	// Module/lab/mutation/testdata and are removed afterwards.
	Module string
	// Algorithms to mutate (catalogue names); nil means every entry that
	// is not a negative control. A variant can be chosen with
	// "name[mode]" or "name[preference]"; a bare name takes all variants.
	Algorithms []string
	// Only, when set, keeps the mutants whose ID it matches.
	Only *regexp.Regexp `json:"-"`
	// Layers to run; nil means AllLayers.
	Layers []Layer
	// Jobs is the number of jobs run at once (test processes, SPIN runs,
	// builds); 0 means 3.
	Jobs int

	Stress  StressSettings
	Explore ExploreSettings
	Spin    SpinSettings
	// Deep configures the deep exploration of survivors; a zero Budget
	// turns it off.
	Deep ExploreSettings
	// DeepCrash replaces Deep for the locks whose processes may crash
	// (k-exclusion, k ≥ 2), when its Budget is set.
	DeepCrash ExploreSettings
	// Hunt configures the SPIN hunt of k-exclusion survivors; a zero
	// Timeout turns it off.
	Hunt HuntSettings

	// Log receives progress lines, one call at a time (the runner
	// serialises them across its workers); nil discards them.
	Log func(string) `json:"-"`
}

// SpinSettings configure the SPIN layer.
type SpinSettings struct {
	// Sizes are the numbers of processes, tried in order while the mutant
	// survives; nil means 2 then 3 (3 then 4 for k-exclusion, k = 2).
	Sizes []int
	// Timeout bounds each SPIN run at the first size. At larger sizes a
	// run gets five times what the original took (at least 10 s), at most
	// LargerTimeout. 0: 30 s and 60 s.
	Timeout, LargerTimeout time.Duration
	// MemLimitMB bounds pan's memory; 0 means 1024.
	MemLimitMB int
	// Properties, when set, keeps only these of the entry's standard
	// properties (a targeted run at a larger size).
	Properties []spin.Property
	// Passages, when > 0, bounds every process's passages in every model
	// (processes otherwise loop for ever where the model allows): a
	// targeted run where the looping model is too big.
	Passages int
	// Collapse and HashBits tune pan for large targeted runs
	// (spin.Options); zero values keep the defaults.
	Collapse bool
	HashBits int
	// Fold lowers the models with local work folded into the
	// neighbouring step (spin.Options.Fold): usually fewer states, same
	// verdicts.
	Fold bool
	// MaxDepth is pan's depth bound (spin.Options.MaxDepth); 0 keeps the
	// default.
	MaxDepth int
	// Bitstate hunts for counterexamples (spin.Options.Bitstate) at sizes
	// too large to search: it kills mutants, but a run without a
	// counterexample is incomplete.
	Bitstate bool
}

// DefaultConfig returns the settings the report is generated with.
func DefaultConfig() Config {
	return Config{
		Jobs:    3,
		Stress:  StressSettings{Passages: 300, Timeout: 10 * time.Second, Stall: time.Second},
		Explore: ExploreSettings{Budget: 2 * time.Second, Stall: 2 * time.Second},
		Spin:    SpinSettings{Timeout: 30 * time.Second, LargerTimeout: 60 * time.Second, MemLimitMB: 1024},
		Deep: ExploreSettings{Budget: 10 * time.Second, Stall: 2 * time.Second, Options: []string{
			"verify.ExplorePassages(4)", "verify.ExploreRandom(1000000)", "verify.ExplorePCT(1000000, 5)",
			"verify.ExploreDFSSize(2, 3)", "verify.ExploreDFSLimit(1000000)",
		}},
		// k-exclusion: its violations need k + 1 processes inside at once.
		// The crash phase finds most of them (four of the five deep kills
		// of Zehavi's k-exclusion in the rerun of 2026-11-27 05:45 UTC,
		// random the fifth), so its executions are not capped. The
		// exhaustive search runs verify's k-exclusion size, k + 1
		// goroutines of one passage: it finds Zehavi's line-7 mutant that
		// the crash phase missed in every run (schedule 12,955 at one
		// preemption, about 10 s here). The budget gives it 20 s (two
		// fifths, by Explore's weights); the crash executions run 2
		// passages whatever ExplorePassages asks (verify's kShortPassages).
		DeepCrash: ExploreSettings{Budget: 50 * time.Second, Stall: 2 * time.Second, Options: []string{
			"verify.ExplorePassages(4)", "verify.ExploreRandom(1000000)", "verify.ExplorePCT(1000000, 5)",
			"verify.ExploreDFSLimit(1000000)", "verify.ExploreCrashRuns(1000000)",
		}},
		Hunt: HuntSettings{Timeout: 30 * time.Second, Passages: 1, HashBits: 31, MemLimitMB: 1024},
	}
}

// deepFor is the deep exploration's settings for u's locks (zero when the
// layer is not run).
func (r *runner) deepFor(u *Unit) ExploreSettings {
	switch {
	case !r.wants(Deep):
		return ExploreSettings{}
	case r.cfg.DeepCrash.Budget > 0 && u.Options.Mode.Crashes(u.Entry.SmallParams(u.Options.Mode, u.Entry.DefaultNodes).K) > 0:
		return r.cfg.DeepCrash
	}
	return r.cfg.Deep
}

// Verdict is one layer's outcome on one mutant.
type Verdict struct {
	Ran    bool   // the layer ran (false: not run, see Detail)
	Killed bool   // the layer reported a violation
	Kind   string // what it reported (e.g. "mutual exclusion", "deadlock")
	// Detail is the first lines of the report: the message, with the
	// replay token or SPIN's trail, or why the layer did not run.
	Detail  string
	Elapsed time.Duration
}

// Result is one mutant's outcome.
type Result struct {
	Mutant mutate.Mutant
	Lock   string // the lock's name in the generated package
	Layer  map[Layer]*Verdict
}

// Killed reports whether some layer killed the mutant.
func (r *Result) Killed() bool {
	for _, v := range r.Layer {
		if v.Killed {
			return true
		}
	}
	return false
}

// Unit is one algorithm variant: its mutants and what became of them.
type Unit struct {
	Name    string           // "mcs", "filter[kexclusion]", "mcs-rw[writer]"
	Entry   *templates.Entry `json:"-"` // found again by Name when a saved report is loaded
	Options templates.Options
	Results []*Result
	// Baseline is the unmutated definition run through the same layers
	// (lock M0): it must pass every one of them, or that layer's kills
	// in this unit mean nothing (reported as a runner error).
	Baseline *Result
	// Discarded: mutations not run (they do not check, the Go backend
	// cannot lower or compile them, or they repeat another mutant).
	Discarded []mutate.Discarded
	// Time is the time spent per layer (builds included), summed over
	// jobs: with several jobs at once it exceeds the wall time.
	Time map[Layer]time.Duration
	// SpinPlan says which SPIN runs the mutants get (decided by the
	// baseline's timings).
	SpinPlan string
	// SpinNotes say which runs the original could not pass or afford.
	SpinNotes []string
	// Errors are failures of the runner itself (not of a mutant).
	Errors []string
}

// Report is a whole run.
type Report struct {
	Command  string // how the run was started (shown in the report)
	Platform string // "linux/amd64, 2 CPUs"
	Started  time.Time
	Elapsed  time.Duration
	Config   Config
	Units    []*Unit
	// Controls are the named negative controls' results, when run
	// (RunControls).
	Controls []*ControlResult
	// Reruns are the later runs of some units merged into this one
	// (Merge), oldest first.
	Reruns []Rerun `json:",omitempty"`
}

// LoadReport reads a report saved as JSON (the command's -save), so that
// it can be rendered again with the current classifications without
// running the mutants again. Entries are found again by unit name.
func LoadReport(data []byte) (*Report, error) {
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	for _, u := range rep.Units {
		name, _, _ := strings.Cut(u.Name, "[")
		e, ok := templates.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("saved report: unit %s: no catalogue entry %q", u.Name, name)
		}
		u.Entry = e
	}
	return &rep, nil
}

// Run mutates the configured algorithms and runs every mutant through the
// layers.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	def := DefaultConfig()
	if cfg.Jobs <= 0 {
		cfg.Jobs = def.Jobs
	}
	if cfg.Stress.Passages == 0 {
		cfg.Stress = def.Stress
	}
	if cfg.Explore.Budget == 0 {
		cfg.Explore.Budget = def.Explore.Budget
	}
	if cfg.Explore.Stall == 0 {
		cfg.Explore.Stall = def.Explore.Stall
	}
	if cfg.Spin.Timeout == 0 {
		cfg.Spin.Timeout = def.Spin.Timeout
	}
	if cfg.Spin.LargerTimeout == 0 {
		cfg.Spin.LargerTimeout = def.Spin.LargerTimeout
	}
	if cfg.Spin.MemLimitMB == 0 {
		cfg.Spin.MemLimitMB = def.Spin.MemLimitMB
	}
	if cfg.Layers == nil {
		cfg.Layers = AllLayers()
	}
	if cfg.Deep.Budget <= 0 {
		cfg.Layers = slices.DeleteFunc(slices.Clone(cfg.Layers), func(l Layer) bool { return l == Deep })
	}
	if cfg.Hunt.Timeout <= 0 {
		cfg.Layers = slices.DeleteFunc(slices.Clone(cfg.Layers), func(l Layer) bool { return l == Hunt })
	}
	if cfg.Log == nil {
		cfg.Log = func(string) {}
	}
	if cfg.Module == "" {
		m, err := FindModule()
		if err != nil {
			return nil, err
		}
		cfg.Module = m
	}
	modPath, err := gen.ImportPath(cfg.Module)
	if err != nil {
		return nil, err
	}
	units, err := selectUnits(cfg.Algorithms)
	if err != nil {
		return nil, err
	}
	rep := &Report{Started: time.Now(), Config: cfg, Units: units,
		Platform: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())}
	r := &runner{cfg: cfg, modPath: modPath, q: newQueue()}
	for i, u := range units {
		r.prepare(i, u)
	}
	r.q.run(ctx, cfg.Jobs)
	rep.Elapsed = time.Since(rep.Started)
	return rep, ctx.Err()
}

// FindModule returns the root of the module containing the working
// directory.
func FindModule() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("mutation: no go.mod above the working directory")
		}
		dir = up
	}
}

// selectUnits resolves the algorithm names to variants.
func selectUnits(names []string) ([]*Unit, error) {
	var out []*Unit
	add := func(e *templates.Entry, only string) error {
		opts := e.AllOptions()
		found := false
		for _, o := range opts {
			v := string(o.Mode)
			if o.Preference != "" {
				v = string(o.Preference)
			}
			if only != "" && only != v {
				continue
			}
			found = true
			name := e.Name
			if len(opts) > 1 {
				name += "[" + v + "]"
			}
			out = append(out, &Unit{Name: name, Entry: e, Options: o, Time: map[Layer]time.Duration{}})
		}
		if !found {
			return fmt.Errorf("mutation: %s has no variant %q", e.Name, only)
		}
		return nil
	}
	if names == nil {
		for _, e := range templates.All() {
			if !e.NegativeControl() {
				add(e, "")
			}
		}
		return out, nil
	}
	for _, n := range names {
		base, variant, _ := strings.Cut(strings.TrimSuffix(n, "]"), "[")
		e, ok := templates.Lookup(base)
		if !ok {
			return nil, fmt.Errorf("mutation: no catalogue algorithm %q", base)
		}
		if err := add(e, variant); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// runner holds a run's shared state.
type runner struct {
	cfg     Config
	modPath string
	q       *queue
	mu      sync.Mutex // guards Units' Time, Errors, Discarded and Results
	logMu   sync.Mutex // serialises cfg.Log
}

func (r *runner) log(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	r.logMu.Lock()
	defer r.logMu.Unlock()
	r.cfg.Log(line)
}

func (r *runner) wants(l Layer) bool {
	for _, x := range r.cfg.Layers {
		if x == l {
			return true
		}
	}
	return false
}

func (r *runner) addTime(u *Unit, l Layer, d time.Duration) {
	r.mu.Lock()
	u.Time[l] += d
	r.mu.Unlock()
}

func (r *runner) fail(u *Unit, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.mu.Lock()
	u.Errors = append(u.Errors, msg)
	r.mu.Unlock()
	r.log("%s: ERROR %s", u.Name, msg)
}

// prepare generates a unit's mutants and queues its jobs: the SPIN
// baseline (whose timings decide which larger models are cheap enough for
// the mutants) and then the mutants' SPIN runs, the build and then the
// test processes.
func (r *runner) prepare(prio int, u *Unit) {
	a := u.Entry.MustDef(u.Options)
	t := u.target()
	set := generate(u)
	u.Discarded = set.Discarded
	newResult := func(m mutate.Mutant, lock string) *Result {
		res := &Result{Mutant: m, Lock: lock, Layer: map[Layer]*Verdict{}}
		for _, l := range AllLayers() {
			res.Layer[l] = &Verdict{Detail: "layer not run"}
		}
		return res
	}
	for _, m := range set.Kept {
		if r.cfg.Only != nil && !r.cfg.Only.MatchString(m.ID) {
			continue
		}
		u.Results = append(u.Results, newResult(m, fmt.Sprintf("M%d", len(u.Results)+1)))
	}
	u.Baseline = newResult(mutate.Mutant{ID: u.Name + "/original", Change: "none (the catalogue definition)", Alg: a}, "M0")
	r.log("%s: %d mutants (%d discarded)", u.Name, len(u.Results), len(u.Discarded))
	if len(u.Results) == 0 {
		return
	}
	prog := newProgress(r, u)
	tr := &tracker{r: r, u: u, prio: prio}
	if r.wants(SPIN) {
		prog.add(SPIN, len(u.Results))
		tr.push(func(ctx context.Context) {
			plan := r.spinBaseline(ctx, u)
			for _, res := range u.Results {
				tr.push(func(ctx context.Context) {
					r.spinJob(ctx, u, res, plan)
					prog.done(SPIN)
				})
			}
		})
	}
	if r.wants(Stress) || r.wants(Explore) || r.wants(Deep) {
		tr.push(func(ctx context.Context) { r.buildJob(ctx, tr, t, prog) })
	} else if !r.wants(SPIN) && r.hunts(u) {
		// Only the hunt, and every mutant survives: an empty job makes
		// the tracker idle, which starts it.
		tr.push(func(context.Context) {})
	}
}

// tracker counts a unit's queued and running jobs: when the last one
// ends, the survivors get the SurvivorLayers, and once those are done too
// the unit's package and binaries are removed.
type tracker struct {
	r       *runner
	u       *Unit
	prio    int
	mu      sync.Mutex
	pending int
	started bool // the SurvivorLayers were started
	check   *gotest.Binary
	cleanup func()
}

func (tr *tracker) push(job func(context.Context)) {
	tr.mu.Lock()
	tr.pending++
	tr.mu.Unlock()
	tr.r.q.push(tr.prio, func(ctx context.Context) {
		job(ctx)
		tr.mu.Lock()
		tr.pending--
		idle := tr.pending == 0
		tr.mu.Unlock()
		if idle {
			tr.idle(ctx)
		}
	})
}

// idle runs when every job of the unit has ended: the first time, the
// survivors get the SurvivorLayers that apply to them.
func (tr *tracker) idle(ctx context.Context) {
	r, u := tr.r, tr.u
	tr.mu.Lock()
	start := !tr.started && ctx.Err() == nil
	tr.started = true
	tr.mu.Unlock()
	deep := start && tr.check != nil && r.wants(Deep)
	hunt := start && r.hunts(u)
	if deep || hunt {
		var survivors []*Result
		r.mu.Lock()
		for _, res := range u.Results {
			if !res.Killed() {
				survivors = append(survivors, res)
			}
		}
		r.mu.Unlock()
		if len(survivors) > 0 {
			if deep {
				r.log("%-24s explore-deep on %d survivors", u.Name, len(survivors))
				for _, res := range survivors {
					tr.push(func(ctx context.Context) { r.exploreJob(ctx, u, tr.check, res, Deep) })
				}
			}
			if hunt {
				r.log("%-24s spin-hunt on %d survivors", u.Name, len(survivors))
				tr.push(func(ctx context.Context) {
					if !r.huntBaseline(ctx, u) {
						return
					}
					for _, res := range survivors {
						tr.push(func(ctx context.Context) { r.huntJob(ctx, u, res) })
					}
				})
			}
			return
		}
	}
	if tr.cleanup != nil {
		tr.cleanup()
		tr.cleanup = nil
	}
}

func (u *Unit) target() mutate.Target {
	t := mutate.Target{Entry: u.Entry, Options: u.Options, Name: u.Name}
	t.Lowerable = lowerable(t)
	return t
}

// generate makes the unit's mutants.
func generate(u *Unit) mutate.Set {
	return mutate.Generate(u.Entry.MustDef(u.Options), u.target())
}

// progress logs a line when a unit's layer is finished.
type progress struct {
	r       *runner
	u       *Unit
	mu      sync.Mutex
	pending map[Layer]int
}

func newProgress(r *runner, u *Unit) *progress {
	return &progress{r: r, u: u, pending: map[Layer]int{}}
}

func (p *progress) add(l Layer, n int) {
	p.mu.Lock()
	p.pending[l] += n
	p.mu.Unlock()
}

func (p *progress) done(l Layer) {
	p.mu.Lock()
	p.pending[l]--
	left := p.pending[l]
	p.mu.Unlock()
	if left == 0 {
		k, n := 0, 0
		p.r.mu.Lock()
		for _, res := range p.u.Results {
			if v := res.Layer[l]; v.Ran {
				n++
				if v.Killed {
					k++
				}
			}
		}
		t := p.u.Time[l]
		p.r.mu.Unlock()
		p.r.log("%-24s %-7s killed %3d/%-3d  %v", p.u.Name, l, k, n, t.Round(time.Second))
	}
}

// buildJob writes the unit's package, compiles it for the scheduler and
// under the race detector (dropping mutants that do not compile), and
// queues the test processes.
func (r *runner) buildJob(ctx context.Context, tr *tracker, t mutate.Target, prog *progress) {
	u := tr.u
	start := time.Now()
	pkgName := "mut" + strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return c
		}
		return -1
	}, u.Name)
	results := append([]*Result{u.Baseline}, u.Results...)
	locks := func() []Lock {
		var ls []Lock
		for _, res := range results {
			ls = append(ls, Lock{Config: goConfig(t, res.Mutant.Alg, res.Lock, "", ""), Seed: seedOf(res.Mutant.ID)})
		}
		return ls
	}
	parent := filepath.Join(r.cfg.Module, "verify", "mutation", "testdata")
	deep := r.deepFor(u)
	pkg, err := WritePackage(r.cfg.Module, r.modPath, parent, pkgName, locks(), r.cfg.Stress, r.cfg.Explore, deep)
	if err != nil {
		r.fail(u, "writing the package: %v", err)
		return
	}
	var check, race *gotest.Binary
	cleanup := func() {
		if check != nil {
			check.Remove()
		}
		if race != nil {
			race.Remove()
		}
		os.RemoveAll(pkg.Dir)
	}
	for attempt := 0; ; attempt++ {
		check, err = gotest.Build(ctx, gotest.Options{Dir: pkg.Dir, Tags: []string{"lockgen_check"}})
		if err == nil {
			break
		}
		be, ok := err.(*gotest.BuildError)
		if !ok || attempt > 3 {
			r.fail(u, "compiling the package: %v", err)
			cleanup()
			return
		}
		bad := badLocks(be.Output, results)
		if len(bad) == 0 {
			r.fail(u, "compiling the package: %v", err)
			cleanup()
			return
		}
		if _, ok := bad[u.Baseline.Lock]; ok {
			r.fail(u, "the original definition does not compile: %s", bad[u.Baseline.Lock])
			cleanup()
			return
		}
		var keep []*Result
		r.mu.Lock()
		for _, res := range results {
			if why, ok := bad[res.Lock]; ok {
				u.Discarded = append(u.Discarded, mutate.Discarded{ID: res.Mutant.ID, Operator: res.Mutant.Operator,
					Where: res.Mutant.Where, Change: res.Mutant.Change, Reason: "Go compiler: " + why})
				res.Layer[Stress].Detail, res.Layer[Explore].Detail = "does not compile", "does not compile"
				continue
			}
			keep = append(keep, res)
		}
		r.mu.Unlock()
		results = keep
		r.mu.Lock()
		var kept []*Result
		for _, res := range u.Results {
			if _, ok := bad[res.Lock]; !ok {
				kept = append(kept, res)
			}
		}
		u.Results = kept // a mutant that does not compile is discarded, from every layer
		r.mu.Unlock()
		if err := pkg.Rewrite(locks(), r.cfg.Stress, r.cfg.Explore, deep); err != nil {
			r.fail(u, "rewriting the package: %v", err)
			cleanup()
			return
		}
	}
	if r.wants(Stress) {
		race, err = gotest.Build(ctx, gotest.Options{Dir: pkg.Dir, Race: true})
		if err != nil {
			r.fail(u, "compiling the package with -race: %v", err)
			cleanup()
			return
		}
	}
	el := time.Since(start)
	r.addTime(u, Stress, el/2)
	r.addTime(u, Explore, el-el/2)
	r.log("%-24s built %d mutants in %v", u.Name, len(results), el.Round(time.Second))

	tr.mu.Lock()
	tr.check, tr.cleanup = check, cleanup // removed once the unit's last job ends
	tr.mu.Unlock()
	for _, l := range []Layer{Stress, Explore} {
		if !r.wants(l) {
			continue
		}
		prog.add(l, len(results)-1)
		for _, res := range results {
			tr.push(func(ctx context.Context) {
				if l == Stress {
					r.stressJob(ctx, u, race, res)
				} else {
					r.exploreJob(ctx, u, check, res, Explore)
				}
				if res == u.Baseline {
					if v := r.verdict(res, l); v.Killed {
						r.fail(u, "the original definition fails %s (%s): this layer's verdicts on its mutants are suspect: %s", l, v.Kind, firstLine(v.Detail))
					}
				} else {
					prog.done(l)
				}
			})
		}
	}
}

// seedOf derives a lock's random seed from its mutant ID (FNV-1a), so
// that every run makes the same random choices for it.
func seedOf(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// compileErr matches a compiler error in one of the generated lock files.
var compileErr = regexp.MustCompile(`(?m)^\.?/?(m\d+)(?:_test|_check_test)?\.go:\d+:\d+: (.*)$`)

// badLocks maps the locks whose files the compiler rejected to the first
// error.
func badLocks(out string, results []*Result) map[string]string {
	bad := map[string]string{}
	names := map[string]string{}
	for _, res := range results {
		names[strings.ToLower(res.Lock)] = res.Lock
	}
	for _, m := range compileErr.FindAllStringSubmatch(out, -1) {
		if l, ok := names[m[1]]; ok {
			if _, seen := bad[l]; !seen {
				bad[l] = m[2]
			}
		}
	}
	return bad
}

func (r *runner) stressJob(ctx context.Context, u *Unit, bin *gotest.Binary, res *Result) {
	st := r.cfg.Stress
	v := &Verdict{Ran: true}
	out, err := bin.Run(ctx, gotest.RunOptions{Run: "^" + StressTest(res.Lock) + "$", Timeout: st.Timeout + 20*time.Second})
	if err != nil {
		r.fail(u, "%s stress: %v", res.Mutant.ID, err)
		return
	}
	v.Elapsed = out.Elapsed
	tr, ok := out.Test(StressTest(res.Lock))
	var f StressFinding
	switch {
	case !ok:
		v.Killed, v.Kind = true, "crash"
		v.Detail = tail(out.Output, 12)
	case tr.Outcome == gotest.Pass:
		v.Detail = "passed"
	case harness.Find(tr.Output, &f) && len(f.Failures) > 0:
		v.Killed = true
		var kinds []string
		for _, x := range f.Failures {
			if !contains(kinds, x.Kind) {
				kinds = append(kinds, x.Kind)
			}
		}
		v.Kind = strings.Join(kinds, ", ")
		v.Detail = f.Failures[0].Msg
	case strings.Contains(tr.Output, "WARNING: DATA RACE") || strings.Contains(tr.Output, "race detected"):
		v.Killed, v.Kind = true, "data race"
		v.Detail = raceSummary(tr.Output)
	default:
		died(v, tr, out)
	}
	r.record(u, res, Stress, v)
}

// died records a test process that ended without a verdict of its own:
// killed at its timeout (a hang) or crashed.
func died(v *Verdict, tr gotest.Test, out *gotest.Result) {
	v.Killed, v.Kind = true, "crash"
	if tr.Outcome == gotest.Killed {
		v.Kind = "hang (process killed)"
	}
	v.Detail = tail(tr.Output+out.Output, 12)
}

// verdict reads a layer's verdict on a mutant while other jobs may be
// recording theirs (the SPIN baseline writes the same map).
func (r *runner) verdict(res *Result, l Layer) *Verdict {
	r.mu.Lock()
	defer r.mu.Unlock()
	return res.Layer[l]
}

// record stores a layer's verdict on a mutant and its time.
func (r *runner) record(u *Unit, res *Result, layer Layer, v *Verdict) {
	r.addTime(u, layer, v.Elapsed)
	r.mu.Lock()
	res.Layer[layer] = v
	r.mu.Unlock()
}

func (r *runner) exploreJob(ctx context.Context, u *Unit, bin *gotest.Binary, res *Result, layer Layer) {
	ex, test := r.cfg.Explore, ExploreTest(res.Lock)
	if layer == Deep {
		ex, test = r.deepFor(u), DeepTest(res.Lock)
	}
	v := &Verdict{Ran: true}
	out, err := bin.Run(ctx, gotest.RunOptions{Run: "^" + test + "$", Timeout: ex.Budget + 4*ex.Stall + 20*time.Second})
	if err != nil {
		r.fail(u, "%s %s: %v", res.Mutant.ID, layer, err)
		return
	}
	v.Elapsed = out.Elapsed
	tr, ok := out.Test(test)
	var f ExploreFinding
	switch {
	case !ok:
		v.Killed, v.Kind = true, "crash"
		v.Detail = tail(out.Output, 12)
	case tr.Outcome == gotest.Pass:
		v.Detail = "passed"
		if harness.Find(tr.Output, &f) {
			v.Detail = f.Summary
		}
	case harness.Find(tr.Output, &f) && f.Kind != "":
		v.Killed, v.Kind = true, f.Kind
		v.Detail = fmt.Sprintf("%s (%s; replay %s)\n%s", f.Message, f.Strategy, f.Token, tail(f.Trace, 16))
	default:
		died(v, tr, out)
	}
	r.record(u, res, layer, v)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// tail returns the last n non-empty lines of s.
func tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("… (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

func raceSummary(out string) string {
	i := strings.Index(out, "WARNING: DATA RACE")
	if i < 0 {
		return tail(out, 8)
	}
	lines := strings.Split(out[i:], "\n")
	if len(lines) > 10 {
		lines = lines[:10]
	}
	return strings.Join(lines, "\n")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// queue is a priority job queue run by a fixed pool of workers: lower
// priority values first, FIFO within a priority.
type queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    map[int][]func(context.Context)
	pending int // queued or running
}

func newQueue() *queue {
	q := &queue{jobs: map[int][]func(context.Context){}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) push(prio int, job func(context.Context)) {
	q.mu.Lock()
	q.jobs[prio] = append(q.jobs[prio], job)
	q.pending++
	q.mu.Unlock()
	q.cond.Broadcast()
}

// pop returns the next job, or nil when every job is done.
func (q *queue) pop() func(context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.pending == 0 {
			return nil
		}
		best := -1
		for p, js := range q.jobs {
			if len(js) > 0 && (best < 0 || p < best) {
				best = p
			}
		}
		if best >= 0 {
			j := q.jobs[best][0]
			q.jobs[best] = q.jobs[best][1:]
			return j
		}
		q.cond.Wait()
	}
}

func (q *queue) finish() {
	q.mu.Lock()
	q.pending--
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *queue) run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := q.pop()
				if j == nil {
					return
				}
				j(ctx) // jobs end quickly once ctx is done, and clean up
				q.finish()
			}
		}()
	}
	wg.Wait()
}
