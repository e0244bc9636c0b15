package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildLockgen compiles this command into a temporary directory.
func buildLockgen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lockgen")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// interrupted runs lockgen with args in dir, as the leader of a process
// group of its own with a private TMPDIR; once a line of its stderr
// contains marker, it waits delay and sends sig to the whole group, as a
// terminal's Ctrl-C does. It returns the exit code, the output, and what
// is left in the TMPDIR.
func interrupted(t *testing.T, bin, dir string, marker string, delay time.Duration, sig syscall.Signal, args ...string) (int, string, []string) {
	t.Helper()
	tmp := t.TempDir()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, out bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sent := false
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if !sent && strings.Contains(lines.Text(), marker) {
			sent = true
			time.AfterFunc(delay, func() { syscall.Kill(-cmd.Process.Pid, sig) })
		}
	}
	io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	out.Write(stdout.Bytes())
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if !sent {
		t.Fatalf("lockgen %q never printed %q:\n%s", args, marker, out.String())
	}
	entries, _ := os.ReadDir(tmp)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	return code, out.String(), left
}

// TestVerifyInterrupted sends SIGINT (and once SIGTERM) to the process
// group of a real lockgen verify at points in the Go layers' builds and
// runs and in SPIN's (spin -a, gcc, pan): the run exits 130 saying it was
// interrupted, prints no failure, and leaves nothing in TMPDIR (no
// go-build directory, no gcc temporary, no SPIN directory) nor a scratch
// package beside the spec.
func TestVerifyInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgen and interrupts it")
	}
	needSpin(t)
	bin := buildLockgen(t)
	root := userModule(t, "[[lock]]\nname = \"B\"\npackage = \"vb\"\nalgorithm = \"bakery\"\nprocs = 3\n")
	for _, c := range []struct {
		marker string
		delay  time.Duration
		sig    syscall.Signal
		args   []string
	}{
		{"stress under -race", 500 * time.Millisecond, syscall.SIGINT, []string{"-layers", "stress,explore"}},
		{"stress under -race", 4 * time.Second, syscall.SIGINT, []string{"-layers", "stress,explore"}},
		{"controlled scheduler", 2 * time.Second, syscall.SIGTERM, []string{"-layers", "stress,explore"}},
		{"SPIN...", 0, syscall.SIGINT, []string{"-layers", "spin", "-n", "3", "-spin-timeout", "5m"}},
		{"SPIN...", 300 * time.Millisecond, syscall.SIGINT, []string{"-layers", "spin", "-n", "3", "-spin-timeout", "5m"}},
		{"SPIN...", 1500 * time.Millisecond, syscall.SIGINT, []string{"-layers", "spin", "-n", "3", "-spin-timeout", "5m"}},
		{"SPIN...", 6 * time.Second, syscall.SIGTERM, []string{"-layers", "spin", "-n", "3", "-spin-timeout", "5m"}},
	} {
		args := append(append([]string{"verify"}, c.args...), "locks.toml")
		code, out, left := interrupted(t, bin, root, c.marker, c.delay, c.sig, args...)
		what := c.sig.String() + " " + c.delay.String() + " after " + c.marker
		if code != exitInterrupted || !strings.Contains(out, "interrupted") || strings.Contains(out, "FAIL") {
			t.Errorf("%s: exit %d, want %d, saying interrupted, with no FAIL:\n%s", what, code, exitInterrupted, out)
		}
		if len(left) > 0 {
			t.Errorf("%s: left in TMPDIR: %v", what, left)
		}
		if scratch, _ := filepath.Glob(filepath.Join(root, "_lockgen-verify-*")); len(scratch) > 0 {
			t.Errorf("%s: scratch package left: %v", what, scratch)
		}
	}
}
