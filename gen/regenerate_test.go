package gen

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/spec"
)

// lockgenModule is module, whose go.mod requires lockgen (this checkout):
// generated tests import verify.
func lockgenModule(t *testing.T) string {
	t.Helper()
	dir := module(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(filepath.Dir(dir), "go.mod"), "module example.com/m\n\ngo 1.26\n\nrequire github.com/lockgen/lockgen v0.0.0\n\nreplace github.com/lockgen/lockgen => "+repo+"\n")
	return dir
}

// vetBoth runs go vet on dir in both builds.
func vetBoth(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"vet", "./..."}, {"vet", "-tags", "lockgen_check", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestTestsFalseRemovesTheCheckRuntime: a package whose locks drop their
// tests loses the check build's runtime, so it vets under lockgen_check
// and imports nothing of lockgen's.
func TestTestsFalseRemovesTheCheckRuntime(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, "[[lock]]\nname = \"T\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n")
	generate(t, specPath)
	if _, err := os.Stat(filepath.Join(dir, "lockgen_check.go")); err != nil {
		t.Fatalf("no check runtime with tests: %v", err)
	}
	write(t, specPath, "[[lock]]\nname = \"T\"\npackage = \"locks\"\nalgorithm = \"ticket\"\ntests = false\n")
	generate(t, specPath)
	got := strings.Join(names(snapshot(t, dir)), " ")
	if want := "lockgen_runtime.go lockgen_wait.go locks.toml t.go"; got != want {
		t.Fatalf("files = %s, want %s", got, want)
	}
	for name, data := range snapshot(t, dir) {
		if strings.Contains(data, "github.com/lockgen/lockgen") {
			t.Errorf("%s still imports lockgen", name)
		}
	}
	vetBoth(t, dir)
}

// TestSharedToDistributedRemovesTheRuntime: a package whose lock becomes
// a message-passing one loses the shared-memory runtime; and back.
func TestSharedToDistributedRemovesTheRuntime(t *testing.T) {
	dir := lockgenModule(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, "[[lock]]\nname = \"L\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n")
	generate(t, specPath)
	write(t, specPath, "[[lock]]\nname = \"L\"\npackage = \"locks\"\nalgorithm = \"naimi-trehel\"\n")
	generate(t, specPath)
	got := strings.Join(names(snapshot(t, dir)), " ")
	if want := "l.go l_test.go lockgen_net.go locks.toml"; got != want {
		t.Fatalf("files = %s, want %s", got, want)
	}
	vetBoth(t, dir)
	write(t, specPath, "[[lock]]\nname = \"L\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n")
	generate(t, specPath)
	got = strings.Join(names(snapshot(t, dir)), " ")
	if want := "l.go l_check_test.go l_test.go lockgen_check.go lockgen_runtime.go lockgen_wait.go locks.toml"; got != want {
		t.Fatalf("files = %s, want %s", got, want)
	}
	vetBoth(t, dir)
}

// specErrorAt requires err to be spec errors, one of which is at file:line
// and says want.
func specErrorAt(t *testing.T, err error, file string, line int, want string) {
	t.Helper()
	var se spec.Errors
	if !errors.As(err, &se) {
		t.Fatalf("Build = %v, want a spec error at %s:%d", err, file, line)
	}
	for _, e := range se {
		if filepath.Base(e.File) == file && e.Line == line && strings.Contains(e.Msg, want) {
			return
		}
	}
	t.Fatalf("Build = %v, want an error at %s:%d saying %q", err, file, line, want)
}

// TestTwoSpecsOneDirectory: a second spec in a directory may add locks of
// the same package; one of another package, or one that names a lock the
// first spec put there, is an error at its own file:line, and nothing is
// written.
func TestTwoSpecsOneDirectory(t *testing.T) {
	dir := lockgenModule(t)
	one := filepath.Join(dir, "one.toml")
	write(t, one, "[[lock]]\nname = \"A\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n")
	generate(t, one)
	same := filepath.Join(dir, "same.toml")
	write(t, same, "[[lock]]\nname = \"B\"\npackage = \"locks\"\nalgorithm = \"mcs\"\n")
	generate(t, same)
	before := snapshot(t, dir)

	other := filepath.Join(dir, "other.toml")
	write(t, other, "# another package\n[[lock]]\nname = \"C\"\npackage = \"two\"\nalgorithm = \"ticket\"\n")
	_, err := Build([]string{other}, Options{})
	specErrorAt(t, err, "other.toml", 2, "one directory holds one package")

	again := filepath.Join(dir, "again.toml")
	write(t, again, "[[lock]]\nname = \"A\"\npackage = \"locks\"\nalgorithm = \"mcs\"\n")
	_, err = Build([]string{again}, Options{})
	specErrorAt(t, err, "again.toml", 2, "a.go in "+dir+" was generated from one.toml")

	delete(before, "other.toml")
	after := snapshot(t, dir)
	delete(after, "other.toml")
	delete(after, "again.toml")
	for name, v := range before {
		if after[name] != v {
			t.Errorf("%s changed", name)
		}
	}
	// The two specs' locks share the runtime: regenerating one keeps it.
	generate(t, one)
	vetBoth(t, dir)
}

// TestHandWrittenFileRefusedAtTheLock: a lock whose file would replace the
// user's gen.go or doc.go is refused at its name's file:line.
func TestHandWrittenFileRefusedAtTheLock(t *testing.T) {
	dir := module(t)
	write(t, filepath.Join(dir, "gen.go"), "package locks\n\n//go:generate go tool lockgen generate locks.toml\n")
	write(t, filepath.Join(dir, "doc.go"), "// Package locks holds the locks.\npackage locks\n")
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, "[[lock]]\nname = \"Gen\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n\n[[lock]]\nname = \"Doc\"\npackage = \"locks\"\nalgorithm = \"ticket\"\n")
	_, err := Build([]string{specPath}, Options{})
	specErrorAt(t, err, "locks.toml", 2, "refusing to overwrite "+filepath.Join(dir, "gen.go"))
	specErrorAt(t, err, "locks.toml", 7, "refusing to overwrite "+filepath.Join(dir, "doc.go"))
}

// TestPackageNamesNeverCollide: a package named like an identifier of the
// generated tests (a local, a parameter, another import) still builds and
// vets, with its tests, in both builds: the tests import it under another
// name where its own would collide.
func TestPackageNamesNeverCollide(t *testing.T) {
	if raceEnabled {
		t.Skip("vets 9 packages, in go vet's processes: make test-race runs it without -race")
	}
	root := filepath.Dir(lockgenModule(t))
	lockTable := regexp.MustCompile(`PKG`)
	spec := `[[lock]]
name = "G1"
package = "PKG"
algorithm = "ticket"

[[lock]]
name = "G2"
package = "PKG"
algorithm = "mcs"
nodes = "handle"

[[lock]]
name = "G3"
package = "PKG"
algorithm = "clh"
nodes = "caller"
trylock = false

[[lock]]
name = "G4"
package = "PKG"
algorithm = "peterson"
procs = 2

[[lock]]
name = "G5"
package = "PKG"
algorithm = "mcs-rw"
`
	// A parameter (t, what), locals (done, l, h, n, r), imports (verify,
	// testing): each kind of name the generated tests take.
	for _, pkg := range []string{"t", "what", "done", "l", "h", "n", "r", "verify", "testing"} {
		dir := filepath.Join(root, pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		specPath := filepath.Join(dir, "locks.toml")
		write(t, specPath, lockTable.ReplaceAllString(spec, pkg))
		generate(t, specPath)
	}
	vetBoth(t, root)
}
