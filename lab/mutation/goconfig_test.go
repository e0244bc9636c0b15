package mutation

import (
	"fmt"
	"testing"
)

// TestMutantWaits: mutants try the policies whose waiters never sleep
// first, then those that sleep, and never the adaptive one.
func TestMutantWaits(t *testing.T) {
	if got, want := fmt.Sprint(mutantWaits()), "[spin yield spin-then-yield park spin-then-park]"; got != want {
		t.Errorf("mutantWaits = %s, want %s", got, want)
	}
}
