package main

import "testing"

// TestTotalsSurviveConcurrentTransfers: the generated lock keeps every
// transfer atomic, so money is neither created nor lost (run with -race).
func TestTotalsSurviveConcurrentTransfers(t *testing.T) {
	b := NewBank(8, 1000)
	made := Run(b, 6, 2000)
	if made == 0 {
		t.Fatal("no transfer succeeded")
	}
	if got := b.Teller().Total(); got != 8*1000 {
		t.Fatalf("total = %d after %d transfers, want %d", got, made, 8*1000)
	}
}
