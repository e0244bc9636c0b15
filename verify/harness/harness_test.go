package harness_test

import (
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/harness"
)

func TestFindReadsTheLastFinding(t *testing.T) {
	out := "=== RUN x\n    x_test.go:3: " + harness.Marker + `{"Passages":1}` + "\n" +
		"    x_test.go:4: " + harness.Marker + `{"Passages":7,"Summary":"s"}` + "\nok\n"
	var f harness.StressFinding
	if !harness.Find(out, &f) || f.Passages != 7 || f.Summary != "s" {
		t.Errorf("Find: %+v", f)
	}
	if harness.Find("no finding here", &f) {
		t.Error("Find found a finding in output without one")
	}
	if harness.Find(harness.Marker+"{broken", &f) {
		t.Error("Find accepted broken JSON")
	}
}

// noLock admits every caller: the stress finding must record the overlap.
type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}

// TestChildStress is run by TestStressFindingIsRead in a process of its
// own, as a tool runs a generated test; it does nothing in a plain run.
func TestChildStress(t *testing.T) {
	switch os.Getenv("HARNESS_CHILD") {
	case "mutex":
		var mu sync.Mutex
		harness.Stress(t, verify.Locker("mutex", func() sync.Locker { return &mu }), verify.StressPassages(200))
	case "none":
		harness.Stress(t, verify.Locker("none", func() sync.Locker { return noLock{} }), verify.StressPassages(200))
	}
}

func TestStressFindingIsRead(t *testing.T) {
	for _, c := range []struct {
		lock   string
		failed bool
	}{{"mutex", false}, {"none", true}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildStress$", "-test.v")
		cmd.Env = append(os.Environ(), "HARNESS_CHILD="+c.lock)
		out, err := cmd.CombinedOutput()
		var f harness.StressFinding
		if !harness.Find(string(out), &f) {
			t.Fatalf("%s: no finding in\n%s", c.lock, out)
		}
		if f.Passages == 0 || f.Summary == "" || f.Config == "" {
			t.Errorf("%s: finding without figures: %+v", c.lock, f)
		}
		if got := len(f.Failures) > 0; got != c.failed || (err != nil) != c.failed {
			t.Errorf("%s: failures %v (test error %v), want failed=%v", c.lock, f.Failures, err, c.failed)
		}
	}
}

func TestNoFIFODropsTheClaim(t *testing.T) {
	s := verify.Locker("m", func() sync.Locker { return new(sync.Mutex) }).WithFIFO()
	if !s.FIFO || harness.NoFIFO(s).FIFO {
		t.Errorf("FIFO %v, after NoFIFO %v", s.FIFO, harness.NoFIFO(s).FIFO)
	}
}
