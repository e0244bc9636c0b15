package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockgen/lockgen/tune"
)

// TestPlots draws a report's plots: one PNG per benchmark, named in the
// JSON printed, a round a candidate did not run left out.
func TestPlots(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	rep := tune.Report{Lock: "RW", Rounds: 3, Benchmarks: []string{"Get", "Set/big"}, Candidates: []tune.CandidateReport{
		{Name: "current", Variant: "mcs-rw", Current: true, Benchmarks: map[string]tune.BenchReport{
			"Get": {Samples: []*float64{v(10e-9), v(11e-9), v(10.5e-9)}}, "Set/big": {Samples: []*float64{v(20e-9), v(21e-9), v(19e-9)}}}},
		{Name: "sync.RWMutex", Standard: true, Benchmarks: map[string]tune.BenchReport{
			"Get": {Samples: []*float64{v(8e-9), nil, v(8.5e-9)}}}},
	}}
	dir := t.TempDir()
	in := filepath.Join(dir, "tune.json")
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "tune")
	stdout := os.Stdout
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = w
	err = run(in, out, "tune")
	w.Close()
	os.Stdout = stdout
	if err != nil {
		t.Fatal(err)
	}
	var plots map[string]map[string]string
	if err := json.NewDecoder(r).Decode(&plots); err != nil {
		t.Fatal(err)
	}
	for _, b := range rep.Benchmarks {
		name := plots["RW"][b]
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v (plots %v)", b, err, plots)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
}
