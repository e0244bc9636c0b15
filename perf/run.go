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
)

// RunDriver is the other side of Main: it builds the test package in dir
// (a scratch package holding the locks and the driver that calls Main)
// without the race detector, runs its driver with cfg, and returns the
// report. The driver's progress goes to progress; building is announced
// there first.
func RunDriver(ctx context.Context, dir string, cfg Config, progress io.Writer) (*Report, error) {
	bin := filepath.Join(dir, "lockgen-bench.test")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted")
		}
		return nil, fmt.Errorf("building the benchmark: %v\n%s", err, out)
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "report.json")
	run := exec.CommandContext(ctx, bin, "-test.run=^TestLockgenBench$", "-test.count=1", "-test.timeout=0")
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
