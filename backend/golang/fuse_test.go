package golang

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestFusedChecks checks where an await's first check takes the value of
// the fetch&add before it: the reader of the MCS reader-preference lock
// (fetch&add on L, then await on L), the writer-preference one's (the
// same pair after an await: R3 after R2, inline and in R1's continuation
// alike), and not the ticket lock, whose await reads another register
// than the one its fetch&add wrote.
func TestFusedChecks(t *testing.T) {
	cases := []struct {
		alg   string
		m     mode.Mode
		pref  templates.Preference
		fused bool
		check string // the fused check, once per place the pair is lowered
		count int
	}{
		{"mcs-rw", mode.RW, templates.ReaderPref, true, "if !((afterR1 % 2) == 0) {", 1},
		{"mcs-rw", mode.RW, templates.WriterPref, true, "if !((afterR2 % 2) == 0) {", 2},
		{"ticket", mode.Mutex, "", false, "", 0},
	}
	for _, tc := range cases {
		e, _ := templates.Lookup(tc.alg)
		c := Config{
			Name: "L", Package: "p", ImportPath: "p", Entry: e, Mode: tc.m, Preference: tc.pref,
			Alg:   e.MustDef(templates.Options{Mode: tc.m, Preference: tc.pref}),
			Nodes: e.DefaultNodes, Wait: wait.Adaptive, Params: e.SmallParams(tc.m, e.DefaultNodes),
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
		if n := strings.Count(src, tc.check); tc.fused && n != tc.count {
			t.Errorf("%s %s: %q %d times, want %d:\n%s", tc.alg, tc.pref, tc.check, n, tc.count, src)
		}
	}
}
