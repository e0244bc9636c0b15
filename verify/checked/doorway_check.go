//go:build lockgen_check

package checked

import (
	"github.com/lockgen/lockgen/verify/checked/internal/label"
	"github.com/lockgen/lockgen/verify/sched"
)

// Doorway marks the end of an acquire's doorway for verify.Explore's FIFO
// check.
func Doorway() { sched.Doorway(label.Caller()) }
