//go:build lockgen_check

package runtime

import (
	"github.com/lockgen/lockgen/verify/checked/internal/label"
	"github.com/lockgen/lockgen/verify/sched"
)

// Gosched yields; under the controlled scheduler the caller waits until a
// register it read since its last yield is written.
func Gosched() { sched.Wait(label.Caller()) }
