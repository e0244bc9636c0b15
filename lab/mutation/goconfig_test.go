package mutation

import (
	"slices"
	"testing"

	"github.com/lockgen/lockgen/wait"
)

// TestMutantWaits: mutants try spin first, every policy whose waiters
// never sleep before any that sleeps, and every policy but those that
// count their spinners.
func TestMutantWaits(t *testing.T) {
	ws := mutantWaits()
	if len(ws) == 0 || ws[0] != wait.Spin {
		t.Fatalf("mutantWaits = %v, want spin first", ws)
	}
	for i := 1; i < len(ws); i++ {
		if ws[i-1].Parks() && !ws[i].Parks() {
			t.Errorf("mutantWaits = %v: %s sleeps, %s after it does not", ws, ws[i-1], ws[i])
		}
	}
	for _, w := range wait.All {
		if in := slices.Contains(ws, w); in == w.CountsSpinners() {
			t.Errorf("mutantWaits = %v: %s included %v", ws, w, in)
		}
	}
}
