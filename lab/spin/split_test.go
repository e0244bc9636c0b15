package spin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

func TestSubsets(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want string
	}{
		{3, 0, "[[]]"},
		{3, 1, "[[0] [1] [2]]"},
		{4, 2, "[[0 1] [0 2] [0 3] [1 2] [1 3] [2 3]]"},
		{3, 3, "[[0 1 2]]"},
	} {
		if got := fmt.Sprint(subsets(c.n, c.k)); got != c.want {
			t.Errorf("subsets(%d, %d) = %s, want %s", c.n, c.k, got, c.want)
		}
	}
	if got := processList([]int{0, 1, 3}); got != "processes 0, 1 and 3" {
		t.Errorf("processList: %q", got)
	}
}

// lastHolds is a lock only process 2 ever holds: the others wait while it
// does. Only process 2's crash can starve anyone.
func lastHolds() *ir.Algorithm {
	last := Eq(ir.Self{}, Lit(2))
	return &ir.Algorithm{
		Name:    "last-holds",
		Shared:  []ir.Shared{{Name: "L", Type: ir.TBool}},
		Acquire: Code(IfElse("A1", last, Code(Write("A1", Reg("L"), True)), Code(Await("A2", Not(Read(Reg("L"))))))),
		Release: Code(If("R1", last, Write("R1", Reg("L"), False))),
	}
}

// Split by victim, a crash check runs once per process that may crash and
// reports the run that failed; the runs that let only the others crash
// pass, which shows each run restricts the crasher.
func TestSplitCrashes(t *testing.T) {
	needSpin(t)
	t.Parallel()
	a := lastHolds()
	if err := ir.Check(a); err != nil {
		t.Fatal(err)
	}
	p := ir.Params{N: 3, K: 1}
	po := quiet(mode.Mutex, 1)
	whole, _, err := CheckAlgorithm(t.Context(), a, p, po, Quiescence, fast)
	if err != nil {
		t.Fatal(err)
	}
	wantStuck(t, whole, "A2")
	split := fast
	split.SplitCrashes = true
	res, _, err := CheckAlgorithm(t.Context(), a, p, po, Quiescence, split)
	if err != nil {
		t.Fatal(err)
	}
	wantStuck(t, res, "A2")
	if !strings.Contains(res.Message, "crashing only process 2") {
		t.Errorf("the failure does not name the run that let process 2 crash: %s", res.Message)
	}
	po.Victims = []int{0, 1}
	others, _, err := CheckAlgorithm(t.Context(), a, p, po, Quiescence, fast)
	if err != nil {
		t.Fatal(err)
	}
	if others.Status != Passed {
		t.Fatalf("crashing only processes 0 and 1: %s %s %s", others.Status, others.Message, others.Reason)
	}
	if res.States <= others.States {
		t.Errorf("the split runs stored %d states in all, no more than the one run crashing processes 0 and 1 (%d): their states were not summed", res.States, others.States)
	}
	// Made apart (Options.Victims), the split's runs give the same
	// verdicts and, together, the same states.
	var apart int64
	for v := range 3 {
		one := fast
		one.Victims = []int{v}
		r, _, err := CheckAlgorithm(t.Context(), a, p, quiet(mode.Mutex, 1), Quiescence, one)
		if err != nil {
			t.Fatal(err)
		}
		if v == 2 {
			wantStuck(t, r, "A2")
		} else if r.Status != Passed {
			t.Errorf("crashing only process %d: %s %s %s", v, r.Status, r.Message, r.Reason)
		}
		apart += r.States
	}
	if apart != res.States {
		t.Errorf("the runs made apart stored %d states in all, the split %d", apart, res.States)
	}
}

// The suite's coverage says a crash check was split, and how.
func TestSplitCrashesCoverage(t *testing.T) {
	e, _ := templates.Lookup("zehavi")
	topts := templates.Options{Mode: mode.KExclusion}
	a, claims := e.MustDef(topts), e.PropsFor(topts)
	for _, c := range []struct {
		split   bool
		victims []int
		k       int
		want    string
	}{
		{false, nil, 2, ""},
		{true, nil, 2, "one run per process that may crash"},
		{true, nil, 3, "one run per set of 2 processes that may crash"},
		{false, []int{1}, 2, "only process 1 may crash: one run of those a split by victim makes"},
	} {
		so := SuiteOptions{Passages: 1, Quiescence: true, K: c.k, Run: Options{SplitCrashes: c.split, Victims: c.victims}}
		atts, err := plan(a, claims, mode.KExclusion, CrashTolerance, 4, so)
		if err != nil {
			t.Fatal(err)
		}
		cov := atts[len(atts)-1].cov
		if got := strings.Contains(cov, "may crash"); got != (c.want != "") || !strings.Contains(cov, c.want) {
			t.Errorf("split %v, victims %v, k = %d: coverage %q, want %q", c.split, c.victims, c.k, cov, c.want)
		}
	}
}
