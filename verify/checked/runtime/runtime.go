//go:build !lockgen_check

// Package runtime has the one runtime function a hand-written spin loop
// needs, checked: Gosched. In a normal build it is runtime.Gosched; under
// -tags lockgen_check it is a yield that the controlled scheduler sees,
// after which the spinning goroutine is not runnable until something it
// read changes (so "everyone spinning" is a detected deadlock rather than
// a hang). See package verify/checked.
package runtime

import "runtime"

// Gosched yields the processor, as runtime.Gosched does.
func Gosched() { runtime.Gosched() }
