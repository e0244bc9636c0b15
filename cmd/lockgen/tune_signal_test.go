//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTuneInterrupted sends the terminal's Ctrl-C (SIGINT to lockgen's
// whole process group, its go commands and benchmark binaries included)
// once the first round is done: lockgen prints what it measured, writes
// nothing although -write and -json were given, leaves the user's files
// as they were and its temporary directory removed, and exits 1.
func TestTuneInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgen and go-cache's benchmarks")
	}
	root := cacheModule(t)
	bin := filepath.Join(t.TempDir(), "lockgen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	before := snapshot(t, root)
	tmp := t.TempDir()
	jsonFile := filepath.Join(t.TempDir(), "tune.json")
	cmd := exec.Command(bin, "tune", "-write", "-json", jsonFile, "-bench", "CacheSetNotExpiring$", "-benchtime", "200ms",
		"-rounds", "10", "-budget", "5m", "-candidates", "mcs-rw:preference=reader", "locks.toml")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	sc := bufio.NewScanner(stderr)
	sent := false
	for sc.Scan() {
		progress.WriteString(sc.Text() + "\n")
		if !sent && strings.Contains(sc.Text(), "round 1/10 done") {
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("lockgen did not stop within a minute of the interrupt:\n%s", progress.String())
	}
	if !sent {
		t.Fatalf("no first round:\n%s\n%s", progress.String(), stdout.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailed {
		t.Errorf("exit %v, want %d\n%s", err, exitFailed, progress.String())
	}
	out := stdout.String()
	for _, want := range []string{"CacheSetNotExpiring", "current (mcs-rw:preference=writer)", "Interrupted", "nothing written"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	sameTree(t, before, snapshot(t, root))
	if _, err := os.Stat(jsonFile); err == nil {
		t.Errorf("-json written by an interrupted run")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "lockgen-tune-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
