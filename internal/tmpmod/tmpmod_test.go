package tmpmod

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plots is a command of this module whose dependencies (gonum's plotting
// library and its fonts) a module that requires lockgen does not list.
const plots = "github.com/lockgen/lockgen/perf/cmd/benchplots"

// userModule is a module outside this repository that requires lockgen
// (this checkout, through a replace directive) and nothing else, with no
// go.sum.
func userModule(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	gomod := "module example.com/user\n\ngo 1.26.0\n\nrequire github.com/lockgen/lockgen v0.0.0\n\nreplace github.com/lockgen/lockgen => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestRunLeavesTheModuleAlone: a command whose modules the user's go.mod
// lacks builds and runs from a subdirectory of the module, and go.mod is
// byte for byte what it was, with no go.sum written. The control: the
// same build on the user's own go.mod fails, so the copy is what made it
// build.
func TestRunLeavesTheModuleAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a command in a fresh module")
	}
	root := userModule(t)
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), sub, plots, []string{"-h"}, &stdout, &stderr); err != nil {
		t.Fatalf("Run: %v\n%s", err, stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "-report") {
		t.Errorf("the command's usage did not come back: %q", stderr.String())
	}
	if after, _ := os.ReadFile(filepath.Join(root, "go.mod")); !bytes.Equal(before, after) {
		t.Errorf("go.mod changed:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(root, "go.sum")); err == nil {
		t.Error("go.sum written")
	}

	build := exec.Command("go", "build", "-o", os.DevNull, plots)
	build.Dir = root
	if out, err := build.CombinedOutput(); err == nil {
		t.Errorf("control: the plotting command built on the user's own go.mod:\n%s", out)
	}
}

// TestCloseRemovesTheCopy: Close removes the copies and what was built.
func TestCloseRemovesTheCopy(t *testing.T) {
	m, err := Open(context.Background(), userModule(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.tmp, "go.mod")); err != nil {
		t.Fatalf("no copy of go.mod: %v", err)
	}
	m.Close()
	if _, err := os.Stat(m.tmp); !os.IsNotExist(err) {
		t.Errorf("%s still there after Close (%v)", m.tmp, err)
	}
}

// TestOpenOutsideAModule names the directory.
func TestOpenOutsideAModule(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	if out, _ := cmd.Output(); strings.TrimSpace(string(out)) != os.DevNull && strings.TrimSpace(string(out)) != "" {
		t.Skipf("%s lies inside a module (%s)", dir, out)
	}
	if _, err := Open(context.Background(), dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Open outside a module: %v", err)
	}
}
