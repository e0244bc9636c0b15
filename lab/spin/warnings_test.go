package spin

import (
	"context"
	"strings"
	"testing"
	"time"
)

// rendezvousEscape has no invalid end state, and a rendezvous in the
// escape of an unless: pan warns that its partial-order reduction may be
// invalid there, unless compiled with -DNOREDUCE.
const rendezvousEscape = `chan c = [0] of {bit};
byte x;
active proctype P() { { x = 1; x = 2 } unless { c?1 } }
active proctype Q() { c!1 }
active proctype R() { end: c?1 }
`

// A pan warning that the reduction may be invalid keeps a search that
// finds nothing from passing; without the reduction the same search
// passes, and warns of nothing.
func TestWarningKeepsAPassFromPassing(t *testing.T) {
	needSpin(t)
	t.Parallel()
	for _, noReduce := range []bool{false, true} {
		res, err := Check(context.Background(), rendezvousEscape, Deadlock, Options{Timeout: time.Minute, NoReduce: noReduce})
		if err != nil {
			t.Fatal(err)
		}
		if noReduce {
			if res.Status != Passed || len(res.Warnings) != 0 {
				t.Errorf("without reduction: %s %s, warnings %q; want a pass and none", res.Status, res.Reason, res.Warnings)
			}
			continue
		}
		want := "warning: use of a rendezvous stmnts in the escape of an unless clause, if present, could make p.o. reduction invalid"
		if res.Status != Incomplete || !strings.Contains(res.Reason, want) || len(res.Warnings) != 1 {
			t.Errorf("with reduction: %s %q, warnings %q; want incomplete for the warning %q", res.Status, res.Reason, res.Warnings, want)
		}
	}
}

// "only one claim defined, -N ignored" is harmless only where the one
// claim is the property's.
func TestHarmfulWarning(t *testing.T) {
	const ignored = "warning: only one claim defined, -N ignored"
	own := "active proctype P() { skip }\nltl " + Starvation.claim() + " { [] true }\n"
	other := "active proctype P() { skip }\nltl other { [] true }\n"
	two := own + "never { skip }\n"
	for _, c := range []struct {
		warnings []string
		model    string
		prop     Property
		harmful  string
	}{
		{nil, own, Starvation, ""},
		{[]string{ignored}, own, Starvation, ""},
		{[]string{ignored}, other, Starvation, ignored},
		{[]string{ignored}, two, Starvation, ignored},
		{[]string{ignored}, own, MutualExclusion, ignored},
		{[]string{ignored, "warning: something else"}, own, Starvation, "warning: something else"},
	} {
		if got := harmfulWarning(c.warnings, c.model, c.prop); got != c.harmful {
			t.Errorf("%q on %q (%s) = %q, want %q", c.warnings, c.model, c.prop, got, c.harmful)
		}
	}
	out := "pan: intro\nwarning: use of a rendezvous stmnts in the escape\n\tof an unless clause\nState-vector 36 byte\nWarning: Search not completed\n"
	want := []string{"warning: use of a rendezvous stmnts in the escape of an unless clause", "Warning: Search not completed"}
	if got := warningLines(out); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("warningLines = %q, want %q", got, want)
	}
}
