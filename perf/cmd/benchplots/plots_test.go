package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockgen/lockgen/perf"
	"github.com/lockgen/lockgen/perf/report"
)

// measured is a short real measurement of sync.Mutex (a baseline) and of
// the fair channel queue as the lock under test.
func measured(goroutines ...int) *perf.Report {
	mu, _ := perf.StdBaseline(perf.MutexBaseline)
	lock, _ := perf.StdBaseline(perf.FairBaseline)
	lock.Name, lock.Baseline = "L", false
	return perf.Measure(perf.Config{Goroutines: goroutines, Duration: 2 * time.Millisecond, Count: 1},
		[]perf.Subject{mu, lock})
}

// TestDrawsFromAReport: the command reads a report and draws, per
// workload, throughput and latency, and lists them with the report's
// relative names.
func TestDrawsFromAReport(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("LOCKGEN_PLOTS"); d != "" { // to look at them
		dir = d
	}
	in := filepath.Join(t.TempDir(), "report.json")
	data, err := json.Marshal(measured(1, 2))
	if err == nil {
		err = os.WriteFile(in, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	err = run(in, dir, "p")
	os.Stdout = stdout
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	var plots []report.Plot
	if err := json.NewDecoder(r).Decode(&plots); err != nil || len(plots) != 4 {
		t.Fatalf("plots %+v (%v), want 4", plots, err)
	}
	for _, p := range plots {
		if info, err := os.Stat(filepath.Join(dir, filepath.Base(p.File))); err != nil || info.Size() == 0 || filepath.Dir(p.File) != "p" {
			t.Errorf("%s: %v", p.File, err)
		}
	}
}

// Plots of one goroutine count, and of latencies all equal, draw: gonum
// pads a one-value axis by ±1, which reached 0 on a log scale and panicked
// (lockgen bench -goroutines 1 -report).
func TestPlotsOfOneValue(t *testing.T) {
	rep := measured(1)
	for i := range rep.Results {
		for q := range rep.Results[i].Latency.Quantiles {
			rep.Results[i].Latency.Quantiles[q] = 40 * time.Nanosecond
		}
	}
	plots, err := drawPlots(rep, t.TempDir(), "p")
	if err != nil || len(plots) != 4 {
		t.Fatalf("plots: %d, %v", len(plots), err)
	}
}
