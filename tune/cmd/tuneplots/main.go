// Command tuneplots draws the plots of a lockgen tune report: for each
// benchmark, every candidate's time per operation round by round, as a
// PNG file. lockgen tune -report runs it, built in the user's module on a
// temporary copy of its go.mod, so that the plotting library never enters
// the go.mod of a module that only generates locks.
//
//	tuneplots -report REPORT.json -dir DIR -rel REL
//
// It reads the tune.Report in REPORT.json (an array of them for several
// locks), writes the images into DIR, and prints, as JSON on stdout, a
// map from lock to benchmark to image (REL/NAME).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/lockgen/lockgen/internal/plotpng"
	"github.com/lockgen/lockgen/tune"
)

func main() { plotpng.Main("tuneplots", "tune.Report", run) }

func run(in, dir, rel string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var reps []tune.Report
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
		err = json.Unmarshal(data, &reps)
	} else {
		reps = make([]tune.Report, 1)
		err = json.Unmarshal(data, &reps[0])
	}
	if err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out := map[string]map[string]string{}
	for _, rep := range reps {
		out[rep.Lock] = map[string]string{}
		for _, b := range rep.Benchmarks {
			name := fmt.Sprintf("%s-%s.png", slug(rep.Lock), slug(b))
			if err := roundsPlot(&rep, b, filepath.Join(dir, name)); err != nil {
				return err
			}
			out[rep.Lock][b] = strings.TrimPrefix(rel+"/"+name, "/")
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, strings.ToLower(s))
}

// roundsPlot: time per operation against the round, one line per
// candidate; the current variant and the standard lock stand out.
func roundsPlot(rep *tune.Report, bench, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, %s: time per operation, round by round", rep.Lock, bench)
	p.X.Label.Text = "round"
	p.Y.Label.Text = "ns/op"
	var ticks []plot.Tick
	for r := 1; r <= rep.Rounds; r++ {
		ticks = append(ticks, plot.Tick{Value: float64(r), Label: fmt.Sprint(r)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min = 0
	for i, c := range rep.Candidates {
		b, ok := c.Benchmarks[bench]
		if !ok {
			continue
		}
		var pts plotter.XYs
		for r, v := range b.Samples {
			if v != nil {
				pts = append(pts, plotter.XY{X: float64(r + 1), Y: *v * 1e9})
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		col := plotutil.Color(i)
		line.Color, points.Color = col, col
		line.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
		points.Shape = plotutil.Shape(i)
		label := c.Name
		switch {
		case c.Current:
			label = "current (" + c.Variant + ")"
			line.Width = vg.Points(2.5)
		case c.Standard:
			line.Width = vg.Points(2.5)
			line.Color, points.Color = color.Black, color.Black
		}
		p.Add(line, points)
		p.Legend.Add(label, line, points)
	}
	return plotpng.Save(p, file, plotSize)
}

// The image, and the legend's column to the right of the plot.
var plotSize = plotpng.Size{Width: 10 * vg.Inch, Height: 6 * vg.Inch, Legend: 3.2 * vg.Inch}
