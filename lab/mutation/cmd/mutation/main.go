// Command mutation measures lockgen's verifier: it runs every mutant of the
// catalogue's algorithms through stress, the controlled scheduler and SPIN,
// and writes the report.
//
//	go run ./lab/mutation/cmd/mutation -o docs/mutation.md
//	go run ./lab/mutation/cmd/mutation -alg mcs,ticket -o /tmp/m.md
//	go run ./lab/mutation/cmd/mutation -alg mcs -only 'Release/.*@14'
//	go run ./lab/mutation/cmd/mutation -o docs/mutation.md -save /tmp/run.json
//	go run ./lab/mutation/cmd/mutation -render /tmp/run.json -o docs/mutation.md
//
// -render writes the report of a saved run again, with the survivors
// classified by the current lab/mutation/equivalent.go, without running
// anything (the header still names the run's command and date). -merge
// runs some algorithms again after a change to their definitions and puts
// their units into a whole saved run, instead of running the catalogue
// again (the header names both runs):
//
//	go run ./lab/mutation/cmd/mutation -alg mcs -merge /tmp/run.json -save /tmp/run.json -o docs/mutation.md
//
// Progress goes to stderr, a line per algorithm and layer; the summary
// table is printed there at the end. The named negative controls
// (mutate.Controls) are run and reported too (-controls=false
// skips them). The exit status is 1 when a survivor is unclassified
// (neither recorded as equivalent nor as a gap in
// lab/mutation/equivalent.go), a control is not caught as recorded, or
// the runner itself failed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/lab/mutation"
	"github.com/lockgen/lockgen/lab/spin"
)

func main() {
	def := mutation.DefaultConfig()
	out := flag.String("o", "", "write the Markdown report here (default: stdout)")
	jsonOut := flag.String("json", "", "also write every mutant's verdicts here, as JSON")
	algs := flag.String("alg", "", "algorithms to mutate, comma-separated (name or name[variant]); default: every entry that is not a negative control")
	only := flag.String("only", "", "keep only mutants whose ID matches this regular expression")
	layers := flag.String("layers", "stress,explore,spin,explore-deep,spin-hunt", "layers to run (explore-deep and spin-hunt: survivors only)")
	jobs := flag.Int("jobs", def.Jobs, "jobs at once (test processes, SPIN runs, builds)")
	passages := flag.Int("stress-passages", def.Stress.Passages, "stress: passages per goroutine")
	stall := flag.Duration("stress-stall", def.Stress.Stall, "stress: watchdog")
	stimeout := flag.Duration("stress-timeout", def.Stress.Timeout, "stress: whole run")
	budget := flag.Duration("explore-budget", def.Explore.Budget, "explore: budget per mutant")
	deepBudget := flag.Duration("deep-budget", def.Deep.Budget, "explore-deep: budget per survivor (0: off)")
	huntTimeout := flag.Duration("hunt-timeout", def.Hunt.Timeout, "spin-hunt: time per bit-state search of a k-exclusion survivor (0: off)")
	exOpts := flag.String("explore-opts", "", "explore: extra verify.ExploreOption expressions, ';'-separated (e.g. 'verify.ExplorePassages(3)')")
	spinTimeout := flag.Duration("spin-timeout", def.Spin.Timeout, "spin: time per run at n = 2")
	spinLarger := flag.Duration("spin-timeout-larger", def.Spin.LargerTimeout, "spin: time per run at larger n")
	spinMem := flag.Int("spin-mem", def.Spin.MemLimitMB, "spin: memory per run, MB")
	spinPassages := flag.Int("spin-passages", 0, "spin: bound every process's passages in every model (0: processes loop for ever where the model allows)")
	spinCollapse := flag.Bool("spin-collapse", false, "spin: compress stored states (pan -DCOLLAPSE), for large targeted runs")
	spinDepth := flag.Int("spin-depth", 0, "spin: search depth bound (pan -m; 0: 1,000,000, retried once with ten times more), for large targeted runs")
	spinFold := flag.Bool("spin-fold", false, "spin: fold local work into the neighbouring step (usually fewer states, same verdicts), for large targeted runs")
	spinBitstate := flag.Bool("spin-bitstate", false, "spin: hunt for counterexamples with a bit array of 2^spin-hash bits (pan -DBITSTATE) where the state space is too large: kills are real, a run without one is incomplete")
	spinHash := flag.Int("spin-hash", 0, "spin: hash table size as a power of two (pan -w; 0: the default), for large targeted runs; also compiles pan with -O2")
	spinProps := flag.String("spin-props", "", "spin: only these of the entry's properties, comma-separated (e.g. bounded-waiting)")
	spinSizes := flag.String("spin-sizes", "", "spin: numbers of processes, comma-separated, tried in order while a mutant survives (default 2,3; 3,4 for k-exclusion)")
	controls := flag.Bool("controls", true, "also run the named negative controls and report them")
	save := flag.String("save", "", "also save the whole run here, as JSON, for -render")
	render := flag.String("render", "", "render the run saved in this file (by -save) instead of running")
	merge := flag.String("merge", "", "merge this run's units into the whole run saved in this file (by -save), replacing those of the same name, and report the result")
	flag.Parse()
	if *render != "" {
		os.Exit(renderSaved(*render, *out))
	}

	cfg := def
	cfg.Jobs = *jobs
	cfg.Stress.Passages, cfg.Stress.Stall, cfg.Stress.Timeout = *passages, *stall, *stimeout
	cfg.Explore.Budget = *budget
	cfg.Deep.Budget = *deepBudget
	cfg.Hunt.Timeout = *huntTimeout
	if *exOpts != "" {
		cfg.Explore.Options = strings.Split(*exOpts, ";")
	}
	cfg.Spin.Timeout, cfg.Spin.LargerTimeout, cfg.Spin.MemLimitMB = *spinTimeout, *spinLarger, *spinMem
	cfg.Spin.Passages, cfg.Spin.Collapse, cfg.Spin.HashBits, cfg.Spin.Fold = *spinPassages, *spinCollapse, *spinHash, *spinFold
	cfg.Spin.MaxDepth, cfg.Spin.Bitstate = *spinDepth, *spinBitstate
	if *spinSizes != "" {
		for _, f := range strings.Split(*spinSizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				fmt.Fprintf(os.Stderr, "mutation: -spin-sizes: %q is not a number of processes\n", f)
				os.Exit(2)
			}
			cfg.Spin.Sizes = append(cfg.Spin.Sizes, n)
		}
	}
	if *spinProps != "" {
		for _, f := range strings.Split(*spinProps, ",") {
			p := spin.Property(strings.TrimSpace(f))
			if !slices.Contains(spin.Properties, p) {
				fmt.Fprintf(os.Stderr, "mutation: -spin-props: unknown property %q (want one of %v)\n", f, spin.Properties)
				os.Exit(2)
			}
			cfg.Spin.Properties = append(cfg.Spin.Properties, p)
		}
	}
	if *algs != "" {
		cfg.Algorithms = strings.Split(*algs, ",")
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutation: -only:", err)
			os.Exit(2)
		}
		cfg.Only = re
	}
	cfg.Layers = nil
	for _, l := range strings.Split(*layers, ",") {
		cfg.Layers = append(cfg.Layers, mutation.Layer(strings.TrimSpace(l)))
	}
	start := time.Now()
	cfg.Log = func(s string) {
		fmt.Fprintf(os.Stderr, "[%6s] %s\n", time.Since(start).Round(time.Second), s)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := mutation.Run(ctx, cfg)
	if err != nil && rep == nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(2)
	}
	controlsFailed := false
	if *controls && err == nil {
		cfg.Log("running the named negative controls")
		rep.Controls, err = mutation.RunControls(ctx, cfg.Module)
		for _, c := range rep.Controls {
			if !c.Caught() {
				controlsFailed = true
				cfg.Log(fmt.Sprintf("control %s NOT caught as recorded: %s", c.Control.Name, strings.Join(c.Problems, "; ")))
			}
		}
	}
	rep.Command = strings.TrimSpace("go run ./lab/mutation/cmd/mutation " + strings.Join(os.Args[1:], " "))
	if *merge != "" {
		base, merr := loadSaved(*merge)
		if merr == nil {
			merr = base.Merge(rep)
		}
		if merr != nil {
			fmt.Fprintln(os.Stderr, "mutation:", merr)
			if *save != "" {
				// Keep the run that could not be merged: it may have taken hours.
				if serr := writeJSON(*save, rep); serr == nil {
					fmt.Fprintf(os.Stderr, "mutation: this run, not merged, is saved in %s\n", *save)
				}
			}
			os.Exit(2)
		}
		rep = base
	}
	if *save != "" {
		if serr := writeJSON(*save, rep); serr != nil {
			fmt.Fprintln(os.Stderr, "mutation:", serr)
			os.Exit(2)
		}
	}
	if werr := writeReport(rep, *out); werr != nil {
		fmt.Fprintln(os.Stderr, "mutation:", werr)
		os.Exit(2)
	}
	if *jsonOut != "" {
		if jerr := writeJSON(*jsonOut, rep.Verdicts()); jerr != nil {
			fmt.Fprintln(os.Stderr, "mutation:", jerr)
			os.Exit(2)
		}
	}
	fmt.Fprint(os.Stderr, rep.SummaryTable())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(1)
	}
	if rep.Unclassified() > 0 || rep.RunnerErrors() > 0 || controlsFailed {
		os.Exit(1)
	}
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// writeReport writes the Markdown report to path, or to stdout for "".
func writeReport(rep *mutation.Report, path string) error {
	md := rep.Markdown()
	if path == "" {
		_, err := fmt.Print(md)
		return err
	}
	return os.WriteFile(path, []byte(md), 0o644)
}

// loadSaved reads a run saved by -save.
func loadSaved(path string) (*mutation.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return mutation.LoadReport(data)
}

// renderSaved writes the report of a saved run; it returns the exit status.
func renderSaved(path, out string) int {
	rep, err := loadSaved(path)
	if err == nil {
		err = writeReport(rep, out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		return 2
	}
	fmt.Fprint(os.Stderr, rep.SummaryTable())
	if rep.Unclassified() > 0 {
		return 1
	}
	return 0
}
