// Package control is make staticcheck's negative control: code of the
// kinds lockgen once generated and staticcheck reports, which the target
// requires it to reject, so that a staticcheck that checks nothing (a
// wrong pattern, a build that type-checks no package) cannot pass.
package control

import "sync"

// Twice negates a boolean twice (SA4013), as the Go backend lowered ¬¬ok.
func Twice(ok bool) bool {
	return !!ok
}

// Empty locks and unlocks with nothing in between (SA2001), as the
// generated zero-value tests did.
func Empty(mu *sync.Mutex) {
	mu.Lock()
	mu.Unlock()
}
