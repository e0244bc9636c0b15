package mutation

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Rerun records units run again and merged into a saved report (Merge).
type Rerun struct {
	Command string
	Started time.Time
	Elapsed time.Duration
	Units   []string
}

// Merge puts the units of a newer, partial run (a few algorithms run
// again after a change to their definitions) into rep, a whole run saved
// earlier: each replaces rep's unit of the same name, or is added. The
// two runs must have used the same settings, and the newer one must have
// run whole units (no Only filter), or the report would mix verdicts that
// do not compare. The settings that apply to k-exclusion units only
// (DeepCrash, Hunt, and whether the Hunt layer runs) may differ when the
// newer run has every k-exclusion unit of rep: the merged report then
// takes them from the newer run. Controls are replaced when the newer run
// has them.
func (rep *Report) Merge(newer *Report) error {
	if newer.Config.Only != nil {
		return errors.New("merge: the newer run kept only some mutants (-only): its units are not whole")
	}
	if a, b := settings(rep.Config), settings(newer.Config); a != b {
		if a, b := settings(withoutKExclusion(rep.Config)), settings(withoutKExclusion(newer.Config)); a != b {
			return fmt.Errorf("merge: the runs used different settings:\n  saved: %s\n  newer: %s", a, b)
		}
		for _, u := range rep.Units {
			if u.Options.Mode.TakesK() && !slices.ContainsFunc(newer.Units, func(v *Unit) bool { return v.Name == u.Name }) {
				return fmt.Errorf("merge: the runs' k-exclusion settings differ, and the newer run lacks the k-exclusion unit %s", u.Name)
			}
		}
		rep.Config.DeepCrash, rep.Config.Hunt, rep.Config.Layers = newer.Config.DeepCrash, newer.Config.Hunt, newer.Config.Layers
	}
	rr := Rerun{Command: newer.Command, Started: newer.Started, Elapsed: newer.Elapsed}
	for _, u := range newer.Units {
		rr.Units = append(rr.Units, u.Name)
		if i := slices.IndexFunc(rep.Units, func(v *Unit) bool { return v.Name == u.Name }); i >= 0 {
			rep.Units[i] = u
		} else {
			rep.Units = append(rep.Units, u)
		}
	}
	if len(newer.Controls) > 0 {
		rep.Controls = newer.Controls
	}
	rep.Reruns = append(rep.Reruns, rr)
	return nil
}

// withoutKExclusion is c without the settings that apply to k-exclusion
// units only.
func withoutKExclusion(c Config) Config {
	c.DeepCrash, c.Hunt = ExploreSettings{}, HuntSettings{}
	c.Layers = slices.DeleteFunc(slices.Clone(c.Layers), func(l Layer) bool { return l == Hunt })
	return c
}

// settings renders what decides a mutant's verdicts: the configuration
// without the choice of algorithms and the number of jobs.
func settings(c Config) string {
	c.Module, c.Algorithms, c.Jobs = "", nil, 0
	data, err := json.Marshal(c)
	if err != nil {
		return err.Error()
	}
	return string(data)
}
