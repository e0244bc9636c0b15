package gen

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// killed is the panic that stops a write at a chosen point, as a SIGKILL
// would: no deferred clean-up of the write's own runs.
type killed struct{}

// writeKilledAt runs plan.Write and stops it at its n-th point; it
// reports whether the write got that far.
func writeKilledAt(plan *Plan, n int) (stopped bool) {
	points := 0
	stop = func(string) {
		if points++; points == n {
			panic(killed{})
		}
	}
	defer func() {
		stop = func(string) {}
		if r := recover(); r != nil {
			if _, ok := r.(killed); !ok {
				panic(r)
			}
			stopped = true
		}
	}()
	plan.Write()
	return false
}

// contents is what dir holds, file by file, the spec left out.
func contents(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, entry := range snapshot(t, dir) {
		if name != "locks.toml" {
			out[name] = content(entry)
		}
	}
	return out
}

// oldAndNew is a package generated from one spec, about to be generated
// from another that replaces a file, adds one and removes others.
const newLocks = `[[lock]]
name = "T"
package = "locks"
algorithm = "tas"

[[lock]]
name = "R"
package = "locks"
algorithm = "clh"
tests = false
`

// transition generates twoLocks into a fresh package and plans newLocks
// over it; it returns the directory, the plan, and the old and new
// contents.
func transition(t *testing.T) (dir string, plan *Plan, old, new map[string]string) {
	t.Helper()
	twin := module(t)
	write(t, filepath.Join(twin, "locks.toml"), newLocks)
	generate(t, filepath.Join(twin, "locks.toml"))
	new = contents(t, twin)

	dir = module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	generate(t, specPath)
	old = contents(t, dir)
	write(t, specPath, newLocks)
	plan, err := Build([]string{specPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, plan, old, new
}

// wholly requires dir to hold exactly old or new, and nothing of a run's
// own (temporaries, kept versions, the journal).
func wholly(t *testing.T, dir string, old, new map[string]string, when string) string {
	t.Helper()
	got := contents(t, dir)
	for name := range got {
		if strings.HasPrefix(name, tempPrefix) || name == journalName {
			t.Fatalf("%s: %s left", when, name)
		}
	}
	switch {
	case equalMaps(got, old):
		return "old"
	case equalMaps(got, new):
		return "new"
	}
	t.Fatalf("%s: the package is neither wholly old nor wholly new: %v", when, names(got))
	return ""
}

// TestWriteKilledAnywhereIsRepaired stops a write at each of its points
// in turn, as a SIGKILL would, and requires Repair to leave the package
// wholly old (stopped before the journal) or wholly new (after).
func TestWriteKilledAnywhereIsRepaired(t *testing.T) {
	outcomes := map[string]int{}
	for n := 1; ; n++ {
		dir, plan, old, new := transition(t)
		if !writeKilledAt(plan, n) {
			if got := wholly(t, dir, old, new, "a write not stopped"); got != "new" {
				t.Fatalf("a write not stopped left the package %s", got)
			}
			if n < 10 {
				t.Fatalf("only %d points in a write of %d files", n-1, len(plan.Outputs))
			}
			t.Logf("%d points: %v", n-1, outcomes)
			return
		}
		repair(t, dir)
		outcomes[wholly(t, dir, old, new, "repaired after point "+strconv.Itoa(n))]++
	}
}

// TestRollbackKilledAnywhereIsRepaired makes a write fail at its second
// rename, so that it rolls back, and stops the rollback at each of its
// points: Repair then finishes the rollback.
func TestRollbackKilledAnywhereIsRepaired(t *testing.T) {
	failSecondRename := func(t *testing.T) {
		failAfter(t, &fs.rename, 2, func(real func(string, string) error, fail func() bool) func(string, string) error {
			return func(o, nw string) error {
				if fail() {
					return errInjected
				}
				return real(o, nw)
			}
		})
	}
	// Where the rollback starts: the first point after the failed rename.
	_, plan, _, _ := transition(t)
	failSecondRename(t)
	var points []string
	stop = func(where string) { points = append(points, where) }
	_, err := plan.Write()
	stop = func(string) {}
	fs.rename = os.Rename
	first := slices.IndexFunc(points, func(w string) bool { return strings.HasPrefix(w, "put back") || strings.HasPrefix(w, "took back") })
	if err == nil || first < 0 {
		t.Fatalf("the failing write (%v) made no rollback point: %v", err, points)
	}
	for n := first + 1; n <= len(points); n++ {
		dir, plan, old, new := transition(t)
		failSecondRename(t)
		stopped := writeKilledAt(plan, n)
		fs.rename = os.Rename
		if !stopped {
			t.Fatalf("rollback point %d (%s) not reached", n, points[n-1])
		}
		repair(t, dir)
		if got := wholly(t, dir, old, new, "repaired after "+points[n-1]); got != "old" {
			t.Fatalf("stopped at %s: repaired to %s, want old", points[n-1], got)
		}
	}
	t.Logf("%d rollback points", len(points)-first)
}

// repair is Repair after a write stopped in this process: that run's
// files count as a dead run's.
func repair(t *testing.T, dir string) {
	t.Helper()
	running = func(int) bool { return false }
	defer func() { running = func(pid int) bool { return pid == os.Getpid() || processAlive(pid) } }()
	if err := Repair(dir); err != nil {
		t.Fatalf("Repair: %v", err)
	}
}
