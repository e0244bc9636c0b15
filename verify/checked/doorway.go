//go:build !lockgen_check

package checked

// Doorway marks the end of an acquire's doorway: the wait-free prefix that
// fixes the caller's place in a first-come, first-served lock (an MCS
// lock's swap on its tail). verify.Explore checks a subject that claims
// FIFO order (Subject.WithFIFO) against these marks. In a normal build it
// does nothing.
func Doorway() {}
