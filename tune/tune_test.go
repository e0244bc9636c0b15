package tune

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/internal/tmpmod"
	"github.com/lockgen/lockgen/spec"
)

// target writes a module with the spec src in dir/lockpkg and returns
// the target of its lock i.
func target(t *testing.T, src string, i int) *Target {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "lockpkg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "locks.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := spec.Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := NewTarget(f, []byte(src), i)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

const rwSpec = `# The cache's lock.
[[lock]]
name = "RW"
package = "lockpkg"
algorithm = "mcs-rw"
mode = "rw"
preference = "fair" # arrival order
wait = "park"
`

// TestResolve: a candidate keeps the target's API and the keys that make
// it, takes its own knobs, and is refused, with the reason, where it
// cannot stand in for the target.
func TestResolve(t *testing.T) {
	tg := target(t, rwSpec, 0)
	if got := tg.NameOf(tg.Lock); got != "mcs-rw:wait=park" {
		t.Errorf("the current variant is named %q, want mcs-rw:wait=park (fair is mcs-rw's first preference)", got)
	}
	c, err := tg.Resolve("mcs-rw:preference=reader")
	if err != nil {
		t.Fatal(err)
	}
	if c.Lock.Preference != "reader" || c.Lock.Wait != "adaptive" || c.Lock.Name != "RW" || !c.Lock.Mode.Readers() {
		t.Errorf("resolved to %+v", c.Lock)
	}
	if std, err := tg.Resolve("std"); err != nil || !std.Standard || std.Name != "sync.RWMutex" {
		t.Errorf("std = %+v, %v", std, err)
	}
	for name, want := range map[string]string{
		"ticket":                       "not applicable", // no reader/writer mode
		"mcs-rw:preference=sideways":   "not applicable",
		"nosuch":                       "unknown algorithm",
		"mcs-rw:name=Other":            "a candidate sets only",
		"mcs-rw:padding=x":             "want an integer",
		"hyman":                        "negative control",
		"mcs-rw:preference":            "not KEY=VALUE",
		"mcs-rw:preference=reader:k=2": "a candidate sets only",
	} {
		_, err := tg.Resolve(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) = %v, want an error saying %q", name, err, want)
		}
	}

	// A mutex with handles: candidates keep handles, and an algorithm
	// without nodes (another API) is refused.
	mtg := target(t, "[[lock]]\nname = \"M\"\npackage = \"lockpkg\"\nalgorithm = \"mcs\"\nnodes = \"handle\"\n", 0)
	if c, err := mtg.Resolve("clh"); err != nil || c.Lock.Nodes != "handle" {
		t.Errorf("clh for a handle lock: %+v, %v", c, err)
	}
	if _, err := mtg.Resolve("ticket"); !errors.Is(err, errNotApplicable) {
		t.Errorf("ticket for a handle lock: %v, want not applicable (another API)", err)
	}
	if _, err := mtg.Resolve("mcs:nodes=pool"); !errors.Is(err, errNotApplicable) {
		t.Errorf("mcs with pool nodes for a handle lock: %v, want not applicable", err)
	}
}

// TestDefaults: the current variant and the standard lock first, then
// distinct variants of the same API, at most max.
func TestDefaults(t *testing.T) {
	tg := target(t, rwSpec, 0)
	cs := tg.Defaults(8)
	if len(cs) < 4 || !cs[0].Current || !cs[1].Standard {
		t.Fatalf("defaults %v", names(cs))
	}
	seen := map[string]bool{}
	for _, c := range cs[1:] {
		echo := c.Lock.TOML()
		if c.Standard {
			continue
		}
		if seen[echo] || echo == tg.Lock.TOML() {
			t.Errorf("%s repeats a variant", c.Name)
		}
		seen[echo] = true
		if again, err := tg.Resolve(c.Name); err != nil || again.Lock.TOML() != echo {
			t.Errorf("%s does not resolve to itself: %v", c.Name, err)
		}
	}
	if got := len(tg.Defaults(3)); got != 3 {
		t.Errorf("Defaults(3) has %d", got)
	}
	pool := target(t, "[[lock]]\nname = \"M\"\npackage = \"lockpkg\"\nalgorithm = \"mcs\"\nnodes = \"pool\"\n", 0)
	if cs := pool.Defaults(20); !slices.Contains(names(cs), "mcs:nodes=heap") || slices.Contains(names(cs), "mcs:nodes=handle") {
		t.Errorf("an MCS lock with pooled nodes: defaults %v, want the heap's nodes and no handles", names(cs))
	}
	mtx := target(t, "[[lock]]\nname = \"M\"\npackage = \"lockpkg\"\nalgorithm = \"ticket\"\n", 0)
	if cs := mtx.Defaults(8); cs[1].Name != "sync.Mutex" || slices.Contains(names(cs), "ticket") {
		t.Errorf("mutex defaults %v", names(cs))
	}
}

func names(cs []*Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// TestOverlay: a generated candidate replaces the lock's file; the
// standard lock replaces it and its tests and deletes the check test,
// which it has none of. Nothing is written to disk.
func TestOverlay(t *testing.T) {
	tg := target(t, rwSpec, 0)
	lockFile := filepath.Join(tg.Dir, "rw.go")
	c, err := tg.Resolve("mcs-rw:preference=reader")
	if err != nil {
		t.Fatal(err)
	}
	ov, err := tg.overlay(c, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ov.Write[lockFile]), `preference = "reader"`) {
		t.Errorf("the candidate's lock file is not the reader-preference lock")
	}
	std, err := tg.overlay(tg.Standard(), "", false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(std.Write[lockFile]), "sync.RWMutex") || !slices.Contains(std.Delete, filepath.Join(tg.Dir, "rw_check_test.go")) {
		t.Errorf("standard overlay: lock %q, deletes %v", std.Write[lockFile], std.Delete)
	}
	if _, err := os.Stat(lockFile); err == nil {
		t.Errorf("the overlay wrote into the user's tree")
	}
}

// outcome makes an outcome with rounds of times on benchmarks a and b.
func outcome(name string, cur bool, a, b []float64) *Outcome {
	o := &Outcome{Candidate: &Candidate{Name: name, Current: cur}, Status: Measured}
	for i := range a {
		o.Samples = append(o.Samples, sample{"A": a[i], "B": b[i]})
	}
	return o
}

// noisy is n times around center, spread ±spread, reproducibly.
func noisy(r *rand.Rand, n int, center, spread float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = center * (1 + spread*(2*r.Float64()-1))
	}
	return out
}

// TestAnalyse: a candidate 30% faster on both benchmarks beats the
// current one; one that only matches it does not (the negative control);
// one faster only on a benchmark the objective does not weigh does not.
func TestAnalyse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cur := outcome("current", true, noisy(r, 10, 100e-9, 0.05), noisy(r, 10, 50e-9, 0.05))
	fast := outcome("fast", false, noisy(r, 10, 70e-9, 0.05), noisy(r, 10, 35e-9, 0.05))
	same := outcome("same", false, noisy(r, 10, 100e-9, 0.05), noisy(r, 10, 50e-9, 0.05))
	onlyB := outcome("onlyB", false, noisy(r, 10, 100e-9, 0.05), noisy(r, 10, 20e-9, 0.05))
	all := []*Outcome{cur, fast, same, onlyB}
	analyse(all, []string{"A", "B"}, Objective{})
	if !fast.Ratio.Beats() || fast.Ratio.Center > 0.75 || fast.Ratio.Center < 0.65 {
		t.Errorf("fast: %s, want about 0.70× and beating", fast.Ratio)
	}
	if same.Ratio.Beats() {
		t.Errorf("same beats the current variant: %s", same.Ratio)
	}
	if c := fast.Cells["A"]; c.Delta == "~" || !strings.HasPrefix(c.Delta, "-") || c.P > 0.05 {
		t.Errorf("fast on A: %+v, want a significant decrease", c)
	}
	if c := same.Cells["A"]; c.Delta != "~" && c.P < 0.01 {
		t.Errorf("same on A: %+v, want ~", c)
	}
	if got := ranked(all); len(got) != 2 || got[0] != onlyB || got[1] != fast {
		t.Errorf("ranked %v, want onlyB (0.6×) then fast (0.7×)", got)
	}
	obj, err := ParseObjective("A=1")
	if err != nil {
		t.Fatal(err)
	}
	analyse(all, []string{"A", "B"}, obj)
	if onlyB.Ratio.Beats() || !fast.Ratio.Beats() {
		t.Errorf("weighted on A: onlyB %s, fast %s; want only fast to win", onlyB.Ratio, fast.Ratio)
	}
	if err := obj.check([]string{"B"}); err == nil {
		t.Error("an objective on a benchmark not run was accepted")
	}
	// Too few rounds: no finite interval, no win.
	few := []*Outcome{outcome("current", true, []float64{1, 1}, []float64{1, 1}), outcome("x", false, []float64{0.5, 0.5}, []float64{0.5, 0.5})}
	analyse(few, []string{"A", "B"}, Objective{})
	if few[1].Ratio.Beats() {
		t.Errorf("two rounds gave a win: %s", few[1].Ratio)
	}
}

// TestParseBench reads go test's output as benchstat does.
func TestParseBench(t *testing.T) {
	out := "goos: linux\ngoarch: amd64\npkg: example.com/cache\ncpu: Something\n" +
		"BenchmarkCacheSetNotExpiring-2   \t 1000000\t       95.30 ns/op\n" +
		"BenchmarkSub/size=10-2 \t  200\t 5000 ns/op\t 16 B/op\t 1 allocs/op\n" +
		"PASS\n"
	s, err := parseBench([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if v := s["CacheSetNotExpiring"]; v < 95.29e-9 || v > 95.31e-9 {
		t.Errorf("CacheSetNotExpiring = %g s/op", v)
	}
	if v := s["Sub/size=10"]; v != 5000e-9 {
		t.Errorf("Sub/size=10 = %g (%v)", v, s)
	}
}

// TestWrite: -write edits the lock in place with the evidence above it,
// keeps the user's comments, and regenerates; the diff names the lines.
func TestWrite(t *testing.T) {
	tg := target(t, rwSpec, 0)
	c, err := tg.Resolve("mcs-rw:preference=reader")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	cur := outcome("current", true, noisy(r, 8, 100e-9, 0.02), noisy(r, 8, 100e-9, 0.02))
	cur.Candidate = tg.Current()
	win := outcome(c.Name, false, noisy(r, 8, 60e-9, 0.02), noisy(r, 8, 60e-9, 0.02))
	win.Candidate = c
	res := &Result{Target: tg, Outcomes: []*Outcome{cur, win}, Benchmarks: []string{"A", "B"}, Winner: win,
		Packages: []string{"example.com/m/lockpkg"}, Opts: Options{Bench: ".", Benchtime: "100ms"}}
	analyse(res.Outcomes, res.Benchmarks, Objective{})
	diff, err := res.SpecDiff()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`-7: preference = "fair" # arrival order`, `-8: wait = "park"`, `+7: preference = "reader" # arrival order`}
	if !slices.Equal(diff, want) {
		t.Errorf("diff %q, want %q", diff, want)
	}
	if _, err := res.Write(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if !strings.HasPrefix(s, "# The cache's lock.\n# tune: lockgen tune, ") || !strings.Contains(s, `preference = "reader" # arrival order`) ||
		strings.Contains(s, "wait =") || !strings.Contains(s, "# tune:   A: -4") {
		t.Errorf("spec after -write:\n%s", s)
	}
	lock, err := os.ReadFile(filepath.Join(tg.Dir, "rw.go"))
	if err != nil || !strings.Contains(string(lock), `preference = "reader"`) {
		t.Errorf("not regenerated with the winner: %v", err)
	}

	// The standard lock cannot be written into a spec.
	res.Winner = &Outcome{Candidate: tg.Standard()}
	if _, err := res.Write(); !errors.As(err, new(ErrStandardWins)) {
		t.Errorf("writing the standard lock: %v", err)
	}
}

// TestStandardSemaphore: the standard k-exclusion lock imports x/sync's
// semaphore, which a user's module need not require: its benchmarks build
// on tmpmod's copy of the go.mod, and the user's go.mod and go.sum stay
// as they were.
func TestStandardSemaphore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary in a fresh module")
	}
	src := "[[lock]]\nname = \"Sem\"\npackage = \"sem\"\nalgorithm = \"replace-add\"\nmode = \"kexclusion\"\nk = 2\n"
	use := "package sem\n\nimport \"testing\"\n\nfunc BenchmarkSem(b *testing.B) {\n\tvar s Sem\n\tfor b.Loop() {\n\t\ts.Lock()\n\t\ts.Unlock()\n\t}\n}\n"
	root, f := userModule(t, src, map[string]string{"sem_bench_test.go": use})
	if data, _ := os.ReadFile(filepath.Join(root, "go.mod")); strings.Contains(string(data), "golang.org/x/sync") {
		t.Fatalf("the fixture's go.mod already requires x/sync:\n%s", data)
	}
	before := map[string]string{}
	for _, n := range []string{"go.mod", "go.sum"} {
		data, _ := os.ReadFile(filepath.Join(root, n))
		before[n] = string(data)
	}
	tg, err := NewTarget(f, []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	o := &Outcome{Candidate: tg.Standard()}
	tmp := t.TempDir()
	ctx := context.Background()
	// The go command on the module's own go.mod refuses the import
	// (-mod=readonly: "updates to go.mod needed"), the negative control of
	// the copy.
	mod, err := tmpmod.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close()
	g := &goTool{dir: root, mod: mod}
	pkgs, err := g.packages(ctx, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := tg.overlay(o.Candidate, "", false)
	if err != nil {
		t.Fatal(err)
	}
	file, err := ov.save(filepath.Join(tmp, "plain"))
	if err != nil {
		t.Fatal(err)
	}
	plain := exec.Command("go", "test", "-c", "-o", filepath.Join(tmp, "plain.test"), "-overlay", file, pkgs[0].ImportPath)
	plain.Dir = root
	if out, err := plain.CombinedOutput(); err == nil || !strings.Contains(string(out), "go.mod") {
		t.Fatalf("the standard k-exclusion lock built on the module's own go.mod (%v): the fixture does not test the copy\n%s", err, out)
	}
	if err := build(ctx, g, tg, o, pkgs, filepath.Join(tmp, "std"), ""); err != nil || len(o.bins) != 1 {
		t.Fatalf("build: %v (%d binaries)", err, len(o.bins))
	}
	s, err := measure(ctx, o, Options{Bench: ".", Benchtime: "100x"})
	if err != nil || s["Sem"] <= 0 {
		t.Fatalf("measure: %v %v", s, err)
	}
	for n, data := range before {
		if now, _ := os.ReadFile(filepath.Join(root, n)); string(now) != data {
			t.Errorf("%s changed", n)
		}
	}
}

// userModule makes a module outside this repository that requires
// lockgen through a replace directive to this checkout, with the spec
// src and files at its root, the spec generated and the module tidied.
func userModule(t *testing.T, src string, files map[string]string) (string, *spec.File) {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	gomod := "module example.com/user\n\ngo 1.26\n\nrequire github.com/lockgen/lockgen v0.0.0\n\nreplace github.com/lockgen/lockgen => " + repo + "\n"
	files["locks.toml"], files["go.mod"] = src, gomod
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := spec.Parse(filepath.Join(root, "locks.toml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := gen.BuildFiles([]*spec.File{f}, gen.Options{})
	if err == nil {
		_, err = plan.Write()
	}
	if err != nil {
		t.Fatal(err)
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = root
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	return root, f
}

// TestCheckWinner: the best candidate's own tests run under -race before
// it is recommended; where they fail (here a TestMain of the user's that
// fails every test binary of the package, the negative control), the
// candidate is dropped with the go command's output and the next one
// checked, and none is recommended when none passes.
func TestCheckWinner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs race builds in a fresh module")
	}
	src := "[[lock]]\nname = \"RW\"\npackage = \"user\"\nalgorithm = \"mcs-rw\"\nmode = \"rw\"\n"
	root, f := userModule(t, src, map[string]string{})
	tg, err := NewTarget(f, []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	reader, err := tg.Resolve("mcs-rw:preference=reader")
	if err != nil {
		t.Fatal(err)
	}
	// Both beat the current variant; the reader-preference lock more.
	r := rand.New(rand.NewPCG(5, 6))
	result := func() *Result {
		cur := outcome("current", true, noisy(r, 8, 100e-9, 0.02), noisy(r, 8, 100e-9, 0.02))
		cur.Candidate = tg.Current()
		rd := outcome(reader.Name, false, noisy(r, 8, 50e-9, 0.02), noisy(r, 8, 50e-9, 0.02))
		rd.Candidate = reader
		std := outcome("std", false, noisy(r, 8, 70e-9, 0.02), noisy(r, 8, 70e-9, 0.02))
		std.Candidate = tg.Standard()
		res := &Result{Target: tg, Outcomes: []*Outcome{cur, rd, std}, Benchmarks: []string{"A", "B"}, Opts: Options{Stress: 100 * time.Millisecond}}
		analyse(res.Outcomes, res.Benchmarks, Objective{})
		return res
	}
	ctx := context.Background()
	say := func(string, ...any) {}
	mod, err := tmpmod.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close()
	g := &goTool{dir: root, mod: mod}
	res := result()
	if err := checkWinner(ctx, g, tg, res, t.TempDir(), say); err != nil {
		t.Fatal(err)
	}
	if res.Winner != res.Outcomes[1] || res.Winner.Status != TestsPassed || !slices.Contains(res.Tests, "TestRWStress") {
		t.Fatalf("winner %v, tests %v; want the reader-preference lock after TestRWStress passed", res.Winner, res.Tests)
	}

	failing := "package user_test\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tfmt.Println(\"planted failure\")\n\tos.Exit(1)\n}\n"
	if err := os.WriteFile(filepath.Join(root, "main_test.go"), []byte(failing), 0o644); err != nil {
		t.Fatal(err)
	}
	res = result()
	if err := checkWinner(ctx, g, tg, res, t.TempDir(), say); err != nil {
		t.Fatal(err)
	}
	if res.Winner != nil {
		t.Fatalf("recommended %s although its tests fail", res.Winner.Candidate.Name)
	}
	for _, o := range res.Outcomes[1:] {
		if o.Status != TestsFailed || !strings.Contains(o.Reason, "planted failure") {
			t.Errorf("%s: %s, %q; want tests failed with the test's output", o.Candidate.Name, o.Status, o.Reason)
		}
	}
}
