package golang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/templates/distributed"
)

// writeNetworkPackage generates entry name as lock type typ into a fresh
// test package, with its runtime and tests.
func writeNetworkPackage(t *testing.T, name, typ string) string {
	t.Helper()
	e, ok := distributed.Lookup(name)
	if !ok {
		t.Fatalf("no entry %s", name)
	}
	dir, _ := testPackage(t, "net-"+name)
	pkg := "netpkg"
	c := NetConfig{Name: typ, Package: pkg, Entry: e, SpecPath: "locks.toml", SpecHash: "0123456789abcdef"}
	lock, err := NetworkLock(c)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := NetworkTests(c)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := NetRuntime(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []File{lock, tests, rt} {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every generated distributed lock compiles, vets, imports only the
// standard library, and passes its own tests under the race detector.
func TestNetworkLockPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated packages")
	}
	for _, e := range distributed.All() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			networkLockPasses(t, e.Name)
		})
	}
}

func networkLockPasses(t *testing.T, name string) {
	dir := writeNetworkPackage(t, name, "L")
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(imp, ".") {
			t.Errorf("the generated lock imports %s: only the standard library is allowed", imp)
		}
	}
	for _, args := range [][]string{{"vet", "."}, {"test", "-race", "-count=1", "-v", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("go %s:\n%s", strings.Join(args, " "), out)
	}
}

// findTest requires netstress to find a violation in the package's lock.
const findTest = `package netpkg

import (
	"testing"
	"time"

	"github.com/lockgen/lockgen/transport/inproc"
	"github.com/lockgen/lockgen/verify/netstress"
)

func TestFinds(t *testing.T) {
	for attempt := range 5 {
		s := netstress.Subject{New: func(self, n int, tr netstress.Transport) (netstress.Lock, error) { return NewL(self, n, tr) }}
		s.Timeout = 3 * time.Second
		s.Network = NETWORK
		r := netstress.Find(s)
		if len(r.Violations) > 0 {
			t.Logf("attempt %d: %s", attempt, r.Violations[0])
			return
		}
	}
	t.Fatal("no violation in 5 runs")
}
`

// The checks of the generated distributed lock bite: netstress finds the
// definition-level controls (one paper line removed), the network that
// reorders messages between a pair (which dCREW needs in order), and the
// runtime that lets a handler run before the routine it enabled.
func TestNetworkControlsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated packages")
	}
	controls, err := distributed.Controls()
	if err != nil {
		t.Fatal(err)
	}
	inOrder := "inproc.Options{Delay: func() time.Duration { return time.Duration(time.Now().UnixNano()%50) * time.Microsecond }}"
	type variant struct {
		name, entry, network, runtime string
		alg                           *distributed.Control
	}
	variants := []variant{
		{name: "dcrew over a reordering network", entry: "dcrew", network: "inproc.Options{Reorder: true, Delay: func() time.Duration { return time.Duration(time.Now().UnixNano()%200) * time.Microsecond }}"},
		{name: "dcrew on a resume-later runtime", entry: "dcrew", network: inOrder, runtime: "resume-later"},
	}
	// Controls whose violation netstress's back-to-back passages do not
	// reach, and what catches them instead.
	missed := map[string]string{
		"carvalho-roucairol-not-using": "the overlap needs a process re-entering on the permissions it kept while a request with a smaller sequence number is on its way, a light-load interleaving; SPIN finds it in 110 states (verify/spin TestNetworkControls)",
		"le-lann-drop-unwanted":        "the token is lost only where it reaches a process that does not want it while others still do; with back-to-back passages every process wants it until the last round, which ends in ring order (caught once in two local runs, missed in a clean-clone run); SPIN finds it (verify/spin TestNetworkControls)",
	}
	for i := range controls {
		if controls[i].Breaks == "fcfs" {
			continue // netstress checks exclusion, progress and fencing, not the order of entries
		}
		if why, ok := missed[controls[i].Name]; ok {
			t.Logf("%s: not run: %s", controls[i].Name, why)
			continue
		}
		variants = append(variants, variant{name: controls[i].Name, entry: controls[i].Entry, network: inOrder, alg: &controls[i]})
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			dir := writeNetworkPackage(t, v.entry, "L")
			if v.alg != nil {
				e, _ := distributed.Lookup(v.entry)
				lock, err := NetworkLock(NetConfig{Name: "L", Package: "netpkg", Entry: e, Alg: v.alg.Alg, SpecPath: "locks.toml"})
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, lock.Name), lock.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if v.runtime != "" {
				rt, err := NetRuntimeControl("netpkg", v.runtime)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, rt.Name), rt.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.Remove(filepath.Join(dir, "l_test.go"))
			src := strings.Replace(findTest, "NETWORK", v.network, 1)
			if err := os.WriteFile(filepath.Join(dir, "find_test.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			// Without -race: two writers are the checker's finding, which the
			// race detector would turn into a failure of its own.
			cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "TestFinds", ".")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s not caught: %v\n%s", v.name, err, out)
			}
			t.Logf("%s", out)
		})
	}
}
