package mutation

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/templates"
)

// Verdict is one layer's outcome on one mutant.
type Verdict struct {
	Ran    bool   // the layer ran (false: not run, see Detail)
	Killed bool   // the layer reported a violation
	Kind   string // what it reported (e.g. "mutual exclusion", "deadlock")
	// Detail is the first lines of the report: the message, with the
	// replay token or SPIN's trail, or why the layer did not run.
	Detail  string
	Elapsed time.Duration
}

// Result is one mutant's outcome.
type Result struct {
	Mutant mutate.Mutant
	Lock   string // the lock's name in the generated package
	Layer  map[Layer]*Verdict
}

// Killed reports whether some layer killed the mutant.
func (r *Result) Killed() bool {
	for _, v := range r.Layer {
		if v.Killed {
			return true
		}
	}
	return false
}

// Unit is one algorithm variant: its mutants and what became of them.
type Unit struct {
	Name    string           // "mcs", "filter[kexclusion]", "mcs-rw[writer]"
	Entry   *templates.Entry `json:"-"` // found again by Name when a saved report is loaded
	Options templates.Options
	Results []*Result
	// Baseline is the unmutated definition run through the same layers
	// (lock M0): it must pass every one of them, or that layer's kills
	// in this unit mean nothing (reported as a runner error).
	Baseline *Result
	// Discarded: mutations not run (they do not check, the Go backend
	// cannot lower or compile them, or they repeat another mutant).
	Discarded []mutate.Discarded
	// Time is the time spent per layer (builds included), summed over
	// jobs: with several jobs at once it exceeds the wall time.
	Time map[Layer]time.Duration
	// SpinPlan says which SPIN runs the mutants get (decided by the
	// baseline's timings).
	SpinPlan string
	// SpinNotes say which runs the original could not pass or afford.
	SpinNotes []string
	// Errors are failures of the runner itself (not of a mutant).
	Errors []string
}

// Report is a whole run.
type Report struct {
	Command  string // how the run was started (shown in the report)
	Platform string // "linux/amd64, 2 CPUs"
	Started  time.Time
	Elapsed  time.Duration
	Config   Config
	Units    []*Unit
	// Controls are the named negative controls' results, when run
	// (RunControls).
	Controls []*ControlResult
	// Reruns are the later runs of some units merged into this one
	// (Merge), oldest first.
	Reruns []Rerun `json:",omitempty"`
}

// LoadReport reads a report saved as JSON (the command's -save), so that
// it can be rendered again with the current classifications without
// running the mutants again. Entries are found again by unit name.
func LoadReport(data []byte) (*Report, error) {
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	for _, u := range rep.Units {
		name, _, _ := strings.Cut(u.Name, "[")
		e, ok := templates.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("saved report: unit %s: no catalogue entry %q", u.Name, name)
		}
		u.Entry = e
	}
	return &rep, nil
}

func (u *Unit) target() mutate.Target {
	t := mutate.Target{Entry: u.Entry, Options: u.Options, Name: u.Name}
	t.Lowerable = lowerable(t)
	return t
}

// generate makes the unit's mutants.
func generate(u *Unit) mutate.Set {
	return mutate.Generate(u.Entry.MustDef(u.Options), u.target())
}
