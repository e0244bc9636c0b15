// Command benchplots draws the plots of a lockgen bench report: throughput
// against goroutines and the latency distribution, per mode and workload,
// as PNG files. lockgen bench -report runs it, built in the user's module
// on a temporary copy of its go.mod (internal/tmpmod), so that the
// plotting library never enters the go.mod of a module that only
// generates locks.
//
//	benchplots -report REPORT.json -dir DIR -rel REL
//
// It reads the perf.Report in REPORT.json, writes the images into DIR, and
// prints the list of plots (report.Plot, files named REL/NAME) as JSON on
// stdout.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/lockgen/lockgen/internal/plotpng"
	"github.com/lockgen/lockgen/perf"
)

func main() { plotpng.Main("benchplots", "perf.Report", run) }

func run(in, dir, rel string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var rep perf.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	plots, err := drawPlots(&rep, dir, rel)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(plots)
}
