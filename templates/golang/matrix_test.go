package golang

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// TestMatrix lowers every catalogue algorithm in every mode, preference,
// supported node policy and allowed waiting policy (paddings and TryLock
// varied along), one package per algorithm, and requires each package to
// pass go vet and its generated stress and misuse tests under -race. This is
// what backs the claim that every policy the catalogue accepts works.
//
// Each configuration's stress runs for 100 ms (LOCKGEN_STRESS, unless set):
// the catalogue's own packages under generated/ stress each lock for the
// default 250 ms, and at that length the matrix's stress was a quarter
// of its time (MCS's package: 14.8 s, and 10.9 s at 100 ms).
func TestMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and stress-tests every configuration: skipped in -short")
	}
	for _, e := range templates.All() {
		if e.NegativeControl() {
			continue // known-wrong or timing-dependent: their generated tests require a violation
		}
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			pkg := "m" + strings.ReplaceAll(e.Name, "-", "")
			dir, importPath := testPackage(t, "matrix-"+e.Name)
			n := 0
			for _, c := range configs(e) {
				n++
				c.Name = fmt.Sprintf("L%d", n)
				c.Package = pkg
				c.ImportPath = importPath
				c.SpecPath, c.SpecHash, c.SpecEcho = "matrix", "0", c.describe()
				lock, err := Lock(c)
				if err != nil {
					t.Fatalf("%s: %v", c.describe(), err)
				}
				tests, err := Tests(c)
				if err != nil {
					t.Fatalf("%s: %v", c.describe(), err)
				}
				for _, f := range append(tests, lock) {
					if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			rt, err := Runtime(pkg)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rt {
				os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644)
			}
			for _, args := range [][]string{{"vet", "."}, {"test", "-race", "-count=1", "."}} {
				cmd := exec.Command("go", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), matrixStress...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("go %s on %d configurations of %s: %v\n%s", strings.Join(args, " "), n, e.Name, err, out)
				}
			}
			t.Logf("%d configurations vet clean and pass stress under -race", n)
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
	return fmt.Sprintf("mode=%s pref=%s nodes=%s wait=%s padding=%d trylock=%v n=%d k=%d",
		c.Mode, c.Preference, c.Nodes, c.Wait, c.Padding, c.TryLock, c.Params.N, c.Params.K)
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
	nodes := []templates.NodePolicy{templates.NodesNone}
	if e.HasNodes() {
		nodes = nil
		for _, p := range templates.AllNodePolicies {
			if why, ok := e.Nodes[p]; ok && why == "" {
				nodes = append(nodes, p)
			}
		}
	}
	var out []Config
	i := 0
	for _, o := range opts {
		for _, np := range nodes {
			for _, w := range templates.AllWaitPolicies {
				if _, bad := e.Waits[w]; bad {
					continue
				}
				i++
				c := Config{
					Entry: e, Alg: e.MustDef(o), Mode: o.Mode, Preference: o.Preference,
					Nodes: np, Wait: w, Spin: 16,
					Padding: []int{0, 64, 128}[i%3],
					TryLock: e.TryLock == "" && i%2 == 0,
					Params:  e.SmallParams(o.Mode, np),
				}
				out = append(out, c)
			}
		}
	}
	return out
}
