package main

import (
	"strings"
	"testing"
)

// explain shows a message-passing entry: its routines under the paper's
// names, its handlers with their labels, and the assumptions the checks
// found (FIFO channels, which the paper says it does not need).
func TestExplainDistributed(t *testing.T) {
	code, stdout, stderr := lockgen("explain", "dcrew")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Request_CS_Read (RAcquire):", "on REQUEST:", "(6q.5)", "send(requester, TOKEN; 1)", "FIFO between each pair"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("explain dcrew lacks %q", want)
		}
	}
	if _, stdout, _ := lockgen("list"); !strings.Contains(stdout, "dcrew") {
		t.Error("list does not show dcrew")
	}
}
