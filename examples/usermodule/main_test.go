package main

import "testing"

// TestCount: no increment is lost under the generated lock (run with
// -race, which also watches total).
func TestCount(t *testing.T) {
	total, flagged := count(8, 2000)
	if total != 16000 {
		t.Fatalf("total = %d, want 16000", total)
	}
	if flagged < 1 || flagged > 8 {
		t.Fatalf("%d goroutines took the flag lock, want 1..8", flagged)
	}
}

// TestDistributed: three processes of the generated distributed lock lose
// no increment, and every writer's fencing token is new.
func TestDistributed(t *testing.T) {
	total, fence, err := distributed(3, 100)
	if err != nil {
		t.Fatal(err)
	}
	if total != 300 || fence != 300 {
		t.Fatalf("total %d, last fencing token %d; want 300 and 300", total, fence)
	}
}
