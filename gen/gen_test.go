package gen

import (
	"bytes"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
)

// module makes a directory inside a fresh module, so generated tests get an
// import path.
func module(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	dir := filepath.Join(root, "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot records every file of dir with its content and modification time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = info.ModTime().Format(time.RFC3339Nano) + "\n" + string(data)
	}
	return out
}

func names(m map[string]string) []string {
	var n []string
	for k := range m {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

const twoLocks = `[[lock]]
name = "Q"
package = "locks"
algorithm = "mcs"

[[lock]]
name = "T"
package = "locks"
algorithm = "ticket"
`

func generate(t *testing.T, specPath string) *Plan {
	t.Helper()
	plan, err := Build([]string{specPath}, Options{})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if _, err := plan.Write(); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return plan
}

func TestGenerateWritesEveryFileAndIsIdempotent(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	generate(t, specPath)
	first := snapshot(t, dir)
	want := []string{"lockgen_check.go", "lockgen_runtime.go", "lockgen_wait.go", "locks.toml",
		"q.go", "q_check_test.go", "q_test.go", "t.go", "t_check_test.go", "t_test.go"}
	if got := names(first); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("files = %v, want %v", got, want)
	}
	if h, ok := golang.ParseHeader([]byte(first["q.go"])); !ok || h.Spec != "locks.toml" || h.Command != "lockgen generate locks.toml" {
		t.Errorf("q.go lacks the generated header naming its spec and command:\n%.300s", first["q.go"])
	}
	// A second run with the same spec changes nothing, not even times.
	time.Sleep(10 * time.Millisecond)
	generate(t, specPath)
	if second := snapshot(t, dir); !equalMaps(first, second) {
		t.Errorf("regenerating an unchanged spec touched files")
	}
}

// TestHeaderCommandIsTheSameFromAnyDirectory: the header records the
// command as run in the spec's directory, so generating from elsewhere,
// with -o naming the same directory, writes the same files; another
// output directory is recorded relative to the spec's.
func TestHeaderCommandIsTheSameFromAnyDirectory(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	here, err := Build([]string{specPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	there, err := Build([]string{specPath}, Options{OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range here.Outputs {
		if !bytes.Equal(here.Outputs[i].Data, there.Outputs[i].Data) {
			t.Errorf("%s differs when generated from another directory", here.Outputs[i].Path)
		}
	}
	sub, err := Build([]string{specPath}, Options{OutDir: filepath.Join(dir, "my locks")})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range sub.Outputs {
		if filepath.Base(o.Path) == "q.go" {
			h, _ := golang.ParseHeader(o.Data)
			if want := "lockgen generate -o 'my locks' locks.toml"; h.Command != want || h.Spec != "../locks.toml" {
				t.Errorf("header records %q from %q, want %q from ../locks.toml", h.Command, h.Spec, want)
			}
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestBadSpecWritesNothing(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	generate(t, specPath)
	before := snapshot(t, dir)

	// The same spec with a mistake in the second lock: every earlier output
	// must survive untouched, and nothing new may appear.
	write(t, specPath, strings.Replace(twoLocks, `algorithm = "ticket"`, `algorithm = "tickett"`, 1))
	before["locks.toml"] = snapshot(t, dir)["locks.toml"]
	_, err := Build([]string{specPath}, Options{})
	var se spec.Errors
	if !errors.As(err, &se) {
		t.Fatalf("Build = %v, want spec errors", err)
	}
	if !strings.Contains(se.Error(), `locks.toml:9:1:`) || !strings.Contains(se.Error(), "ticket") {
		t.Errorf("error does not point at the algorithm key or suggest ticket: %v", se)
	}
	if after := snapshot(t, dir); !equalMaps(before, after) {
		t.Errorf("a bad spec changed the output directory")
	}
}

func TestRemovedLockLeavesNoStaleFiles(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	generate(t, specPath)
	// Drop lock T.
	write(t, specPath, twoLocks[:strings.Index(twoLocks, "\n[[lock]]\nname = \"T\"")+1])
	plan := generate(t, specPath)
	for _, f := range []string{"t.go", "t_test.go", "t_check_test.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived the removal of its lock", f)
		}
	}
	if len(plan.Stale) != 3 {
		t.Errorf("plan removed %v, want the 3 files of T", plan.Stale)
	}
	if _, err := os.Stat(filepath.Join(dir, "q.go")); err != nil {
		t.Errorf("q.go was removed: %v", err)
	}
}

func TestRefusesToOverwriteHandWrittenFiles(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	mine := "package locks\n\n// mine\n"
	write(t, filepath.Join(dir, "q.go"), mine)
	_, err := Build([]string{specPath}, Options{})
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("Build = %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "q.go")); string(data) != mine {
		t.Errorf("hand-written q.go was changed")
	}
}

func TestDirectoryHoldsOnePackage(t *testing.T) {
	dir := module(t)
	write(t, filepath.Join(dir, "other.go"), "// Package other is hand-written.\npackage other\n")
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	_, err := Build([]string{specPath}, Options{})
	var se spec.Errors
	if !errors.As(err, &se) || !strings.Contains(se.Error(), `declares package "other"`) {
		t.Fatalf("Build = %v, want a package clash at the lock", err)
	}

	// Two specs writing different packages into one -o directory.
	dir2 := module(t)
	a, b := filepath.Join(dir2, "a.toml"), filepath.Join(dir2, "b.toml")
	write(t, a, "[[lock]]\nname = \"A\"\npackage = \"pa\"\nalgorithm = \"ticket\"\n")
	write(t, b, "[[lock]]\nname = \"B\"\npackage = \"pb\"\nalgorithm = \"ticket\"\n")
	_, err = Build([]string{a, b}, Options{OutDir: filepath.Join(dir2, "out")})
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "one directory holds one package") {
		t.Fatalf("Build = %v, want a package clash", err)
	}
}

func TestOutsideAModule(t *testing.T) {
	dir := t.TempDir()
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	_, err := Build([]string{specPath}, Options{})
	if err == nil || !strings.Contains(err.Error(), "not inside a Go module") {
		t.Fatalf("Build = %v, want a clear module error", err)
	}
}

// TestGeneratedIsFresh regenerates every spec under generated/ in memory
// and compares byte for byte with the checked-in files.
func TestGeneratedIsFresh(t *testing.T) {
	specs, err := filepath.Glob("../generated/*/lock.toml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no specs under generated/: %v", err)
	}
	for _, s := range specs {
		plan, err := Build([]string{s}, Options{})
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		for _, o := range plan.Outputs {
			have, err := os.ReadFile(o.Path)
			if err != nil || !bytes.Equal(have, o.Data) {
				t.Errorf("%s is stale: run go generate ./generated/...", o.Path)
			}
		}
		for _, st := range plan.Stale {
			t.Errorf("%s is stale (its lock is gone from %s)", st, s)
		}
	}
}

// TestIdentifierClashes: locks that are valid one by one but whose generated
// identifiers collide in one package are rejected at the later lock's name.
func TestIdentifierClashes(t *testing.T) {
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"node type", `
[[lock]]
name = "Q"
package = "locks"
algorithm = "mcs"
nodes = "caller"

[[lock]]
name = "QNode"
package = "locks"
algorithm = "ticket"
`, `locks.toml:9:1: name = "QNode": its generated code declares QNode, which lock Q (locks.toml:2:1) in q.go also declares; rename one of the locks`},
		{"constructor", `
[[lock]]
name = "NewQ"
package = "locks"
algorithm = "ticket"

[[lock]]
name = "Q"
package = "locks"
algorithm = "ticket"
`, `locks.toml:8:1: name = "Q": its generated code declares NewQ, which lock NewQ (locks.toml:2:1) in newq.go also declares; rename one of the locks`},
		{"procs constant", `
[[lock]]
name = "B"
package = "locks"
algorithm = "bakery"
procs = 2

[[lock]]
name = "BProcs"
package = "locks"
algorithm = "ticket"
`, `locks.toml:9:1: name = "BProcs": its generated code declares BProcs, which lock B (locks.toml:2:1) in b.go also declares; rename one of the locks`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t)
			specPath := filepath.Join(dir, "locks.toml")
			write(t, specPath, tc.spec)
			before := snapshot(t, dir)
			_, err := Build([]string{specPath}, Options{})
			var se spec.Errors
			if !errors.As(err, &se) {
				t.Fatalf("Build error = %v, want spec.Errors", err)
			}
			got := strings.ReplaceAll(se.Error(), dir+string(filepath.Separator), "")
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if after := snapshot(t, dir); !equalMaps(before, after) {
				t.Errorf("a rejected spec changed the directory")
			}
		})
	}
}

// TestWithoutTests: tests = false gives a package of the lock and the
// runtime only, importing the standard library only; a directory where
// another lock keeps its tests keeps the check runtime.
func TestWithoutTests(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, strings.ReplaceAll(strings.ReplaceAll(twoLocks, `algorithm = "ticket"`, "algorithm = \"ticket\"\ntests = false"),
		`algorithm = "mcs"`, "algorithm = \"mcs\"\ntests = false"))
	generate(t, specPath)
	got := names(snapshot(t, dir))
	want := []string{"lockgen_runtime.go", "lockgen_wait.go", "locks.toml", "q.go", "t.go"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("files = %v, want %v", got, want)
	}
	fset := token.NewFileSet()
	for _, name := range got {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
				t.Errorf("%s imports %s, not in the standard library", name, path)
			}
		}
		// Built the same under every tag: -tags lockgen_check on a
		// module must not break a package that has no check build.
		if src, _ := os.ReadFile(filepath.Join(dir, name)); bytes.Contains(src, []byte("//go:build")) {
			t.Errorf("%s has a build constraint", name)
		}
	}

	// One lock with tests brings the check runtime back.
	write(t, specPath, strings.ReplaceAll(twoLocks, `algorithm = "ticket"`, "algorithm = \"ticket\"\ntests = false"))
	generate(t, specPath)
	if _, err := os.Stat(filepath.Join(dir, "lockgen_check.go")); err != nil {
		t.Errorf("Q keeps its tests, but: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t_test.go")); err == nil {
		t.Errorf("T has tests = false, but t_test.go is there")
	}
}

// TestScratchHasTests: a tool's scratch package has every lock's tests and
// the check runtime, tests = false notwithstanding (lockgen verify drives
// the generated subjects), and Remove deletes it.
func TestScratchHasTests(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, strings.ReplaceAll(twoLocks, `algorithm = "ticket"`, "algorithm = \"ticket\"\ntests = false"))
	f, err := spec.ParseFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Scratch(f, "_scratch-")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(names(snapshot(t, s.Path)), " ")
	for _, want := range []string{"t_test.go", "t_check_test.go", "lockgen_check.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("scratch package lacks %s: %s", want, got)
		}
	}
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path); !os.IsNotExist(err) {
		t.Errorf("Remove left %s: %v", s.Path, err)
	}
}

// TestGeneratedCoversCatalogue: every algorithm of both catalogues has a
// package under generated/, generated from its lock.toml, so that the
// checks run over generated/ (make test-spin, make verify) see them all.
func TestGeneratedCoversCatalogue(t *testing.T) {
	have := map[string]bool{}
	specs, _ := filepath.Glob("../generated/*/lock.toml")
	for _, s := range specs {
		f, err := spec.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range f.Locks {
			have[l.Algorithm] = true
		}
	}
	names := templates.Names()
	for _, e := range distributed.All() {
		names = append(names, e.Name)
	}
	for _, n := range names {
		if !have[n] {
			t.Errorf("%s has no lock under generated/", n)
		}
	}
}
