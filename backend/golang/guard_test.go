package golang

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestGuards checks which locks get guards (guard.go) and which do not:
// the test-and-set locks under every policy, folded into their queue's
// word only where they have a queue; not a lock whose register takes
// other values (the ticket lock), nor one with a misuse flag (MCS); and
// not a test-and-set lock whose code a mutant changed so that its
// uncontended passage is no longer the swap the guard would stand for.
func TestGuards(t *testing.T) {
	tas := func() *ir.Algorithm {
		e, _ := templates.Lookup("tas")
		return e.MustDef(templates.Options{Mode: mode.Mutex})
	}
	releaseWritesBusy := tas()
	releaseWritesBusy.Release = Code(Swap("2", "prev", Reg("L"), Named("BUSY", 1)))
	misuseOnOther := tas()
	misuseOnOther.ReleaseMisuse = Ne(Var("old"), Named("BUSY", 1))
	acquireAwaitsBusy := tas()
	acquireAwaitsBusy.Acquire = Code(BusyRepeat("1", Eq(Var("old"), Named("BUSY", 1)),
		Swap("1", "old", Reg("L"), Named("BUSY", 1))))
	noMisuse := tas()
	noMisuse.ReleaseMisuse = nil
	emptyLoop := tas()
	emptyLoop.Acquire = Code(BusyRepeat("1", Eq(Var("old"), Named("FREE", 0))))

	cases := []struct {
		name, alg string
		def       *ir.Algorithm // nil: the entry's
		wait      wait.Policy
		guarded   bool
		folded    bool // the register is a bitReg
	}{
		{"tas park", "tas", nil, wait.Park, true, true},
		{"tas adaptive", "tas", nil, wait.Adaptive, true, true},
		{"tas spin", "tas", nil, wait.Spin, true, false},
		{"ttas park", "ttas", nil, wait.Park, true, true},
		{"ttas spin-then-yield", "ttas", nil, wait.SpinThenYield, true, false},
		{"ticket", "ticket", nil, wait.Park, false, false},
		{"mcs", "mcs", nil, wait.Park, false, false},
		{"release writes BUSY", "tas", releaseWritesBusy, wait.Park, false, false},
		{"misuse tested on another local", "tas", misuseOnOther, wait.Park, false, false},
		{"acquire ends on BUSY", "tas", acquireAwaitsBusy, wait.Park, false, false},
		{"no misuse test (a flag instead)", "tas", noMisuse, wait.Park, false, false},
		{"acquire loop emptied", "tas", emptyLoop, wait.Park, false, false},
	}
	for _, tc := range cases {
		e, _ := templates.Lookup(tc.alg)
		def := tc.def
		if def == nil {
			def = e.MustDef(templates.Options{Mode: mode.Mutex})
		}
		c := Config{
			Name: "L", Package: "p", ImportPath: "p", Entry: e, Mode: mode.Mutex, Alg: def,
			Nodes: e.DefaultNodes, Wait: tc.wait, Spin: 16, Params: e.SmallParams(mode.Mutex, e.DefaultNodes),
			SpecPath: "x", SpecHash: "0",
		}
		f, err := Lock(c)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		src := string(f.Data)
		guarded := strings.Contains(src, "unlockSlow(w int64)")
		folded := strings.Contains(src, " bitReg ")
		if guarded != tc.guarded || folded != tc.folded {
			t.Errorf("%s: guarded %v, folded %v; want %v, %v", tc.name, guarded, folded, tc.guarded, tc.folded)
		}
		if tc.guarded && !strings.Contains(src, "an uncontended release is that one step and one comparison") {
			t.Errorf("%s: the doc comment does not say what the guard does", tc.name)
		}
	}
}
