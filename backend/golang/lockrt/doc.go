// Package lockrt is the runtime of every generated lock package: the
// register types that hold all shared state, and the waiting layer that
// makes a waiter sleep and a release wake exactly whom it enables. It is
// ordinary Go, compiled, vetted and tested here; the Go backend embeds its
// files (not the tests) into each generated package with the package
// clause renamed, so a generated package imports nothing but the standard
// library in its normal build.
//
// Two builds:
//
//   - runtime.go (!lockgen_check): registers are plain sync/atomic
//     (sequentially consistent, the papers' memory model) and a sleeping
//     waiter blocks on a channel of its own;
//   - check.go (lockgen_check): every register access and every sleep and
//     wake goes through the controlled scheduler of verify/sched, so
//     verify.Explore explores the waiting layer's interleavings too and a
//     lost wake-up is a deadlock it reports and replays.
//
// wait.go, the waiting layer proper, is shared by both builds: the code
// under test is the code users run. Its design is described in wait.go.
package lockrt
