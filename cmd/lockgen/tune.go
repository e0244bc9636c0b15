package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/tune"
)

// tuneUsage is the tune verb's synopsis.
const tuneUsage = "[-lock NAME] [-bench REGEXP] [-pkg PATTERNS] [-benchtime D] [-rounds N] [-candidates LIST] [-max-candidates N] [-budget D] [-objective OBJ] [-stress D] [-o DIR] [-write] [-json FILE] [-report FILE.md] SPEC"

// runTune measures variants of a spec's locks on the user's own
// benchmarks and recommends, or with -write writes, the best.
func runTune(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("tune", tuneUsage, stderr)
	lockName := fs.String("lock", "", "tune only the lock `NAME` (default: every lock of the spec, the budget shared)")
	bench := fs.String("bench", ".", "run the benchmarks matching `REGEXP`, as go test -bench")
	pkgs := fs.String("pkg", "", "comma-separated package `PATTERNS` whose benchmarks run (default: the lock's package)")
	benchtime := fs.String("benchtime", "500ms", "go test -benchtime of each benchmark in each round (`D` or Nx)")
	rounds := fs.Int("rounds", 10, "at most this many rounds, each running every candidate's benchmarks once")
	budget := fs.Duration("budget", 3*time.Minute, "the time the whole tune may take, builds and the winner's tests included")
	objective := fs.String("objective", "geomean", "what to minimise, `OBJ`: geomean (every benchmark's time alike) or NAME=WEIGHT,... (weighted; others weigh nothing)")
	candidates := fs.String("candidates", "", "a comma-separated `LIST` of candidates besides the current variant: ALGORITHM[:KEY=VALUE...] (preference, nodes, wait, spin, padding, the algorithm's own keys), std for the standard lock (default: the standard lock and the variants lockgen explain advises for the lock's mode and API)")
	maxCands := fs.Int("max-candidates", 8, "with the default candidates, at most this many, the current variant and the standard lock included")
	write := fs.Bool("write", false, "put the winner into the spec (comments and key order kept), with the evidence in a comment above the lock, and regenerate")
	jsonFile := fs.String("json", "", "write the measurements and verdicts as JSON to `FILE`")
	reportFile := fs.String("report", "", "write a Markdown report to `FILE`")
	outDir := fs.String("o", "", "the spec's package is generated into `DIR`, as with lockgen generate -o")
	stress := fs.Duration("stress", 0, "the winner's stress test runs this long (default: its tests' own, LOCKGEN_STRESS)")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "lockgen tune: give exactly one spec")
		fs.Usage()
		return exitUsage
	}
	obj, err := tune.ParseObjective(*objective)
	if err != nil {
		fmt.Fprintln(stderr, "lockgen tune:", err)
		return exitUsage
	}
	if *rounds < 1 || *budget <= 0 || *maxCands < 2 {
		fmt.Fprintln(stderr, "lockgen tune: -rounds must be at least 1, -budget positive, -max-candidates at least 2")
		return exitUsage
	}
	opts := tune.Options{Bench: *bench, Benchtime: *benchtime, MaxRounds: *rounds, MinRounds: min(6, *rounds),
		Budget: *budget, Objective: obj, OutDir: *outDir, Stress: *stress, Progress: stderr}
	if *pkgs != "" {
		opts.Packages = strings.Split(*pkgs, ",")
	}
	path := fs.Arg(0)
	f, _, code := readSpec(path, stderr)
	if f == nil {
		return code
	}
	var names []string
	for _, l := range f.Locks {
		if *lockName == "" || l.Name == *lockName {
			names = append(names, l.Name)
		}
	}
	if len(names) == 0 {
		var all []string
		for _, l := range f.Locks {
			all = append(all, l.Name)
		}
		fmt.Fprintf(stderr, "lockgen tune: %s has no lock %q (it has %s)\n", path, *lockName, strings.Join(all, ", "))
		return exitUsage
	}
	opts.Budget = *budget / time.Duration(len(names))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // a second interrupt kills at once
	var reports []*tune.Report
	var diffs [][]string // the spec lines to change, by report
	for _, name := range names {
		// Read again: a -write of the lock before changed the spec.
		f, src, code := readSpec(path, stderr)
		if f == nil {
			return code
		}
		i := lockIndex(f, name)
		t, err := tune.NewTarget(f, src, i)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitUsage
		}
		var cands []*tune.Candidate
		if *candidates == "" {
			cands = t.Defaults(*maxCands)
		} else if cands, err = t.Parse(*candidates); err != nil {
			fmt.Fprintf(stderr, "%s: lockgen tune: %v\n", f.Locks[i].Pos, err)
			return exitUsage
		}
		res, err := tune.Run(ctx, t, cands, opts)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "lockgen tune: interrupted before anything was measured; nothing written")
				return exitFailed
			}
			fmt.Fprintf(stderr, "lockgen tune: %s %s: %v\n", path, name, err)
			return exitFailed
		}
		printTune(stdout, res)
		rep := res.Report()
		reports = append(reports, rep)
		if res.Interrupted {
			fmt.Fprintln(stdout, "\nInterrupted: the figures above are those measured; nothing written, the spec and its package unchanged.")
			return exitFailed
		}
		diff, code := recommend(stdout, stderr, res, *write)
		if code != exitOK {
			return code
		}
		diffs = append(diffs, diff)
	}
	command := "lockgen tune " + strings.Join(args, " ")
	if *jsonFile != "" {
		if err := writeReportsJSON(*jsonFile, reports); err != nil {
			fmt.Fprintln(stderr, "lockgen tune:", err)
			return exitFailed
		}
	}
	if *reportFile != "" {
		if err := writeTuneReport(ctx, filepath.Dir(path), *reportFile, reports, diffs, command); err != nil {
			fmt.Fprintln(stderr, "lockgen tune:", err)
			return exitFailed
		}
	}
	return exitOK
}

// tunePlotsCommand draws a tune report's plots, built as plotsCommand is.
const tunePlotsCommand = "github.com/lockgen/lockgen/tune/cmd/tuneplots"

// writeTuneReport writes the Markdown report and its plots, in a
// directory named after the report (tune.md: tune/), drawn by
// tunePlotsCommand built in the module holding moduleDir.
func writeTuneReport(ctx context.Context, moduleDir, path string, reports []*tune.Report, diffs [][]string, command string) error {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	dir, err := filepath.Abs(filepath.Join(filepath.Dir(path), base))
	if err != nil {
		return err
	}
	var plots map[string]map[string]string // by lock, by benchmark
	if err := runPlots(ctx, moduleDir, tunePlotsCommand, reports, dir, base, &plots); err != nil {
		return err
	}
	var b strings.Builder
	for i, rep := range reports {
		rep.Markdown(&b, command, plots[rep.Lock], diffs[i])
	}
	return writeFileAtomic(path, []byte(b.String()))
}

// readSpec reads and parses a spec, reporting problems as the other verbs
// do.
func readSpec(path string, stderr io.Writer) (*spec.File, []byte, int) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, "lockgen:", err)
		return nil, nil, exitUsage
	}
	f, err := spec.Parse(path, src)
	if err != nil {
		return nil, nil, reportSpecErrors(err, stderr)
	}
	return f, src, exitOK
}

func lockIndex(f *spec.File, name string) int {
	for i, l := range f.Locks {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// writeReportsJSON writes one report, or an array of them for several
// locks.
func writeReportsJSON(path string, reports []*tune.Report) error {
	var data []byte
	var err error
	if len(reports) == 1 {
		data, err = reports[0].JSON()
	} else {
		var parts []string
		for _, r := range reports {
			d, err := r.JSON()
			if err != nil {
				return err
			}
			parts = append(parts, string(d))
		}
		data = []byte("[\n" + strings.Join(parts, ",\n") + "\n]")
	}
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// printTune writes the terminal table: a block per benchmark (benchstat's
// columns), the objective, and what was dropped.
func printTune(w io.Writer, res *tune.Result) {
	t := res.Target
	fmt.Fprintln(w)
	hanging(w, "", fmt.Sprintf("%s %s: %d rounds of go test -bench %s -benchtime %s in %s, %s of %s; times are medians ± their %.0f%% interval, changes against the current variant (p from a Mann-Whitney U test, ~ where it cannot tell them apart).",
		t.Path, t.Lock.Name, res.Rounds, res.Opts.Bench, res.Opts.Benchtime, strings.Join(res.Packages, ", "),
		res.Elapsed.Round(time.Second), res.Opts.Budget, 100*tune.Confidence))
	for _, b := range res.Benchmarks {
		fmt.Fprintln(w)
		var all []float64
		for _, o := range res.Outcomes {
			if c := o.Cells[b]; c != nil {
				all = append(all, c.Center)
			}
		}
		var rows [][]string
		for _, o := range res.Outcomes {
			c := o.Cells[b]
			if c == nil {
				continue
			}
			vs := ""
			if !o.Candidate.Current {
				vs = fmt.Sprintf("%s (%s)", c.Delta, c.Test)
			}
			rows = append(rows, []string{"  " + o.Candidate.Label(t), tune.Time(c.Center, all) + " " + c.Range, vs})
		}
		table(w, termWidth, []string{b, "sec/op", "vs current"}, rows)
	}
	fmt.Fprintln(w)
	hanging(w, "", "Objective: the "+res.Opts.Objective.String()+", as a ratio to the current variant's round by round (median [interval]); a candidate wins only where the whole interval lies below 1.")
	fmt.Fprintln(w)
	var rows [][]string
	for _, o := range res.Outcomes[1:] {
		ratio := "—"
		if o.Ratio != nil {
			ratio = o.Ratio.String()
		}
		rows = append(rows, []string{"  " + o.Candidate.Label(t), ratio, string(o.Status)})
	}
	table(w, termWidth, []string{"candidate", "ratio", "status"}, rows)
	var late []string
	for _, o := range res.Outcomes {
		if o.Status == tune.NotInTime {
			late = append(late, o.Candidate.Label(t))
		}
		if o.Reason == "" || o.Status == tune.Measured || o.Status == tune.NotInTime {
			continue
		}
		first, _, _ := strings.Cut(o.Reason, "\n")
		hanging(w, "  ", fmt.Sprintf("%s, %s: %s", o.Candidate.Label(t), o.Status, first))
	}
	fmt.Fprintln(w)
	if len(late) == 0 {
		hanging(w, "", fmt.Sprintf("Not measured in time: none (budget %s).", res.Opts.Budget))
	} else {
		hanging(w, "", fmt.Sprintf("Not measured in time (budget %s: each candidate needs %d rounds): %s.", res.Opts.Budget, res.Opts.MinRounds, strings.Join(late, ", ")))
	}
}

// recommend says what to do with the result and, with -write, does it;
// it returns the spec lines to change, if any.
func recommend(stdout, stderr io.Writer, res *tune.Result, write bool) ([]string, int) {
	t := res.Target
	fmt.Fprintln(stdout)
	if res.Winner == nil {
		hanging(stdout, "", fmt.Sprintf("Keep the current variant (%s): no candidate beats it beyond the rounds' spread.", t.NameOf(t.Lock)))
		return nil, exitOK
	}
	w := res.Winner
	hanging(stdout, "", fmt.Sprintf("Recommended: %s, %s the current variant's time; its tests passed under -race (%s).",
		w.Candidate.Name, w.Ratio, strings.Join(res.Tests, ", ")))
	diff, err := res.SpecDiff()
	var std tune.ErrStandardWins
	if errors.As(err, &std) {
		msg := std.Error()
		hanging(stdout, "", strings.ToUpper(msg[:1])+msg[1:]+".")
		return nil, exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "lockgen tune:", err)
		return nil, exitFailed
	}
	if !write {
		hanging(stdout, "", fmt.Sprintf("The spec lines to change (or run again with -write), %s:", t.Path))
		for _, d := range diff {
			fmt.Fprintln(stdout, "  "+d)
		}
		return diff, exitOK
	}
	rep, err := res.Write()
	if err != nil {
		fmt.Fprintln(stderr, "lockgen tune: -write:", err)
		return nil, exitFailed
	}
	hanging(stdout, "", fmt.Sprintf("Wrote %s (the evidence in a comment above %s) and regenerated: %d files written, %d removed.",
		t.Path, t.Lock.Name, len(rep.Written), len(rep.Removed)))
	return diff, exitOK
}
