package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary play a child process too: run starts
// this binary (os.Executable) with the child's environment.
func TestMain(m *testing.M) {
	if os.Getenv(envID) != "" {
		if err := child(); err != nil {
			os.Stderr.WriteString("replica: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Three operating-system processes share the file without a write
// overlapping another access.
func TestRun(t *testing.T) {
	if err := run(3, 20); err != nil {
		t.Fatal(err)
	}
}

// check refuses a log where a write overlaps a read, or a writer's token
// is not newer than the last.
func TestCheckBites(t *testing.T) {
	for name, log := range map[string]string{
		"write during a read": "R+ 0 1\nW+ 1 2\n",
		"two writers":         "W+ 0 1\nW+ 1 2\n",
		"stale fencing token": "W+ 0 3\nW- 0\nW+ 1 3\n",
		"read during a write": "W+ 0 1\nR+ 1 1\n",
	} {
		f := t.TempDir() + "/log"
		if err := os.WriteFile(f, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := check(f, 2); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
