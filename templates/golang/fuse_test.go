package golang

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// TestFusedChecks checks where an await's first check takes the value of
// the fetch&add before it: the reader of the MCS reader-preference lock
// (fetch&add on L, then await on L), and not the ticket lock, whose await
// reads another register than the one its fetch&add wrote.
func TestFusedChecks(t *testing.T) {
	cases := []struct {
		alg   string
		m     mode.Mode
		pref  templates.Preference
		fused bool
	}{
		{"mcs-rw", mode.RW, templates.ReaderPref, true},
		{"ticket", mode.Mutex, "", false},
	}
	for _, tc := range cases {
		e, _ := templates.Lookup(tc.alg)
		c := Config{
			Name: "L", Package: "p", ImportPath: "p", Entry: e, Mode: tc.m, Preference: tc.pref,
			Alg:   e.MustDef(templates.Options{Mode: tc.m, Preference: tc.pref}),
			Nodes: e.DefaultNodes, Wait: templates.Adaptive, Params: e.SmallParams(tc.m, e.DefaultNodes),
			SpecPath: "x", SpecHash: "0",
		}
		f, err := Lock(c)
		if err != nil {
			t.Fatal(err)
		}
		src := string(f.Data)
		fused := strings.Contains(src, "first check uses the value")
		if fused != tc.fused {
			t.Errorf("%s: fused check %v, want %v", tc.alg, fused, tc.fused)
		}
		if tc.fused && !strings.Contains(src, "if !((afterR1 % 2) == 0) {") {
			t.Errorf("%s: R2's inline check does not use R1's result:\n%s", tc.alg, src)
		}
	}
}
