package tune

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"

	"golang.org/x/perf/benchunit"
)

// Report is a tune's result as data: what -json writes, and what the
// report's plots are drawn from.
type Report struct {
	Spec        string   `json:"spec"`
	Lock        string   `json:"lock"`
	Current     string   `json:"current"` // the current variant, as a candidate name
	Date        string   `json:"date"`
	Elapsed     string   `json:"elapsed"`
	Interrupted bool     `json:"interrupted"`
	Go          string   `json:"go"`
	GOOS        string   `json:"goos"`
	GOARCH      string   `json:"goarch"`
	CPUs        int      `json:"cpus"`
	GOMAXPROCS  int      `json:"gomaxprocs"`
	Bench       string   `json:"bench"`
	Benchtime   string   `json:"benchtime"`
	Packages    []string `json:"packages"`
	Budget      string   `json:"budget"`
	Objective   string   `json:"objective"`
	Confidence  float64  `json:"confidence"`
	Rounds      int      `json:"rounds"`
	Benchmarks  []string `json:"benchmarks"`

	Candidates []CandidateReport `json:"candidates"`
	// Winner is the recommended candidate's name ("" keeps the current
	// variant); Tests are its tests that passed under -race.
	Winner string   `json:"winner"`
	Tests  []string `json:"tests,omitempty"`
}

// CandidateReport is one candidate in a Report.
type CandidateReport struct {
	Name         string                 `json:"name"`
	Variant      string                 `json:"variant"`
	Current      bool                   `json:"current,omitempty"`
	Standard     bool                   `json:"standard,omitempty"`
	Status       Status                 `json:"status"`
	Reason       string                 `json:"reason,omitempty"`
	Rounds       int                    `json:"rounds"`
	BuildSeconds float64                `json:"build_seconds"`
	Benchmarks   map[string]BenchReport `json:"benchmarks,omitempty"`
	Ratio        *RatioReport           `json:"ratio,omitempty"` // the objective against the current variant
}

// BenchReport is one candidate's figures on one benchmark: seconds per
// operation, each round's (null where it did not run) and benchmath's
// summary, and the comparison with the current variant.
type BenchReport struct {
	Samples []*float64 `json:"samples"`
	Median  float64    `json:"sec_per_op"`
	Lo      *float64   `json:"lo"` // null: too few rounds for a bound
	Hi      *float64   `json:"hi"`
	Range   string     `json:"range"`
	Delta   string     `json:"delta,omitempty"`
	P       float64    `json:"p,omitempty"`
	Test    string     `json:"test,omitempty"`
}

// RatioReport is the objective's ratio to the current variant.
type RatioReport struct {
	Center float64  `json:"center"`
	Lo     *float64 `json:"lo"`
	Hi     *float64 `json:"hi"`
	Rounds int      `json:"rounds"`
	Beats  bool     `json:"beats"`
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// Report gathers the result as data.
func (r *Result) Report() *Report {
	t := r.Target
	rep := &Report{
		Spec: t.Path, Lock: t.Lock.Name, Current: t.NameOf(t.Lock),
		Date: r.Started.UTC().Format("2006-01-02 15:04 UTC"), Elapsed: r.Elapsed.Round(time.Second).String(),
		Interrupted: r.Interrupted, Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Bench: r.Opts.Bench, Benchtime: r.Opts.Benchtime, Packages: r.Packages, Budget: r.Opts.Budget.String(),
		Objective: r.Opts.Objective.String(), Confidence: Confidence, Rounds: r.Rounds, Benchmarks: r.Benchmarks,
		Tests: r.Tests,
	}
	if r.Winner != nil {
		rep.Winner = r.Winner.Candidate.Name
	}
	for _, o := range r.Outcomes {
		c := CandidateReport{Name: o.Candidate.Name, Variant: o.Candidate.Variant(t), Current: o.Candidate.Current,
			Standard: o.Candidate.Standard, Status: o.Status, Reason: o.Reason, Rounds: o.rounds(),
			BuildSeconds: o.BuildTime.Seconds()}
		if len(o.Cells) > 0 {
			c.Benchmarks = map[string]BenchReport{}
		}
		for b, cell := range o.Cells {
			br := BenchReport{Median: cell.Center, Lo: finite(cell.Lo), Hi: finite(cell.Hi), Range: cell.Range,
				Delta: cell.Delta, P: cell.P, Test: cell.Test}
			for _, s := range o.Samples {
				if v, ok := s[b]; ok {
					br.Samples = append(br.Samples, finite(v))
				} else {
					br.Samples = append(br.Samples, nil)
				}
			}
			c.Benchmarks[b] = br
		}
		if o.Ratio != nil {
			c.Ratio = &RatioReport{Center: o.Ratio.Center, Lo: finite(o.Ratio.Lo), Hi: finite(o.Ratio.Hi), Rounds: o.Ratio.N, Beats: o.Ratio.Beats()}
		}
		rep.Candidates = append(rep.Candidates, c)
	}
	return rep
}

// JSON is the report as -json writes it.
func (rep *Report) JSON() ([]byte, error) { return json.MarshalIndent(rep, "", "  ") }

// Time formats seconds per operation as benchstat does ("83.1n"), on the
// scale of all the values given.
func Time(v float64, all []float64) string {
	return benchunit.CommonScale(all, benchunit.Decimal).Format(v)
}

// Markdown writes the report: how it was measured, a table per benchmark
// (benchstat's columns), the objective, what was dropped and why, the
// recommendation, and the plots (images relative to the report) when
// plots names them by benchmark.
func (rep *Report) Markdown(w io.Writer, command string, plots map[string]string, diff []string) {
	fmt.Fprintf(w, "# Tuning %s\n\n", rep.Lock)
	fmt.Fprintf(w, "Generated by `%s` on %s, in %s, on %s/%s, %d CPUs (GOMAXPROCS %d), %s.\n\n",
		command, rep.Date, rep.Elapsed, rep.GOOS, rep.GOARCH, rep.CPUs, rep.GOMAXPROCS, rep.Go)
	if rep.Interrupted {
		fmt.Fprintln(w, "**Interrupted**: the figures are those of the rounds completed.")
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Spec %s, lock %s, current variant `%s`. Each candidate is generated under the lock's own type name into a `go test -overlay` of package %s and its benchmarks (`-bench %s -benchtime %s`) run once per round, the candidates in a rotating order; %d rounds. Times are the median and its %.0f%% confidence interval over the rounds (benchmath, as benchstat); a change is the Mann-Whitney U test's against the current variant, `~` where it cannot tell them apart. The objective is the %s, as a ratio to the current variant's round by round; a candidate wins only where the whole interval lies below 1.\n\n",
		rep.Spec, rep.Lock, rep.Current, strings.Join(rep.Packages, ", "), rep.Bench, rep.Benchtime, rep.Rounds, 100*rep.Confidence, rep.Objective)
	for _, b := range rep.Benchmarks {
		fmt.Fprintf(w, "## %s\n\n", b)
		var all []float64
		for _, c := range rep.Candidates {
			if br, ok := c.Benchmarks[b]; ok {
				all = append(all, br.Median)
			}
		}
		fmt.Fprintln(w, "| candidate | sec/op | vs current |")
		fmt.Fprintln(w, "|---|---|---|")
		for _, c := range rep.Candidates {
			br, ok := c.Benchmarks[b]
			if !ok {
				continue
			}
			delta := ""
			if !c.Current {
				delta = fmt.Sprintf("%s (%s)", br.Delta, br.Test)
			}
			fmt.Fprintf(w, "| %s | %s %s | %s |\n", mdName(c), Time(br.Median, all), br.Range, delta)
		}
		fmt.Fprintln(w)
		if p, ok := plots[b]; ok {
			fmt.Fprintf(w, "![%s: each round's time per operation, by candidate](%s)\n\n", b, p)
		}
	}
	fmt.Fprintln(w, "## Objective")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The %s, as a ratio to the current variant's in the same round: median [%.0f%% interval] over the rounds.\n\n", rep.Objective, 100*rep.Confidence)
	fmt.Fprintln(w, "| candidate | ratio | rounds | status |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, c := range rep.Candidates {
		ratio := ""
		if c.Ratio != nil {
			ratio = fmt.Sprintf("%.2f× [%s, %s]", c.Ratio.Center, bound(c.Ratio.Lo), bound(c.Ratio.Hi))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s |\n", mdName(c), ratio, c.Rounds, c.Status)
	}
	fmt.Fprintln(w)
	for _, c := range rep.Candidates {
		if c.Reason != "" {
			fmt.Fprintf(w, "- %s, %s: %s\n", mdName(c), c.Status, mdReason(c.Reason))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Recommendation")
	fmt.Fprintln(w)
	switch {
	case rep.Interrupted:
		fmt.Fprintln(w, "None: the run was interrupted.")
	case rep.Winner == "":
		fmt.Fprintln(w, "Keep the current variant: no candidate's interval lies wholly below it.")
	default:
		fmt.Fprintf(w, "`%s`; its generated tests passed under -race: %s.\n", rep.Winner, strings.Join(rep.Tests, ", "))
		if len(diff) > 0 {
			fmt.Fprintf(w, "\nThe spec lines to change (`lockgen tune -write` does it, with this evidence in a comment above the lock):\n\n```\n%s\n```\n", strings.Join(diff, "\n"))
		}
	}
}

func bound(x *float64) string {
	if x == nil {
		return "∞"
	}
	return fmt.Sprintf("%.2f", *x)
}

func mdName(c CandidateReport) string {
	if c.Current {
		return "current (`" + c.Variant + "`)"
	}
	return "`" + c.Name + "`"
}

// mdReason keeps a reason's first line (the go command's output follows
// in the JSON).
func mdReason(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return strings.ReplaceAll(first, "|", "\\|")
}
