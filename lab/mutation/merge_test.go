package mutation

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
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

	// k-exclusion settings may differ when the newer run has every
	// k-exclusion unit; the merged report then takes the newer ones.
	kx := templates.Options{Mode: mode.KExclusion}
	oldK := cfg
	oldK.DeepCrash.Budget, oldK.Hunt = 20*time.Second, HuntSettings{}
	oldK.Layers = []Layer{Stress, Explore, SPIN, Deep}
	newK := cfg
	newK.Layers = AllLayers()
	withK := func() *Report {
		return &Report{Config: oldK, Units: []*Unit{{Name: "m"}, {Name: "z[kexclusion]", Options: kx}, {Name: "f[kexclusion]", Options: kx}}}
	}
	if err := withK().Merge(&Report{Config: newK, Units: []*Unit{{Name: "z[kexclusion]", Options: kx}}}); err == nil {
		t.Error("merged k-exclusion settings that differ without every k-exclusion unit")
	}
	merged := withK()
	if err := merged.Merge(&Report{Config: newK, Units: []*Unit{{Name: "z[kexclusion]", Options: kx}, {Name: "f[kexclusion]", Options: kx}}}); err != nil {
		t.Fatal(err)
	}
	if merged.Config.DeepCrash.Budget != newK.DeepCrash.Budget || merged.Config.Hunt != newK.Hunt || !slices.Contains(merged.Config.Layers, Hunt) {
		t.Errorf("the merged report keeps the older k-exclusion settings: %+v", merged.Config)
	}
	if err := withK().Merge(&Report{Config: func() Config { c := newK; c.Deep.Budget++; return c }(),
		Units: []*Unit{{Name: "z[kexclusion]", Options: kx}, {Name: "f[kexclusion]", Options: kx}}}); err == nil {
		t.Error("merged runs whose mutex settings differ too")
	}

	partial := cfg
	partial.Only = regexp.MustCompile("swap")
	if err := (&Report{Config: cfg}).Merge(&Report{Config: partial}); err == nil {
		t.Error("merged a run of some mutants only")
	}
}
