package report

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot is one image docs/distributed.md shows.
type Plot struct {
	Title string
	File  string // relative to the document
}

// Plots draws, for each load, messages per entry and acquisition time
// against n (both on log scales), one line per curve, like the paper's figures 7–11,
// as PNG files in dir; rel is dir as the document names it.
func (s Sweep) Plots(curves []Curve, dir, rel string) ([]Plot, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []Plot
	for _, load := range s.Loads {
		for _, m := range []struct {
			name, axis string
			value      func(Point) float64
		}{
			{"messages", "messages per critical-section entry", func(p Point) float64 { return p.MessagesPerEntry }},
			{"acquisition", "mean acquisition time (message delays)", func(p Point) float64 { return p.MeanAcquire }},
		} {
			title := fmt.Sprintf("%s at %.0f%% load", m.axis, load*100)
			file := fmt.Sprintf("%s-%.0f.png", m.name, load*100)
			if err := s.plot(curves, load, title, m.axis, m.value, filepath.Join(dir, file)); err != nil {
				return nil, err
			}
			out = append(out, Plot{Title: title, File: rel + "/" + file})
		}
	}
	return out, nil
}

func (s Sweep) plot(curves []Curve, load float64, title, axis string, value func(Point) float64, file string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "processes (n)"
	p.Y.Label.Text = axis
	p.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for _, n := range s.Ns {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	// Log scale: Ricart–Agrawala's 2(n − 1) would flatten the others.
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	for i, c := range curves {
		var pts plotter.XYs
		for _, n := range s.Ns {
			pts = append(pts, plotter.XY{X: float64(n), Y: value(c.At(n, load))})
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
		points.Color = line.Color
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(c.Label(), line, points)
	}
	return p.Save(9*vg.Inch, 5.5*vg.Inch, file)
}
