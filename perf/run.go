package perf

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/lockgen/lockgen/internal/tmpmod"
)

// Environment of a driver run by lockgen bench.
const (
	ConfigEnv = "LOCKGEN_BENCH_CONFIG" // the Config, as JSON
	OutEnv    = "LOCKGEN_BENCH_OUT"    // where the Report goes, as JSON
)

// RunDriver is the other side of perf/driver's Main: it builds the test package in dir
// (a scratch package holding the locks and the driver that calls Main)
// without the race detector, runs its driver with cfg, and returns the
// report. The driver's progress goes to progress; building is announced
// there first. With cfg.PGO, a first pass (one run per cell, of half the
// length, one latency run) is profiled and the package rebuilt with -pgo
// before the measured pass. The package is built on a temporary copy of
// its module's go.mod (internal/tmpmod): the baselines' modules (xsync,
// x/sync) are added there, never to the user's go.mod and go.sum.
func RunDriver(ctx context.Context, dir string, cfg Config, progress io.Writer) (*Report, error) {
	bin := filepath.Join(dir, "lockgen-bench.test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	mod, err := tmpmod.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer mod.Close()
	inlining, err := buildDriver(ctx, mod, dir, bin, "")
	if err != nil {
		return nil, err
	}
	if cfg.PGO {
		profile := filepath.Join(dir, "pgo.prof")
		first := cfg
		first.Count, first.LatencyCount, first.Duration = 1, 1, max(cfg.Duration/2, time.Millisecond)
		fmt.Fprintln(progress, "profiling a first, shorter pass for profile-guided optimization...")
		if _, err := runDriver(ctx, dir, bin, first, progress, "-test.cpuprofile="+profile); err != nil {
			return nil, err
		}
		fmt.Fprintln(progress, "rebuilding the benchmark with -pgo...")
		if inlining, err = buildDriver(ctx, mod, dir, bin, profile); err != nil {
			return nil, err
		}
	}
	rep, err := runDriver(ctx, dir, bin, cfg, progress)
	if err != nil {
		return nil, err
	}
	rep.Inlining = inlining
	return rep, nil
}

// buildDriver compiles the test package in dir to bin, with -pgo=profile
// when profile is not "", and returns the compiler's verdict on inlining
// the locks' methods (its -m=2 report on that package: diagnostics only,
// the code compiled is the same).
func buildDriver(ctx context.Context, mod *tmpmod.Module, dir, bin, profile string) ([]Inlining, error) {
	args := []string{"-c", "-o", bin, "-gcflags=-m=2"}
	if profile != "" {
		args = append(args, "-pgo="+profile)
	}
	out, err := mod.Command(ctx, dir, "test", append(args, ".")...).CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted")
		}
		// The error drowns in the diagnostics: build again without them.
		again := mod.Command(ctx, dir, "test", append(slices.DeleteFunc(args, func(a string) bool { return a == "-gcflags=-m=2" }), ".")...)
		if msg, _ := again.CombinedOutput(); len(msg) > 0 {
			out = msg
		}
		return nil, fmt.Errorf("building the benchmark: %v\n%s", err, out)
	}
	return parseInlining(string(out)), nil
}

// runDriver runs the driver bin with cfg and reads its report.
func runDriver(ctx context.Context, dir, bin string, cfg Config, progress io.Writer, extra ...string) (*Report, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "report.json")
	run := exec.CommandContext(ctx, bin, append([]string{"-test.run=^TestLockgenBench$", "-test.count=1", "-test.timeout=0"}, extra...)...)
	run.Dir = dir
	run.Env = append(os.Environ(), ConfigEnv+"="+string(raw), OutEnv+"="+out)
	run.Stdout, run.Stderr = io.Discard, progress
	if f, ok := progress.(*os.File); ok {
		run.Stderr = f // the driver rewrites its progress line in place on a terminal
	}
	if err := run.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted")
		}
		return nil, fmt.Errorf("running the benchmark: %v", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}
