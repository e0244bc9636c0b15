//go:build !lockgen_check

package verify

// CheckBuild reports whether this is the lockgen_check build, where
// generated locks run on the controlled scheduler's registers and every
// wait gets a waiter of its own (so that a schedule replays exactly):
// allocation counts mean nothing there.
const CheckBuild = false
