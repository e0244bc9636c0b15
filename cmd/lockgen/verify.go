package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/lab/layers"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/spec"
)

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "[-layers L] [-n SIZES] [-channels fifo|reorder] [-spin-timeout D] [-spin-fold] [-spin-hash-compact] [-spin-mem MB] [-spin-quiescence] [-report FILE] [-expect-rejections] [-allow-incomplete] SPEC...", stderr)
	layerList := fs.String("layers", strings.Join(layers.All, ","), "comma-separated `layers` to run: "+strings.Join(layers.All, ", "))
	sizes := fs.String("n", "2,3,4", "process counts for SPIN, comma-separated (capped by procs)")
	channels := fs.String("channels", "", "`model` of the channels in message-passing locks' SPIN models: fifo (each pair's messages in order) or reorder (any message may overtake another); default: each lock's paper's, reorder unless the paper assumes FIFO channels (lockgen explain ALGORITHM, channels)")
	spinTimeout := fs.Duration("spin-timeout", time.Minute, "time limit of one SPIN run; a run that hits it is incomplete, not failed")
	spinFold := fs.Bool("spin-fold", false, "fold local work into the neighbouring step in SPIN models: usually fewer states, same verdicts")
	spinHC := fs.Bool("spin-hash-compact", false, "store a 96-bit signature per SPIN state instead of the state: fewer bytes per state; a pass says how many states the search may have skipped on average, and one that may have skipped 1e-6 or more gives no verdict")
	spinMem := fs.Int("spin-mem", 0, "memory limit of one SPIN run in `MB` (default 4096)")
	spinQuiet := fs.Bool("spin-quiescence", false, "check liveness over bounded passages as a safety search (no state where every process is idle, crashed or stuck) where the algorithm's loops write nothing: no weak fairness product, which keeps some large searches in memory (more states than the LTL claim for some locks, fewer for others)")
	report := fs.String("report", "", "also write the summary as Markdown to `FILE`")
	expect := fs.Bool("expect-rejections", false, "negative controls (known-incorrect or timing-dependent algorithms) must be rejected, and their rejection does not fail the run")
	allowIncomplete := fs.Bool("allow-incomplete", false, "exit 0, not 3, when nothing failed but a run gave no verdict (the summary still names each such lock, never as verified)")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	o := layers.Options{Cache: layers.NewSpinCache(), Layers: map[string]bool{}, SpinTimeout: *spinTimeout, SpinFold: *spinFold, SpinQuiescence: *spinQuiet,
		SpinHashCompact: *spinHC, SpinMemMB: *spinMem}
	if *channels != "" && !slices.Contains(layers.Channels, *channels) {
		fmt.Fprintf(stderr, "lockgen verify: unknown -channels %q; valid: %s\n", *channels, strings.Join(layers.Channels, ", "))
		return exitUsage
	}
	o.Channels = *channels
	for _, l := range strings.Split(*layerList, ",") {
		l = strings.TrimSpace(l)
		if !slices.Contains(layers.All, l) {
			fmt.Fprintf(stderr, "lockgen verify: unknown layer %q; valid: %s\n", l, strings.Join(layers.All, ", "))
			return exitUsage
		}
		o.Layers[l] = true
	}
	ns, err := parseList(*sizes, strconv.Atoi, func(n int) bool { return n >= 2 })
	if err != nil {
		fmt.Fprintf(stderr, "lockgen verify: -n %q: want process counts of at least 2\n", *sizes)
		return exitUsage
	}
	o.Sizes = ns
	// Validate every spec before running anything.
	var files []*spec.File
	var errs spec.Errors
	for _, p := range fs.Args() {
		f, err := spec.ParseFile(p)
		var se spec.Errors
		switch {
		case errors.As(err, &se):
			errs = append(errs, se...)
		case err != nil:
			fmt.Fprintln(stderr, "lockgen:", err)
			return exitUsage
		default:
			files = append(files, f)
		}
	}
	if len(errs) > 0 {
		return reportSpecErrors(errs, stderr)
	}
	// Usage first, then the tools: a bad command line is exit 2 whatever
	// is installed.
	if o.Layers[layers.SPIN] {
		if err := spin.Available(); err != nil {
			fmt.Fprintln(stderr, "lockgen verify:", err)
			return exitFailed
		}
	}

	judge := layers.Judge{Files: files, ExpectRejections: *expect}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	var results []layers.Result
	for _, run := range runFiles(ctx, files, o, judge, stderr) {
		f, rs, err := run.file, run.results, run.err
		if ctx.Err() != nil {
			// Interrupted: what was running gives no verdict, and
			// whatever finished before does not make a run's outcome.
			fmt.Fprintf(stderr, "lockgen verify: interrupted during %s; no verdict\n", f.Path)
			return exitInterrupted
		}
		if err != nil {
			fmt.Fprintf(stderr, "lockgen verify: %s: %v\n", f.Path, err)
			return exitFailed
		}
		results = append(results, rs...)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "lockgen verify: interrupted; no verdict")
		return exitInterrupted
	}
	code := summarize(stdout, results, judge, time.Since(start), *allowIncomplete)
	if *report != "" {
		md := judge.Markdown(results, commandLine(fs), o.Sizes, time.Since(start))
		if err := os.WriteFile(*report, []byte(md), 0o644); err != nil {
			fmt.Fprintln(stderr, "lockgen verify:", err)
			return exitFailed
		}
	}
	return code
}

// fileRun is what verifying one spec file gave.
type fileRun struct {
	file    *spec.File
	results []layers.Result
	err     error
}

// runFiles verifies the files, one after the other, printing progress to
// w as it comes. When SPIN is the only layer the files run on every P
// (SPIN's searches are single-threaded processes, and unlike the Go
// layers they measure nothing that sharing the machine would disturb):
// each file's progress is held back and printed whole, in file order, so
// the output reads as a sequential run's.
func runFiles(ctx context.Context, files []*spec.File, o layers.Options, judge layers.Judge, w io.Writer) []fileRun {
	workers := 1
	if len(o.Layers) == 1 && o.Layers[layers.SPIN] {
		workers = min(runtime.GOMAXPROCS(0), len(files)) // one file: its progress as it comes
	}
	runs := make([]fileRun, len(files))
	if workers == 1 {
		o.Say = func(s string) { fmt.Fprintln(w, s) }
		o.Done = func(r layers.Result) { printResult(w, judge, r) }
		for i, f := range files {
			runs[i] = fileRun{file: f}
			runs[i].results, runs[i].err = layers.Run(ctx, f, o)
			if runs[i].err != nil || ctx.Err() != nil {
				return runs[:i+1]
			}
		}
		return runs
	}
	outs := make([]bytes.Buffer, len(files))
	done := make([]chan struct{}, len(files))
	next := make(chan int)
	for i := range files {
		done[i] = make(chan struct{})
	}
	// runFiles returns only once every worker has stopped, so that each
	// has removed its scratch package and SPIN's files before the process
	// exits; returning early (interrupted, or a file that could not be
	// verified) stops those still running.
	var workersDone sync.WaitGroup
	defer workersDone.Wait()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	for range workers {
		workersDone.Go(func() {
			for i := range next {
				fo := o
				fo.Say = func(s string) { fmt.Fprintln(&outs[i], s) }
				fo.Done = func(r layers.Result) { printResult(&outs[i], judge, r) }
				runs[i] = fileRun{file: files[i]}
				runs[i].results, runs[i].err = layers.Run(ctx, files[i], fo)
				close(done[i])
			}
		})
	}
	go func() {
		defer close(next)
		for i := range files {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := range files {
		select {
		case <-done[i]:
		case <-ctx.Done():
			// The workers still write runs[i:]: hand back a copy.
			return append(slices.Clone(runs[:i]), fileRun{file: files[i], err: ctx.Err()})
		}
		w.Write(outs[i].Bytes())
		if runs[i].err != nil {
			return slices.Clone(runs[:i+1])
		}
	}
	return runs
}

// printResult is a layer's progress line, with what it found.
func printResult(w io.Writer, judge layers.Judge, r layers.Result) {
	verdict, failure := judge.Shown(r), r.Failure
	if verdict == layers.Rejected {
		// A negative control that failed did what it must: show the
		// first line of what was found, not the whole trace.
		failure, _, _ = strings.Cut(failure, "\n")
	}
	hanging(w, fmt.Sprintf("%-18s %-8s %-10s %6.1fs  ", r.Lock, r.Layer, verdict, r.Elapsed.Seconds()), r.Detail)
	if failure != "" {
		fmt.Fprintln(w, layers.Indent(failure, "    "))
	}
}

// plural says "1 run" or "3 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// summarize prints the table and returns the exit code: 1 if a lock
// failed, else 3 if one is unfinished (0 with allowIncomplete), else 0.
func summarize(w io.Writer, results []layers.Result, judge layers.Judge, elapsed time.Duration, allowIncomplete bool) int {
	var rows [][]string
	for _, r := range results {
		rows = append(rows, []string{r.Lock, r.Layer, judge.Shown(r), fmt.Sprintf("%.1fs", r.Elapsed.Seconds()), r.Detail})
	}
	table(w, termWidth, []string{"LOCK", "LAYER", "VERDICT", "TIME", "DETAIL"}, rows)
	fmt.Fprintln(w)
	locks := layers.Locks(results)
	failed, unfinished := 0, 0
	for _, lock := range locks {
		verdict, status := judge.Outcome(results, lock)
		switch status {
		case layers.Failed:
			failed++
		case layers.Unfinished:
			unfinished++
		}
		fmt.Fprintf(w, "%s: %s\n", lock, verdict)
	}
	fmt.Fprintf(w, "\n%s, %s, %s\n", plural(len(locks), "lock"), plural(len(results), "layer run"), elapsed.Round(time.Second))
	switch {
	case failed > 0:
		return exitFailed
	case unfinished > 0 && allowIncomplete:
		fmt.Fprintf(w, "%s without a verdict, accepted by -allow-incomplete\n", plural(unfinished, "lock"))
	case unfinished > 0:
		fmt.Fprintf(w, "%s without a verdict: exit status %d (incomplete)\n", plural(unfinished, "lock"), exitIncomplete)
		return exitIncomplete
	}
	return exitOK
}

// commandLine renders a command with the flags that were set (a true
// boolean flag as its bare name), for a report that says how it was made.
func commandLine(fs *flag.FlagSet) string {
	parts := []string{fs.Name()}
	fs.Visit(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && f.Value.String() == "true" {
			parts = append(parts, "-"+f.Name)
			return
		}
		parts = append(parts, "-"+f.Name+" "+f.Value.String())
	})
	return strings.Join(parts, " ")
}
