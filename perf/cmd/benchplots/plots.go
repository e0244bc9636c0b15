package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/lockgen/lockgen/internal/plotpng"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
	"github.com/lockgen/lockgen/perf/report"
)

// drawPlots draws, for each mode and workload, throughput against
// goroutines (one line per lock) and the latency distribution at the
// largest goroutine count (quantile curves), as PNG files in dir; rel is
// dir as the report names it.
func drawPlots(rep *perf.Report, dir, rel string) ([]report.Plot, error) {
	var out []report.Plot
	x := report.NewIndex(rep)
	for _, k := range report.Modes(rep) {
		for _, wl := range rep.Config.Workloads {
			name := fmt.Sprintf("throughput-%s-%s.png", k, slug(wl.Name))
			title := fmt.Sprintf("%s, workload %s: throughput", k.Title(), wl.Name)
			if err := throughputPlot(x, rep, k, wl.Name, title, filepath.Join(dir, name)); err != nil {
				return nil, err
			}
			out = append(out, report.Plot{Title: title, File: rel + "/" + name, Mode: k, Workload: wl.Name})

			g := rep.Config.Goroutines[len(rep.Config.Goroutines)-1]
			name = fmt.Sprintf("latency-%s-%s-%d.png", k, slug(wl.Name), g)
			title = fmt.Sprintf("%s, workload %s: time to acquire at %d goroutines", k.Title(), wl.Name, g)
			drawn, err := latencyPlot(x, rep, k, wl.Name, g, title, filepath.Join(dir, name))
			if err != nil {
				return nil, err
			}
			if drawn {
				out = append(out, report.Plot{Title: title, File: rel + "/" + name, Mode: k, Workload: wl.Name})
			}
		}
	}
	return out, nil
}

func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, strings.ToLower(s))
}

// throughputPlot: passages per microsecond over all goroutines, against the
// goroutine count (log scale).
func throughputPlot(x *report.Index, rep *perf.Report, k mode.Mode, wl, title, file string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "goroutines"
	p.Y.Label.Text = "passages per µs, all goroutines (median; log scale)"
	p.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for _, g := range rep.Config.Goroutines {
		ticks = append(ticks, plot.Tick{Value: float64(g), Label: fmt.Sprint(g)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var xs, ys []float64
	for i, s := range report.Subjects(rep, k) {
		var pts plotter.XYs
		for _, g := range rep.Config.Goroutines {
			r := x.Get(s, wl, g)
			if r == nil {
				continue
			}
			med, _, _ := report.NsPerPassage(r)
			if med > 0 {
				pts = append(pts, plotter.XY{X: float64(g), Y: 1000 / med})
				xs, ys = append(xs, float64(g)), append(ys, 1000/med)
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := plotutil.Color(i)
		line.Color, points.Color = c, c
		line.Dashes = dashes(i)
		points.Shape = plotutil.Shape(i)
		if strings.HasPrefix(s, "sync.") || strings.HasPrefix(s, "semaphore.") {
			line.Width = vg.Points(2.5)
			line.Color, points.Color = color.Black, color.Black
		}
		p.Add(line, points)
		p.Legend.Add(s, line, points)
	}
	widenLog(&p.X, xs)
	widenLog(&p.Y, ys)
	return plotpng.Save(p, file, plotSize)
}

// widenLog gives a log-scale axis whose values are all one value (one
// goroutine count, or equal latencies) a range around it: gonum pads such
// an axis by ±1, which reaches 0 and panics on a log scale.
func widenLog(a *plot.Axis, vs []float64) {
	if len(vs) == 0 || slices.Min(vs) != slices.Max(vs) {
		return
	}
	a.Min, a.Max = vs[0]/2, vs[0]*2
}

// latencyPlot: the time to acquire at each percentile, one curve per lock
// (log scale). It draws nothing when no lock has a latency run.
func latencyPlot(x *report.Index, rep *perf.Report, k mode.Mode, wl string, g int, title, file string) (bool, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "percentile"
	p.Y.Label.Text = "time to acquire (ns)"
	drawn := 0
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var ys []float64
	for i, s := range report.Subjects(rep, k) {
		r := x.Get(s, wl, g)
		if r == nil || len(r.Latency.Quantiles) == 0 {
			continue
		}
		var pts plotter.XYs
		for q, d := range r.Latency.Quantiles {
			pts = append(pts, plotter.XY{X: float64(q), Y: max(float64(d.Nanoseconds()), 1)})
			ys = append(ys, pts[len(pts)-1].Y)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return false, err
		}
		drawn++
		line.Color = plotutil.Color(i)
		line.Dashes = dashes(i)
		if strings.HasPrefix(s, "sync.") || strings.HasPrefix(s, "semaphore.") {
			line.Width = vg.Points(2.5)
			line.Color = color.Black
		}
		p.Add(line)
		p.Legend.Add(s, line)
	}
	if drawn == 0 {
		return false, nil
	}
	widenLog(&p.Y, ys)
	return true, plotpng.Save(p, file, plotSize)
}

// dashes tells apart the locks that share a colour: plotutil has 7
// colours and a report up to 40 locks.
func dashes(i int) []vg.Length { return plotutil.Dashes(i / len(plotutil.DefaultColors)) }

// The image, and the legend's column to the right of the plot: inside the
// plot, 30 entries would cover the lines.
var plotSize = plotpng.Size{Width: 12 * vg.Inch, Height: 7 * vg.Inch, Legend: 2.4 * vg.Inch}
