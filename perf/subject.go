package perf

import "github.com/lockgen/lockgen/mode"

// Subject is one lock to measure.
type Subject struct {
	Name string
	Mode mode.Mode // what it offers: its baselines and workload follow
	K    int       // holders at once, for k-exclusion
	// Procs caps the goroutines of a lock whose processes have ids (0 for
	// none); larger goroutine counts are skipped.
	Procs    int
	FIFO     bool // claims first-come, first-served order
	Baseline bool // a standard lock the others are compared with
	// Algorithm is the catalogue algorithm, Wait the lock's wait policy
	// and Nodes its node policy, for the report ("" for baselines).
	Algorithm string
	Wait      string
	Nodes     string
	// New makes a fresh lock for one run; Run is one goroutine's loop on
	// it (see Worker).
	New func() any
	Run func(l any, w *Worker)
}
