package golang

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestWaitingLayerControls keeps the waiting layer honest: it plants each
// known waiting-layer bug in turn and requires verify.Explore, under the
// controlled scheduler that models every sleep and wake-up, to report the
// deadlock it causes in every lock it affects. The same locks with the
// waiting layer as shipped pass Explore.
//
//   - check-before-announce: an await checks its condition, then queues
//     and sleeps without checking again (the classic lost wake-up);
//   - skip-wake: a write that may enable a sleeper wakes nobody (a release
//     that skips the wake it owes), on queues of one kind of waiter (wake)
//     and on a reader/writer lock's queue of writers and readers
//     (mustWake);
//   - keep-the-wake: a woken exclusive waiter leaves its wait still
//     counted awake, so later writes, trusting it to see them, wake none
//     of the others (a wake handed to a waiter that no longer needs it);
//   - one-kind-wake: a reader/writer lock's queue of writers and readers
//     woken with the test made for queues of one kind, which takes an
//     awake writer to stand in for sleeping readers too;
//   - wrong-key-guard: a fetch&add that may enable a sleeper tests its
//     value against the wrong constant key before waking (a reader's
//     release that never wakes the writer waiting for the count to reach
//     0);
//   - wrong-ticket-slot: a write of v wakes the sleeper of ticket v+1
//     instead of v's (a ticket lock's release that wakes the wrong
//     successor);
//   - stale-fused-check: an await's first check, fused with the
//     fetch&add before it, sees the register as 0 instead of the value the
//     fetch&add left (a reader that never notices the writer inside). Not
//     a lost wake-up: Explore must find the violation, whatever its kind;
//   - guard-ignores-sleepers: a test-and-set lock's inline release
//     (guard.go) tests the value its exchange returned alone, not the
//     queue's bits beside it, so a release with sleepers skips the wake
//     it owes;
//   - shared-record-ids: in a lock whose references are ids (nodes =
//     "array"), every process names process 0's records, so processes
//     share queue nodes. Not a waiting-layer bug but one in the id
//     numbering beside it: Explore must find the violation, whatever its
//     kind.
func TestWaitingLayerControls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a package per control: skipped in -short")
	}
	park := wait.Park
	cases := []struct {
		name          string
		runtime, code string // the runtime control, the lowering control
		locks         []string
		wait          wait.Policy
		mode          mode.Mode
		pref          templates.Preference // for mode.RW
		anyFailure    bool                 // Explore must find a violation of any kind, not a deadlock
		nodes         nodes.Policy         // "": each algorithm's default
	}{
		{"correct", "", "", []string{"ticket", "mcs", "clh", "tas", "ttas", "replace-add"}, park, mode.Mutex, "", false, ""},
		{"correct-adaptive", "", "", []string{"ticket", "mcs", "tas", "replace-add"}, wait.Adaptive, mode.Mutex, "", false, ""},
		{"correct-rw", "", "", []string{"mcs-rw"}, park, mode.RW, templates.ReaderPref, false, ""},
		{"check-before-announce", "", "check-before-announce", []string{"ticket", "mcs", "clh", "ttas"}, park, mode.Mutex, "", false, ""},
		{"skip-wake", "skip-wake", "", []string{"ticket", "mcs", "tas"}, park, mode.Mutex, "", false, ""},
		{"skip-wake-rw", "skip-wake", "", []string{"mcs-rw"}, park, mode.RW, templates.ReaderPref, false, ""},
		{"one-kind-wake", "", "one-kind-wake", []string{"mcs-rw"}, park, mode.RW, templates.ReaderPref, false, ""},
		{"keep-the-wake", "keep-the-wake", "", []string{"tas", "ttas", "replace-add"}, park, mode.Mutex, "", false, ""},
		{"guard-ignores-sleepers", "", "guard-ignores-sleepers", []string{"tas", "ttas"}, park, mode.Mutex, "", false, ""},
		{"wrong-key-guard", "", "wrong-key-guard", []string{"mcs-rw"}, park, mode.RW, templates.ReaderPref, false, ""},
		{"wrong-ticket-slot", "", "wrong-ticket-slot", []string{"ticket"}, park, mode.Mutex, "", false, ""},
		{"stale-fused-check", "", "stale-fused-check", []string{"mcs-rw"}, park, mode.RW, templates.ReaderPref, true, ""},
		{"correct-ids", "", "", []string{"mcs", "clh", "dvir-taubenfeld-1", "dvir-taubenfeld-2"}, park, mode.Mutex, "", false, nodes.Array},
		{"shared-record-ids", "", "shared-record-ids", []string{"mcs", "clh", "dvir-taubenfeld-1", "dvir-taubenfeld-2"}, park, mode.Mutex, "", true, nodes.Array},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, importPath := testPackage(t, "control-"+tc.name)
			pkg := "c" + strings.ReplaceAll(tc.name, "-", "")
			var tests strings.Builder
			fmt.Fprintf(&tests, "//go:build lockgen_check\n\npackage %s_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/lockgen/lockgen/verify\"\n\t\"github.com/lockgen/lockgen/verify/sched\"\n)\n\nvar _ = sched.FailDeadlock\n", pkg)
			for i, alg := range tc.locks {
				e, ok := templates.Lookup(alg)
				if !ok {
					t.Fatalf("no algorithm %s", alg)
				}
				nodes := e.DefaultNodes
				if tc.nodes != "" {
					nodes = tc.nodes
				}
				c := Config{
					Name: fmt.Sprintf("L%d", i), Package: pkg, ImportPath: importPath,
					Entry: e, Alg: e.MustDef(templates.Options{Mode: tc.mode, Preference: tc.pref}), Mode: tc.mode, Preference: tc.pref,
					Nodes: nodes, Padding: 64, Wait: tc.wait, Spin: 16, WaitControl: tc.code,
					Params:   e.SmallParams(tc.mode, nodes),
					SpecPath: "control", SpecHash: "0", SpecEcho: tc.name,
				}
				lock, err := Lock(c)
				if err != nil {
					t.Fatalf("%s: %v", alg, err)
				}
				gt, err := Tests(c)
				if err != nil {
					t.Fatalf("%s: %v", alg, err)
				}
				// The generated stress test file carries the subject; its
				// check test is replaced by the control's expectation.
				files := []File{lock, gt[0]}
				for _, f := range files {
					if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				subject := SubjectFunc(c.Name) + "()"
				if tc.runtime == "" && tc.code == "" {
					fmt.Fprintf(&tests, "\nfunc TestControl%s(t *testing.T) { verify.Explore(t, %s) } // %s\n", c.Name, subject, alg)
				} else if tc.anyFailure {
					fmt.Fprintf(&tests, "\nfunc TestControl%s(t *testing.T) { verify.ExploreFindsAny(t, %s) } // %s\n", c.Name, subject, alg)
				} else {
					fmt.Fprintf(&tests, "\nfunc TestControl%s(t *testing.T) { verify.ExploreFinds(t, %s, sched.FailDeadlock) } // %s\n", c.Name, subject, alg)
				}
			}
			rt, err := RuntimeControl(pkg, tc.runtime)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rt {
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "control_check_test.go"), []byte(tests.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "test", "-tags", "lockgen_check", "-count=1", "-run", "^TestControl", ".")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("control %s on %s: %v\n%s", tc.name, strings.Join(tc.locks, ", "), err, out)
			}
			t.Logf("control %s: %s", tc.name, strings.TrimSpace(string(out)))
		})
	}
}

// TestRuntimeControlNamesExist keeps the controls' markers in lockrt.
func TestRuntimeControlNamesExist(t *testing.T) {
	for _, c := range []string{"skip-wake", "keep-the-wake"} {
		if _, err := RuntimeControl("p", c); err != nil {
			t.Error(err)
		}
	}
	if _, err := RuntimeControl("p", "no-such-control"); err == nil {
		t.Error("RuntimeControl accepted a control no line is marked for")
	}
	files, err := RuntimeControl("p", "skip-wake")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(string(f.Data), "q.wakeSlow(l, val)") {
			t.Errorf("%s: skip-wake left the wake in place", f.Name)
		}
	}
}
