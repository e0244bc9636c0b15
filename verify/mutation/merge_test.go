package mutation

import (
	"regexp"
	"slices"
	"testing"
)

func TestMerge(t *testing.T) {
	cfg := DefaultConfig()
	base := &Report{Config: cfg, Units: []*Unit{{Name: "a"}, {Name: "b", SpinPlan: "old"}}}
	newerCfg := cfg
	newerCfg.Algorithms, newerCfg.Jobs = []string{"b", "c"}, cfg.Jobs+1
	newer := &Report{Config: newerCfg, Command: "rerun", Units: []*Unit{{Name: "b", SpinPlan: "new"}, {Name: "c"}}}
	if err := base.Merge(newer); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range base.Units {
		names = append(names, u.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) || base.Units[1].SpinPlan != "new" {
		t.Errorf("units after the merge: %v (b's plan %q), want a, the newer b, c", names, base.Units[1].SpinPlan)
	}
	if len(base.Reruns) != 1 || base.Reruns[0].Command != "rerun" || !slices.Equal(base.Reruns[0].Units, []string{"b", "c"}) {
		t.Errorf("reruns %+v", base.Reruns)
	}

	other := cfg
	other.Stress.Passages++
	if err := (&Report{Config: cfg}).Merge(&Report{Config: other}); err == nil {
		t.Error("merged runs with different stress settings")
	}
	partial := cfg
	partial.Only = regexp.MustCompile("swap")
	if err := (&Report{Config: cfg}).Merge(&Report{Config: partial}); err == nil {
		t.Error("merged a run of some mutants only")
	}
}
