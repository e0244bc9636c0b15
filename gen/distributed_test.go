package gen

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A distributed lock's package holds the lock, its tests and the network
// runtime only; beside a shared-memory lock it gets both runtimes; either
// way the package builds and vets.
func TestDistributedLockPackage(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, "[[lock]]\nname = \"D\"\npackage = \"p\"\nalgorithm = \"dcrew\"\n")
	generate(t, specPath)
	got := strings.Join(names(snapshot(t, dir)), " ")
	if want := "d.go d_test.go lockgen_net.go locks.toml"; got != want {
		t.Fatalf("files = %s, want %s", got, want)
	}
	write(t, specPath, "[[lock]]\nname = \"D\"\npackage = \"p\"\nalgorithm = \"dcrew\"\ntests = false\n\n[[lock]]\nname = \"T\"\npackage = \"p\"\nalgorithm = \"ticket\"\ntests = false\n")
	generate(t, specPath)
	got = strings.Join(names(snapshot(t, dir)), " ")
	if want := "d.go lockgen_net.go lockgen_runtime.go lockgen_wait.go locks.toml t.go"; got != want {
		t.Fatalf("files = %s, want %s (d_test.go must be gone)", got, want)
	}
	cmd := exec.Command("go", "vet", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}
