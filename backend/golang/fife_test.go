package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestFIFECheckBites: Zehavi's k-exclusion without line 12 (the Allow
// writes an enabled process leaves for those ordered before it) is still
// a starvation-free k-exclusion lock, but no longer FIFE: a process
// overtaken by a later one waits until others leave. The controlled
// scheduler must report FIFE for it, and pass the lock as the paper
// writes it.
func TestFIFECheckBites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a package: skipped in -short")
	}
	e, ok := templates.Lookup("zehavi")
	if !ok {
		t.Fatal("no zehavi entry")
	}
	dir, importPath := testPackage(t, "fife")
	pkg := "cfife"
	paper := e.MustDef(templates.Options{Mode: mode.KExclusion})
	noAllow := e.MustDef(templates.Options{Mode: mode.KExclusion})
	var kept ir.Code
	for _, s := range noAllow.Acquire {
		if s.Label() != "12" {
			kept = append(kept, s)
		}
	}
	if len(kept) != len(noAllow.Acquire)-1 {
		t.Fatalf("line 12 is not one statement of zehavi's acquire (%d of %d kept)", len(kept), len(noAllow.Acquire))
	}
	noAllow.Acquire = kept
	for _, l := range []struct {
		name string
		alg  *ir.Algorithm
	}{{"Paper", paper}, {"NoAllow", noAllow}} {
		c := Config{
			Name: l.name, Package: pkg, ImportPath: importPath, Entry: e, Alg: l.alg, Mode: mode.KExclusion,
			Nodes: e.DefaultNodes, Padding: 64, Wait: wait.Park, Spin: 16,
			Params: e.SmallParams(mode.KExclusion, e.DefaultNodes), SpecPath: "fife", SpecHash: "0", SpecEcho: l.name,
		}
		lock, err := Lock(c)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := Tests(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []File{lock, tests[0]} { // the subject; the check test is ours
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rt, err := Runtime(pkg)
	if err != nil {
		t.Fatal(err)
	}
	check := `//go:build lockgen_check

package cfife_test

import (
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
)

func TestPaperIsFIFE(t *testing.T) { verify.Explore(t, paperSubject(), verify.ExploreCrashes(0)) }

// The violation needs four processes in one interleaving. Time-sliced
// phases on a clock seed missed it twice on a loaded machine (in 2 s, then
// in 15 s): PCT alone on a fixed seed runs the same executions on any
// machine (seed 1 finds it at execution 173, 2 s while a mutation run held
// both cores), and the budget is only a bound.
func TestNoAllowIsNotFIFE(t *testing.T) {
	verify.ExploreFinds(t, noAllowSubject(), verify.ExploreFIFE, verify.ExploreCrashes(0), verify.ExploreSeed(1),
		verify.ExploreRandom(0), verify.ExplorePCT(100000, 4), verify.ExploreDFSLimit(0), verify.ExploreBudget(time.Minute))
}
`
	for _, f := range append(rt, File{Name: "fife_check_test.go", Data: []byte(check)}) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-tags", "lockgen_check", "-count=1", "-v", "-run", "^Test", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestNoAllowIsNotFIFE") {
		t.Errorf("the FIFE control did not run:\n%s", out)
	}
	t.Logf("%s", out)
}
