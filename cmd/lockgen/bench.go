package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/internal/tmpmod"
	"github.com/lockgen/lockgen/perf"
	"github.com/lockgen/lockgen/perf/report"
	"github.com/lockgen/lockgen/spec"
)

// runBench measures the locks of a spec next to the standard locks.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", "[-count N] [-duration D] [-goroutines LIST] [-cs D] [-outside D] [-reads F] [-pgo] [-report FILE.md] [-json FILE] [-targets] [-quick] SPEC", stderr)
	count := fs.Int("count", 5, "throughput runs per lock, goroutine count and workload (their spread is reported)")
	duration := fs.Duration("duration", 100*time.Millisecond, "length of each run")
	goroutines := fs.String("goroutines", "", "goroutine counts, comma-separated (default 1, GOMAXPROCS, 4×GOMAXPROCS, 64)")
	cs := fs.Duration("cs", 50*time.Nanosecond, "work inside the critical section of the \"work\" workload")
	outside := fs.Duration("outside", 500*time.Nanosecond, "work between passages of the \"work\" workload")
	reads := fs.Float64("reads", 0.9, "share of passages that read, for reader/writer locks")
	reportFile := fs.String("report", "", "write a Markdown report to `FILE`, with plots in a directory beside it named after it")
	jsonFile := fs.String("json", "", "write the measurements as JSON to `FILE`")
	targets := fs.Bool("targets", false, "evaluate lockgen's own performance targets (for the catalogue's benchmark spec, bench/locks/locks.toml)")
	quick := fs.Bool("quick", false, "one short run per cell (-count 1 -duration 10ms): to check that it works, not to measure")
	pgo := fs.Bool("pgo", false, "build the benchmark with profile-guided optimization from a profile of a shorter first pass: hot calls to a lock's methods then inline, as in a program built with go build -pgo")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "lockgen bench: give exactly one spec (its locks are measured in one run, against baselines of the same run)")
		fs.Usage()
		return exitUsage
	}
	if *quick {
		*count, *duration = 1, 10*time.Millisecond
	}
	cfg := perf.Config{Duration: *duration, Count: *count, ReadFraction: *reads, PGO: *pgo,
		Workloads: []perf.Workload{{Name: "empty"}, {Name: "work", CS: *cs, Outside: *outside}}}
	if *goroutines != "" {
		gs, err := parseList(*goroutines, strconv.Atoi, func(g int) bool { return g >= 1 })
		if err != nil {
			fmt.Fprintf(stderr, "lockgen bench: -goroutines %q: want positive counts\n", *goroutines)
			return exitUsage
		}
		cfg.Goroutines = gs
	}
	if *count < 1 || *duration <= 0 || *reads < 0 || *reads > 1 {
		fmt.Fprintln(stderr, "lockgen bench: -count must be at least 1, -duration positive, -reads within [0, 1]")
		return exitUsage
	}
	f, err := spec.ParseFile(fs.Arg(0))
	var se spec.Errors
	switch {
	case errors.As(err, &se):
		return reportSpecErrors(se, stderr)
	case err != nil:
		fmt.Fprintln(stderr, "lockgen:", err)
		return exitUsage
	}

	for _, l := range f.Locks {
		if l.Distributed != nil {
			fmt.Fprintf(stderr, "%s: lockgen bench measures shared-memory locks; %s (%s) is a distributed lock: lockgen simulate measures its messages per entry and acquisition times\n", l.Pos, l.Name, l.Algorithm)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := benchFile(ctx, f, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "lockgen bench: %s: %v\n", f.Path, err)
		return exitFailed
	}
	report.Table(stdout, rep)
	var ts []report.Target
	if *targets {
		ts = report.Targets(rep)
		fmt.Fprintln(stdout)
		for _, t := range ts {
			met := "met"
			if !t.Met {
				met = "NOT MET"
			}
			fmt.Fprintf(stdout, "%-7s %s: %s\n", met, t.What, t.Measured)
		}
	}
	if *jsonFile != "" {
		data, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = writeFileAtomic(*jsonFile, data)
		}
		if err != nil {
			fmt.Fprintln(stderr, "lockgen bench:", err)
			return exitFailed
		}
	}
	if *reportFile != "" {
		if err := writeBenchReport(ctx, filepath.Dir(f.Path), *reportFile, rep, commandLine(fs), ts); err != nil {
			fmt.Fprintln(stderr, "lockgen bench:", err)
			return exitFailed
		}
	}
	return exitOK
}

// benchFile generates f's locks into a scratch package inside f's module,
// adds the measurement driver, and runs it (perf.RunDriver).
func benchFile(ctx context.Context, f *spec.File, cfg perf.Config, stderr io.Writer) (*perf.Report, error) {
	dir, err := gen.Scratch(f, "_lockgen-bench-")
	if err != nil {
		return nil, err
	}
	defer dir.Remove()
	var cs []golang.Config
	for _, l := range f.Locks {
		cs = append(cs, gen.Config(l, f, "", ""))
	}
	driver, err := golang.BenchDriver(f.Locks[0].Package, cs)
	if err != nil {
		return nil, err
	}
	if err := dir.Add(driver); err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: building the benchmark of %s...\n", f.Path, plural(len(f.Locks), "lock"))
	return perf.RunDriver(ctx, dir.Path, cfg, stderr)
}

// plotsCommand draws a report's plots. It is built in the spec's module on
// a temporary copy of its go.mod (internal/tmpmod): the plotting library
// is not among this command's dependencies, so it never enters the go.mod
// of a module that only generates locks.
const plotsCommand = "github.com/lockgen/lockgen/perf/cmd/benchplots"

// writeBenchReport writes the Markdown report and its plots, in a
// directory named after the report (docs/performance.md: docs/performance/);
// the plots are drawn by plotsCommand, built in the module holding
// moduleDir.
func writeBenchReport(ctx context.Context, moduleDir, path string, rep *perf.Report, command string, ts []report.Target) error {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	dir, err := filepath.Abs(filepath.Join(filepath.Dir(path), base))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	plots, err := drawPlots(ctx, moduleDir, rep, dir, base)
	if err != nil {
		return err
	}
	var b strings.Builder
	report.Markdown(&b, rep, command, plots, ts)
	return writeFileAtomic(path, []byte(b.String()))
}

// drawPlots runs plotsCommand on rep, drawing into dir (named rel by the
// report), and returns the plots it drew.
func drawPlots(ctx context.Context, moduleDir string, rep *perf.Report, dir, rel string) ([]report.Plot, error) {
	var plots []report.Plot
	return plots, runPlots(ctx, moduleDir, plotsCommand, rep, dir, rel, &plots)
}

// runPlots runs a plot command of this module (built in the module
// holding moduleDir, on a copy of its go.mod: internal/tmpmod) on the
// report data as JSON, drawing into dir (named rel by the Markdown
// report), and decodes what it prints into plots.
func runPlots(ctx context.Context, moduleDir, command string, data any, dir, rel string, plots any) error {
	tmp, err := os.MkdirTemp("", "lockgen-plots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	in := filepath.Join(tmp, "report.json")
	js, err := json.Marshal(data)
	if err == nil {
		err = os.WriteFile(in, js, 0o644)
	}
	if err != nil {
		return err
	}
	var out, errs bytes.Buffer
	if err := tmpmod.Run(ctx, moduleDir, command, []string{"-report", in, "-dir", dir, "-rel", rel}, &out, &errs); err != nil {
		return fmt.Errorf("drawing the plots: %v\n%s", err, errs.Bytes())
	}
	if err := json.Unmarshal(out.Bytes(), plots); err != nil {
		return fmt.Errorf("drawing the plots: %v", err)
	}
	return nil
}

// writeFileAtomic writes through a temporary file and a rename, so that a
// failed write leaves the old file as it was.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".lockgen-*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
