package mutation

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lockgen/lockgen/lab/spin"
)

// TestControlsAreCaught requires every named negative control
// (mutate.Controls) to be caught by the controlled scheduler and
// by SPIN, for the recorded reason, with traces naming the paper's lines.
// A checker that stops catching one of them fails here.
func TestControlsAreCaught(t *testing.T) {
	singleThreaded(t)
	if err := spin.Available(); err != nil {
		t.Skip(err)
	}
	start := time.Now()
	results, err := RunControls(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range results {
		c := cr.Control
		if !cr.Caught() {
			t.Errorf("negative control %s (%s; %s) is no longer caught as recorded:", c.Name, c.Title, c.Source)
			for _, p := range cr.Problems {
				t.Errorf("  %s", p)
			}
			t.Logf("%s: explore found %q: %s\n%s", c.Name, cr.Explore.Kind, cr.Explore.Message, cr.Explore.Trace)
			t.Logf("%s: spin: %s %s %s\n%s", c.Name, cr.Spin.Status, cr.Spin.Failure, cr.Spin.Message, cr.SpinText)
			continue
		}
		explore := fmt.Sprintf("%s in %v (%s)", cr.Explore.Kind, cr.ExploreTime.Round(time.Millisecond), cr.Explore.Strategy)
		if c.SpinOnly != "" {
			explore = "not checked: " + c.SpinOnly
		}
		t.Logf("%s: explore: %s; spin n=%d %s: %s in %v", c.Name, explore, c.SpinN, c.SpinProperty, cr.Spin.Failure, cr.Spin.Elapsed.Round(time.Millisecond))
	}
	t.Logf("all controls in %v", time.Since(start).Round(time.Millisecond))
}
