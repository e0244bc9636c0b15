package tune

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of every interval tune reports, benchstat's.
const Confidence = 0.95

// Objective weights the benchmarks: a candidate's score in a round is the
// weighted geometric mean of its time per operation over the current
// variant's in the same round.
type Objective struct {
	// Weights by benchmark name (without "Benchmark"); nil weighs every
	// benchmark alike.
	Weights map[string]float64
}

// ParseObjective reads -objective: "geomean" (every benchmark alike), or
// NAME=WEIGHT pairs separated by commas (a benchmark not named weighs
// nothing).
func ParseObjective(s string) (Objective, error) {
	if s == "" || s == "geomean" {
		return Objective{}, nil
	}
	w := map[string]float64{}
	for _, f := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			val = "1"
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return Objective{}, fmt.Errorf("-objective %q: %q is not NAME=WEIGHT with a weight >= 0", s, f)
		}
		w[strings.TrimPrefix(name, "Benchmark")] = x
	}
	return Objective{Weights: w}, nil
}

func (o Objective) weight(bench string) float64 {
	if o.Weights == nil {
		return 1
	}
	return o.Weights[bench]
}

// String says what the objective is, for the reports.
func (o Objective) String() string {
	if o.Weights == nil {
		return "geometric mean of the time per operation over every benchmark"
	}
	var parts []string
	for _, n := range sortedKeys(o.Weights) {
		parts = append(parts, fmt.Sprintf("%s×%g", n, o.Weights[n]))
	}
	return "weighted geometric mean of the time per operation: " + strings.Join(parts, ", ")
}

// check reports weights on benchmarks that do not exist.
func (o Objective) check(benchmarks []string) error {
	for n := range o.Weights {
		found := false
		for _, b := range benchmarks {
			found = found || b == n
		}
		if !found {
			return fmt.Errorf("-objective names %s, which is not among the benchmarks run (%s)", n, strings.Join(benchmarks, ", "))
		}
	}
	return nil
}

// Cell is one candidate on one benchmark: benchmath's summary of its
// time per operation over the rounds, and its comparison with the current
// variant's (a Mann-Whitney U test), as benchstat prints them.
type Cell struct {
	N int
	// Seconds per operation: the median and its confidence interval.
	Center float64
	Lo     float64
	Hi     float64
	Range  string // "± 2%"
	// Delta to the current variant: "-12.34%", or "~" where the test does
	// not tell them apart; "" for the current variant itself.
	Delta    string
	P        float64
	Test     string // "p=0.000 n=10"
	Warnings []string
}

// Ratio is the objective: a candidate's time over the current variant's,
// round by round, summarised by its median and that median's confidence
// interval (benchmath's distribution-free summary).
type Ratio struct {
	Center float64
	Lo     float64
	Hi     float64
	N      int
	// Warnings: too few rounds for a finite interval, for instance.
	Warnings []string
}

// Beats reports whether the whole interval lies below 1: the candidate
// is faster than the current variant beyond the rounds' spread.
func (r *Ratio) Beats() bool { return r != nil && !math.IsInf(r.Hi, 0) && r.Hi < 1 }

// String renders the ratio as "0.74× [0.71, 0.77]".
func (r *Ratio) String() string {
	if r == nil {
		return ""
	}
	bound := func(x float64) string {
		if math.IsInf(x, 0) {
			return "∞"
		}
		return fmt.Sprintf("%.2f", x)
	}
	if math.IsInf(r.Lo, 0) && math.IsInf(r.Hi, 0) {
		return fmt.Sprintf("%.2f× (%d round%s: no interval)", r.Center, r.N, map[bool]string{true: "s"}[r.N != 1])
	}
	return fmt.Sprintf("%.2f× [%s, %s]", r.Center, bound(r.Lo), bound(r.Hi))
}

// analyse summarises every measured candidate against the current one
// (outcomes[0]).
func analyse(outcomes []*Outcome, benchmarks []string, obj Objective) {
	cur := outcomes[0]
	curSamples := map[string]*benchmath.Sample{}
	for _, b := range benchmarks {
		curSamples[b] = benchmath.NewSample(cur.values(b), &benchmath.DefaultThresholds)
	}
	for _, o := range outcomes {
		o.Cells = map[string]*Cell{}
		o.Ratio = nil
		for _, b := range benchmarks {
			vals := o.values(b)
			if len(vals) == 0 {
				continue
			}
			s := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
			sum := benchmath.AssumeNothing.Summary(s, Confidence)
			c := &Cell{N: len(vals), Center: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Range: "± " + sum.PctRangeString()}
			c.Warnings = append(c.Warnings, errStrings(sum.Warnings)...)
			if o != cur && len(curSamples[b].Values) > 0 {
				cmp := benchmath.AssumeNothing.Compare(curSamples[b], s)
				curSum := benchmath.AssumeNothing.Summary(curSamples[b], Confidence)
				c.Delta, c.P, c.Test = cmp.FormatDelta(curSum.Center, sum.Center), cmp.P, cmp.String()
				c.Warnings = append(c.Warnings, errStrings(cmp.Warnings)...)
			}
			o.Cells[b] = c
		}
		if o != cur {
			o.Ratio = ratio(cur, o, benchmarks, obj)
		}
	}
}

// ratio is the objective of o against cur over the rounds both ran.
func ratio(cur, o *Outcome, benchmarks []string, obj Objective) *Ratio {
	var rs []float64
	for r := range min(len(cur.Samples), len(o.Samples)) {
		a, b := cur.Samples[r], o.Samples[r]
		if a == nil || b == nil {
			continue
		}
		sum, wsum, complete := 0.0, 0.0, true
		for _, name := range benchmarks {
			w := obj.weight(name)
			if w == 0 {
				continue
			}
			x, okA := a[name]
			y, okB := b[name]
			if !okA || !okB || x <= 0 || y <= 0 {
				complete = false
				break
			}
			sum += w * math.Log(y/x)
			wsum += w
		}
		if complete && wsum > 0 {
			rs = append(rs, math.Exp(sum/wsum))
		}
	}
	if len(rs) == 0 {
		return nil
	}
	s := benchmath.NewSample(rs, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, Confidence)
	return &Ratio{Center: sum.Center, Lo: sum.Lo, Hi: sum.Hi, N: len(rs), Warnings: errStrings(sum.Warnings)}
}

// ranked lists the candidates still measured (or measured to the end)
// that beat the current variant, best first.
func ranked(outcomes []*Outcome) []*Outcome {
	var win []*Outcome
	for _, o := range outcomes[1:] {
		if (o.Status == "" || o.Status == Measured) && o.Ratio.Beats() {
			win = append(win, o)
		}
	}
	sort.SliceStable(win, func(i, j int) bool { return win[i].Ratio.Center < win[j].Ratio.Center })
	return win
}

func errStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
