package main

import "testing"

// The example runs to the end with every write accepted.
func TestRun(t *testing.T) {
	if err := run(3, 20); err != nil {
		t.Fatal(err)
	}
}
