package main

import (
	"bytes"
	"os"
	"testing"
)

// docs/distributed.md is what the simulator computes today.
func TestDistributedDocIsFresh(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded and slow under -race: make test-race runs it without")
	}
	var b bytes.Buffer
	if err := writeDoc(&b, t.TempDir(), "distributed", nil); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Error("docs/distributed.md is stale: make distributed")
	}
}
