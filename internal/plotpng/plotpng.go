// Package plotpng writes a gonum plot as a PNG image with its legend in
// a column beside the data rather than on it: the plot commands (bench's
// and tune's) draw up to 40 lines, whose legend would cover them. Only
// those commands import it, never cmd/lockgen: gonum stays out of the
// tool's dependencies.
package plotpng

import (
	"flag"
	"fmt"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Size is an image's size and the width of its legend's column.
type Size struct {
	Width, Height, Legend vg.Length
}

// Save writes p to file as a PNG of the given size, its legend to the
// right of the data.
func Save(p *plot.Plot, file string, size Size) error {
	img := vgimg.New(size.Width, size.Height)
	dc := draw.New(img)
	leg := p.Legend
	p.Legend = plot.NewLegend() // empty: Draw draws none on the data
	p.Draw(draw.Crop(dc, 0, -size.Legend, 0, 0))
	leg.Top, leg.Left = true, true
	leg.Draw(draw.Crop(dc, size.Width-size.Legend+vg.Points(6), 0, 0, -vg.Points(6)))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Main is the plot commands' main: -report names the JSON report it
// reads, -dir the directory the images go to and -rel that directory as
// the Markdown report names it; run draws them. A usage error exits 2, a
// failure 1 with the command's name.
func Main(name, report string, run func(in, dir, rel string) error) {
	in := flag.String("report", "", "the "+report+", as JSON")
	dir := flag.String("dir", "", "the directory the images go to")
	rel := flag.String("rel", "", "the directory as the Markdown report names it")
	flag.Parse()
	if *in == "" || *dir == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*in, *dir, *rel); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}
