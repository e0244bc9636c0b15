package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The most modules besides lockgen that go get -tool may add to a user's
// go.mod: the command a user puts in go:generate depends only on what
// generation needs (BurntSushi/toml, dave/jennifer, and x/ extensions).
const maxToolRequirements = 4

// long says whether make test-long runs the tests (LOCKGEN_LONG=1): the
// ones too long for make test's 15 minutes run there, or run there with
// more of what they repeat.
func long() bool { return os.Getenv("LOCKGEN_LONG") != "" }

// goIn runs the go command in dir and fails the test if it fails.
func goIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newModule makes an empty module outside this repository whose
// requirement on lockgen is this checkout (a replace directive), and adds
// tool, one of lockgen's main packages, as a user does: go get -tool. The
// lookup runs with GOPROXY=off: lockgen's packages are found through the
// replace, and the modules they need are in the module cache (this
// repository builds), whereas a proxy asked whether a module
// github.com/lockgen/lockgen/cmd/lockgen exists may refuse the question
// instead of answering no.
func newModule(t *testing.T, tool string) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	gomod := "module example.com/user\n\ngo 1.26\n\nreplace github.com/lockgen/lockgen => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	goIn(t, root, []string{"GOPROXY=off"}, "get", "-tool", tool)
	return root
}

// userModule is a module that has lockgen as a tool, with locks.toml
// holding spec; it returns its directory.
func userModule(t *testing.T, spec string) string {
	t.Helper()
	root := newModule(t, "github.com/lockgen/lockgen/cmd/lockgen")
	if err := os.WriteFile(filepath.Join(root, "locks.toml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// requirements lists the modules the go.mod in dir requires, lockgen's
// own left out.
func requirements(t *testing.T, dir string) []string {
	t.Helper()
	var mod struct{ Require []struct{ Path string } }
	if err := json.Unmarshal([]byte(goIn(t, dir, nil, "mod", "edit", "-json")), &mod); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range mod.Require {
		if r.Path != "github.com/lockgen/lockgen" {
			out = append(out, r.Path)
		}
	}
	return out
}

// moduleFiles is the go.mod and go.sum of the module in dir, as one text.
func moduleFiles(t *testing.T, dir string) string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))
	return string(mod) + "\n-- go.sum --\n" + string(sum)
}

// TestToolModuleStaysLean: go get -tool of lockgen adds at most
// maxToolRequirements modules besides lockgen to a user's go.mod, and
// generating a package with its tests and tidying keeps it so. The
// control: a tool of this module that draws plots (perf/cmd/benchplots)
// adds more, so the count sees heavy dependencies when they are there.
func TestToolModuleStaysLean(t *testing.T) {
	if testing.Short() {
		t.Skip("makes fresh modules")
	}
	root := userModule(t, "[[lock]]\nname = \"Ticket\"\npackage = \"userlocks\"\nalgorithm = \"ticket\"\n")
	if reqs := requirements(t, root); len(reqs) > maxToolRequirements {
		t.Errorf("go get -tool lockgen added %d modules besides lockgen, want at most %d: %v", len(reqs), maxToolRequirements, reqs)
	}
	if err := os.WriteFile(filepath.Join(root, "gen.go"), []byte("package userlocks\n\n//go:generate go tool lockgen generate locks.toml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goIn(t, root, nil, "generate", "./...")
	goIn(t, root, nil, "mod", "tidy")
	if reqs := requirements(t, root); len(reqs) > maxToolRequirements {
		t.Errorf("after generating and go mod tidy: %d modules besides lockgen, want at most %d: %v", len(reqs), maxToolRequirements, reqs)
	}
	goIn(t, root, nil, "vet", "./...")

	heavy := newModule(t, "github.com/lockgen/lockgen/perf/cmd/benchplots")
	if reqs := requirements(t, heavy); len(reqs) <= maxToolRequirements {
		t.Errorf("control: the plotting command added only %v; the count does not see heavy dependencies", reqs)
	}
}
