//go:build lockgen_check

package atomic_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/verify/checked/atomic"
	"github.com/lockgen/lockgen/verify/checked/runtime"
	"github.com/lockgen/lockgen/verify/sched"
)

// TestSpinWaitsForTheWrite: a goroutine spinning (checked runtime.Gosched)
// on a checked Bool is not runnable until the write it waits for; a spin
// on a flag nobody sets is a deadlock. Traces name this file's lines.
func TestSpinWaitsForTheWrite(t *testing.T) {
	var flag atomic.Bool
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(3)}, []func(*sched.Proc){
		func(p *sched.Proc) {
			for !flag.Load() {
				runtime.Gosched()
			}
		},
		func(p *sched.Proc) { flag.Store(true) },
	})
	if res.Failure != nil {
		t.Fatal(res.Failure)
	}
	if tr := sched.FormatTrace(res.Events, 0); !strings.Contains(tr, "sched_check_test.go:") {
		t.Errorf("trace does not name this file's lines:\n%s", tr)
	}
	var never atomic.Bool
	res = sched.Run(sched.Config{Chooser: sched.NewRandom(3)}, []func(*sched.Proc){func(p *sched.Proc) {
		for !never.Load() {
			runtime.Gosched()
		}
	}})
	if res.Failure == nil || res.Failure.Kind != sched.FailDeadlock {
		t.Fatalf("got %v, want a deadlock", res.Failure)
	}
}
