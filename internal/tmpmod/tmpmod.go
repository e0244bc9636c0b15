// Package tmpmod runs the go command inside a user's module on a
// temporary copy of its go.mod and go.sum (go's -modfile), so that parts
// of lockgen with heavier dependencies than generation needs (the
// benchmark driver and its baselines, the plots) build in the user's
// module, with the user's lockgen version and replace directives, while
// the user's files never change: the copy gains the requirements and
// checksums the build lacks, the user's go.mod and go.sum do not. The
// command a user adds with go get -tool then needs only what generation
// needs (README, "Using it").
//
// In workspace mode the go command refuses -modfile; the commands then run
// as they are, and the workspace's modules must provide what they import.
package tmpmod

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Module is a temporary copy of the go.mod and go.sum of the module that
// holds a directory.
type Module struct {
	Root    string // the module's root directory
	modfile string // the copy of go.mod ("" in workspace mode); go.sum's sits beside it
	tmp     string // the directory holding the copies and built commands
}

// Open copies the go.mod and go.sum of the module holding dir into a
// temporary directory. The caller closes the Module.
func Open(ctx context.Context, dir string) (*Module, error) {
	env := exec.CommandContext(ctx, "go", "env", "GOMOD", "GOWORK")
	env.Dir = dir
	out, err := env.Output()
	if err != nil {
		return nil, fmt.Errorf("go env in %s: %v", dir, err)
	}
	lines := strings.Split(string(out), "\n") // one line each, the last empty
	if len(lines) < 2 {
		return nil, fmt.Errorf("go env GOMOD GOWORK in %s: unexpected output %q", dir, out)
	}
	gomod, gowork := lines[0], lines[1]
	if gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("%s is not inside a Go module", dir)
	}
	tmp, err := os.MkdirTemp("", "lockgen-tmpmod-")
	if err != nil {
		return nil, err
	}
	m := &Module{Root: filepath.Dir(gomod), tmp: tmp}
	if gowork != "" && gowork != "off" {
		return m, nil
	}
	m.modfile = filepath.Join(tmp, "go.mod")
	sum := filepath.Join(tmp, "go.sum")
	if err := copyFile(gomod, m.modfile); err != nil {
		m.Close()
		return nil, err
	}
	if err := copyFile(filepath.Join(m.Root, "go.sum"), sum); errors.Is(err, os.ErrNotExist) {
		err = os.WriteFile(sum, nil, 0o644)
	} else if err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// Command is `go verb args...` run in dir (inside the module) on the
// copy: requirements the command lacks are added to it (-mod=mod), never
// to the module's own go.mod and go.sum.
func (m *Module) Command(ctx context.Context, dir, verb string, args ...string) *exec.Cmd {
	all := []string{verb}
	if m.modfile != "" {
		all = append(all, "-modfile="+m.modfile, "-mod=mod")
	}
	cmd := exec.CommandContext(ctx, "go", append(all, args...)...)
	cmd.Dir = dir
	return cmd
}

// Build compiles the main package pkg (an import path, usually one of
// lockgen's commands) inside the module and returns the binary's path,
// which Close removes.
func (m *Module) Build(ctx context.Context, pkg string) (string, error) {
	bin := filepath.Join(m.tmp, filepath.Base(pkg))
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := m.Command(ctx, m.Root, "build", "-o", bin, pkg)
	if out, err := build.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("building %s in %s: %v\n%s", pkg, m.Root, err, bytes.TrimSpace(out))
	}
	return bin, nil
}

// Close removes the copies and whatever was built beside them.
func (m *Module) Close() error { return os.RemoveAll(m.tmp) }

// Run builds the main package pkg inside the module holding dir and runs
// it there with args, its output going to stdout and stderr.
func Run(ctx context.Context, dir, pkg string, args []string, stdout, stderr io.Writer) error {
	m, err := Open(ctx, dir)
	if err != nil {
		return err
	}
	defer m.Close()
	bin, err := m.Build(ctx, pkg)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, stdout, stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %v", pkg, err)
	}
	return nil
}
