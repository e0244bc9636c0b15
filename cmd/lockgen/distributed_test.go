package main

import (
	"strings"
	"testing"
)

// explain shows a message-passing entry: its routines under the paper's
// names, its handlers with their labels, the release token as the paper's
// prose sends it, and the channels lockgen verify checks it over.
func TestExplainDistributed(t *testing.T) {
	code, stdout, stderr := lockgen("explain", "dcrew")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Request_CS_Read (RAcquire):", "on REQUEST:", "(6q.5)", "send(requester, TOKEN; 1)", "(5r.3)    send(next, TOKEN; 1)",
		"order is not needed (section 3.2)", "checks it over channels that reorder"} {
		// Long lines wrap: compare words.
		if words := strings.Join(strings.Fields(stdout), " "); !strings.Contains(words, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("explain dcrew lacks %q", want)
		}
	}
	if _, stdout, _ := lockgen("list"); !strings.Contains(stdout, "dcrew") {
		t.Error("list does not show dcrew")
	}
}

// simulate runs a spec's distributed locks, fails on a violation (Lamport
// 1978 over reordering channels, which its paper rules out; dCREW passes
// over them) and refuses a shared-memory lock.
func TestSimulate(t *testing.T) {
	code, stdout, stderr := lockgen("simulate", "-n", "3", "-load", "2", "-entries", "500", "../../generated/dcrew/lock.toml")
	if code != exitOK || !strings.Contains(stdout, "DCREW  3") || !strings.Contains(stdout, "ok") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, _ := lockgen("simulate", "-reorder", "-n", "3", "-entries", "20000", "../../generated/dcrew/lock.toml"); code != exitOK || strings.Contains(stdout, "VIOLATION") {
		t.Errorf("dcrew over reordering channels: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := lockgen("simulate", "-reorder", "-n", "3", "-entries", "20000", "../../generated/lamport-1978/lock.toml"); code != exitFailed || !strings.Contains(stdout, "VIOLATION") {
		t.Errorf("lamport-1978 over reordering channels: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := lockgen("simulate", "../../generated/mcs/lock.toml"); code != exitUsage || !strings.Contains(stderr, "lockgen bench measures it") {
		t.Errorf("a shared-memory lock: exit %d, %s", code, stderr)
	}
}
