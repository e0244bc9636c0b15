package driver

import (
	"testing"
	"time"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
)

// TestBaselinesNamed: every mode gets its baselines in perf.BaselineNames'
// order, each runnable, and the ones perf does not hold (xsync's RBMutex,
// x/sync's semaphore) measure like the others.
func TestBaselinesNamed(t *testing.T) {
	var all []perf.Subject
	for _, m := range mode.All {
		bs := Baselines(m, 2)
		names := perf.BaselineNames(m, 2)
		if len(bs) != len(names) {
			t.Fatalf("%s: %d baselines, %d names", m, len(bs), len(names))
		}
		for i, b := range bs {
			if b.Name != names[i] || !b.Baseline || b.New == nil || b.Run == nil {
				t.Errorf("%s: baseline %d is %+v, want %s", m, i, b, names[i])
			}
		}
		all = append(all, bs...)
	}
	rep := perf.Measure(perf.Config{Goroutines: []int{2}, Duration: 5 * time.Millisecond, Count: 1,
		Workloads: []perf.Workload{{Name: "empty"}}}, all)
	for _, r := range rep.Results {
		if len(r.Runs) != 1 || r.Runs[0].Passages == 0 {
			t.Errorf("%s: runs %+v", r.Subject, r.Runs)
		}
	}
}
