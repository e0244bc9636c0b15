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

// matrixGroups is how many packages hold the matrix: two, so that the
// two go test runs keep both cores busy while each builds and links once.
const matrixGroups = 2

// TestMatrix lowers every catalogue algorithm in every mode, preference,
// supported node policy and allowed waiting policy (paddings, TryLock and,
// for abortable entries, LockContext varied along), and requires every configuration to pass go vet and its
// generated stress and misuse tests under -race. This is what backs the
// claim that every policy the catalogue accepts works.
//
// The configurations share matrixGroups packages (lock M<algorithm>L<i>
// is configuration i of an algorithm): one package per algorithm built
// and linked 28 race-instrumented test binaries, 3 s of CPU each, more
// than their stress runs took. Each algorithm is still a subtest, which
// passes when every test of its configurations passed.
//
// Each configuration's stress runs for 100 ms (LOCKGEN_STRESS, unless set):
// the catalogue's own packages under generated/ stress each lock for the
// default 250 ms, and at that length the matrix's stress was a quarter
// of its time (MCS's package: 14.8 s, and 10.9 s at 100 ms).
func TestMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and stress-tests every configuration: skipped in -short")
	}
	var groups [matrixGroups][]*templates.Entry
	i := 0
	for _, e := range templates.All() {
		if e.NegativeControl() {
			continue // known-wrong or timing-dependent: their generated tests require a violation
		}
		groups[i%matrixGroups] = append(groups[i%matrixGroups], e)
		i++
	}
	for g, entries := range groups {
		t.Run(fmt.Sprintf("group%d", g), func(t *testing.T) {
			t.Parallel()
			matrixGroup(t, g, entries)
		})
	}
}

// matrixGroup writes every configuration of entries into one package,
// vets it, runs its tests under -race, and reports each entry as a
// subtest.
func matrixGroup(t *testing.T, g int, entries []*templates.Entry) {
	pkg := fmt.Sprintf("matrix%d", g)
	dir, importPath := testPackage(t, pkg)
	names := map[string][]string{}  // entry → its configurations' lock names
	describe := map[string]string{} // lock name → its configuration
	for _, e := range entries {
		for n, c := range configs(e) {
			c.Name = fmt.Sprintf("M%sL%d", strings.ReplaceAll(e.Name, "-", ""), n+1)
			c.Package = pkg
			c.ImportPath = importPath
			c.SpecPath, c.SpecHash, c.SpecEcho = "matrix", "0", c.describe()
			lock, err := Lock(c)
			if err != nil {
				t.Fatalf("%s: %s: %v", e.Name, c.describe(), err)
			}
			tests, err := Tests(c)
			if err != nil {
				t.Fatalf("%s: %s: %v", e.Name, c.describe(), err)
			}
			for _, f := range append(tests, lock) {
				if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			names[e.Name] = append(names[e.Name], c.Name)
			describe[c.Name] = c.describe()
		}
	}
	rt, err := Runtime(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rt {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command("go", "vet", ".")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet on %d configurations: %v\n%s", len(describe), err, out)
	}
	test := exec.Command("go", "test", "-race", "-count=1", "-json", ".")
	test.Dir = dir
	test.Env = append(os.Environ(), matrixStress...)
	out, runErr := test.Output()
	results := testResults(out)
	if len(results) == 0 {
		t.Fatalf("go test -race on %d configurations ran no test: %v\n%s", len(describe), runErr, out)
	}
	for _, e := range entries {
		t.Run(e.Name, func(t *testing.T) {
			for _, name := range names[e.Name] {
				requireTestsOf(t, results, name, describe[name], fmt.Sprint(runErr))
			}
			if !t.Failed() {
				t.Logf("%d configurations vet clean and pass stress under -race", len(names[e.Name]))
			}
		})
	}
}

// matrixStress is the environment that shortens the matrix's stress runs.
var matrixStress = func() []string {
	if os.Getenv("LOCKGEN_STRESS") != "" {
		return nil
	}
	return []string{"LOCKGEN_STRESS=100ms"}
}()

func (c Config) describe() string {
	return fmt.Sprintf("mode=%s pref=%s nodes=%s wait=%s padding=%d trylock=%v context=%v n=%d k=%d",
		c.Mode, c.Preference, c.Nodes, c.Wait, c.Padding, c.TryLock, c.Context, c.Params.N, c.Params.K)
}

// configs enumerates the configurations of an entry that the spec accepts.
func configs(e *templates.Entry) []Config {
	var opts []templates.Options
	for _, m := range e.Modes {
		if m == mode.RW && len(e.Preferences) > 0 {
			for _, p := range e.Preferences {
				opts = append(opts, templates.Options{Mode: m, Preference: p})
			}
			continue
		}
		opts = append(opts, templates.Options{Mode: m})
	}
	policies := []nodes.Policy{nodes.None}
	if e.HasNodes() {
		policies = nil
		for _, p := range nodes.All {
			if why, ok := e.Nodes[p]; ok && why == "" {
				policies = append(policies, p)
			}
		}
	}
	var out []Config
	i := 0
	for _, o := range opts {
		for _, np := range policies {
			for _, w := range wait.All {
				if _, bad := e.Waits[w]; bad {
					continue
				}
				i++
				c := Config{
					Entry: e, Alg: e.MustDef(o), Mode: o.Mode, Preference: o.Preference,
					Nodes: np, Wait: w, Spin: 16,
					Padding: []int{0, 64, 128}[i%3],
					TryLock: e.TryLock == "" && i%2 == 0,
					// LockContext on the other half, where the spec accepts it.
					Context: e.Abortable() && !o.Mode.Readers() && i%2 == 1,
					Params:  e.SmallParams(o.Mode, np),
				}
				out = append(out, c)
			}
		}
	}
	return out
}
