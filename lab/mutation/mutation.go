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
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/templates"
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
