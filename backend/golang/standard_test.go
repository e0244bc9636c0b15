package golang

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// standardShapes are a lock of every API shape and mode, TryLock on and
// off: the standard lock must stand in for each.
func standardShapes(t *testing.T) []Config {
	t.Helper()
	cfg := func(name, alg string, m mode.Mode, pref templates.Preference, np nodes.Policy, n, k int, try bool) Config {
		e, ok := templates.Lookup(alg)
		if !ok {
			t.Fatalf("no algorithm %s", alg)
		}
		return Config{Name: name, Entry: e, Alg: e.MustDef(templates.Options{Mode: m, Preference: pref}), Mode: m, Preference: pref,
			Nodes: np, Wait: wait.Adaptive, Padding: 64, TryLock: try, Params: ir.Params{N: n, K: k}}
	}
	return []Config{
		cfg("Mutex", "ticket", mode.Mutex, "", "", 0, 1, true),
		cfg("MutexNoTry", "ttas", mode.Mutex, "", "", 0, 1, false),
		cfg("RW", "mcs-rw", mode.RW, templates.ReaderPref, "", 0, 1, false),
		cfg("K", "replace-add", mode.KExclusion, "", "", 0, 2, true),
		cfg("IDs", "bakery", mode.Mutex, "", "", 3, 1, false),
		cfg("Handles", "mcs", mode.Mutex, "", nodes.Handle, 0, 1, true),
		cfg("Nodes", "mcs", mode.Mutex, "", nodes.Caller, 0, 1, true),
		cfg("Sized", "anderson", mode.Mutex, "", "", 4, 1, false),
	}
}

// TestStandardInEveryShape: the standard lock in each shape vets and
// passes its stress and zero-value tests under -race, and has the
// generated lock's exported API: a file that uses the generated lock's
// every method and constant compiles against it.
func TestStandardInEveryShape(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and stress-tests a package")
	}
	dir, importPath := testPackage(t, "standard")
	shapes := standardShapes(t)
	var names []string
	for _, c := range shapes {
		c.Package, c.ImportPath = "standard", importPath
		c.SpecPath, c.SpecHash = "standard_test", "0"
		lock, tests, err := Standard(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		gen, err := Lock(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(tests, lock) {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The generated lock's API, as a user calls it.
		use, err := apiUse(c, gen.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "use_"+FileBase(c.Name)+".go"), use, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, c.Name)
	}
	vet := exec.Command("go", "vet", ".")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	test := exec.Command("go", "test", "-race", "-count=1", "-json", ".")
	test.Dir = dir
	test.Env = append(os.Environ(), matrixStress...)
	out, runErr := test.Output()
	results := testResults(out)
	for _, n := range names {
		requireTestsOf(t, results, n, "the standard lock", fmt.Sprint(runErr))
	}
}

// TestStandardStressBites is the negative control: the standard mutex
// with its Lock emptied must fail its own stress test.
func TestStandardStressBites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and stress-tests a package")
	}
	dir, importPath := testPackage(t, "standardbroken")
	c := standardShapes(t)[0]
	c.Package, c.ImportPath, c.SpecPath, c.SpecHash = "standardbroken", importPath, "standard_test", "0"
	lock, tests, err := Standard(c)
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(lock.Data, []byte("l.mu.Lock()"), []byte("// l.mu.Lock()"), 1)
	if bytes.Equal(broken, lock.Data) {
		t.Fatal("no l.mu.Lock() to remove")
	}
	lock.Data = broken
	for _, f := range append(tests, lock) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test := exec.Command("go", "test", "-count=1", "-run", "Stress", ".")
	test.Dir = dir
	test.Env = append(os.Environ(), matrixStress...)
	if out, err := test.CombinedOutput(); err == nil {
		t.Fatalf("a mutex that does not lock passed its stress test:\n%s", out)
	}
}

// apiUse writes a file of package c.Package that refers to every exported
// constant, type, function and method of a generated lock's source, each
// method and function with its exact signature: it compiles only against
// a lock with that API.
func apiUse(c Config, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", src, 0)
	if err != nil {
		return nil, err
	}
	text := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return b.String()
	}
	fields := func(fl *ast.FieldList) []string {
		var out []string
		if fl == nil {
			return nil
		}
		for _, p := range fl.List {
			for range max(1, len(p.Names)) {
				out = append(out, text(p.Type))
			}
		}
		return out
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", c.Package)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						fmt.Fprintf(&b, "var _ %s\n", s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							fmt.Fprintf(&b, "var _ = %s\n", n.Name)
						}
					}
				}
			}
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			params := fields(d.Type.Params)
			name := d.Name.Name
			if d.Recv != nil {
				recv := text(d.Recv.List[0].Type)
				if !ast.IsExported(strings.TrimPrefix(recv, "*")) {
					continue
				}
				params = append([]string{recv}, params...)
				name = "(" + recv + ")." + name
			}
			fmt.Fprintf(&b, "var _ func(%s) %s = %s\n", strings.Join(params, ", "), strings.Join(fields(d.Type.Results), ", "), name)
		}
	}
	return []byte(b.String()), nil
}

// TestStandardAPICheckBites is apiUse's negative control: a standard lock
// without the TryLock the generated lock has must not compile against
// the generated lock's API.
func TestStandardAPICheckBites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	dir, importPath := testPackage(t, "standardapi")
	c := standardShapes(t)[0] // with TryLock
	c.Package, c.ImportPath, c.SpecPath, c.SpecHash = "standardapi", importPath, "standard_test", "0"
	gen, err := Lock(c)
	if err != nil {
		t.Fatal(err)
	}
	use, err := apiUse(c, gen.Data)
	if err != nil {
		t.Fatal(err)
	}
	c.TryLock = false
	lock, _, err := Standard(c)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{lock.Name: lock.Data, "use.go": use} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err == nil || !strings.Contains(string(out), "TryLock") {
		t.Fatalf("a lock without TryLock compiled against an API with it (%v):\n%s", err, out)
	}
}
