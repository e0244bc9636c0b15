package gen

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failAfter makes the n-th call of a file-system step fail, and restores the
// step when the test ends.
func failAfter[F any](t *testing.T, step *F, n int, wrap func(real F, fail func() bool) F) {
	t.Helper()
	real := *step
	calls := 0
	*step = wrap(real, func() bool { calls++; return calls >= n })
	t.Cleanup(func() { *step = real })
}

var errInjected = errors.New("injected: no space left on device")

// regenerate writes twoLocks, then changes T's algorithm so that a second
// generation must replace files; it returns the spec path and the snapshot
// of the first generation.
func regenerate(t *testing.T) (dir, specPath string, before map[string]string) {
	t.Helper()
	dir = module(t)
	specPath = filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	generate(t, specPath)
	write(t, specPath, strings.Replace(twoLocks, `algorithm = "ticket"`, `algorithm = "tas"`, 1))
	return dir, specPath, snapshot(t, dir)
}

func TestWriteFailingToStageChangesNothing(t *testing.T) {
	dir, specPath, before := regenerate(t)
	plan, err := Build([]string{specPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	failAfter(t, &fs.createTemp, 2, func(real func(string, string) (*os.File, error), fail func() bool) func(string, string) (*os.File, error) {
		return func(dir, pattern string) (*os.File, error) {
			if fail() {
				return nil, errInjected
			}
			return real(dir, pattern)
		}
	})
	if _, err := plan.Write(); !errors.Is(err, errInjected) {
		t.Fatalf("Write error = %v, want the injected one", err)
	}
	if after := snapshot(t, dir); !equalMaps(before, after) {
		t.Errorf("a failed write changed the directory: %v", names(after))
	}
}

func TestWriteFailingToRenamePutsFilesBack(t *testing.T) {
	dir, specPath, before := regenerate(t)
	plan, err := Build([]string{specPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	failAfter(t, &fs.rename, 2, func(real func(string, string) error, fail func() bool) func(string, string) error {
		return func(old, new string) error {
			if fail() {
				return errInjected
			}
			return real(old, new)
		}
	})
	_, err = plan.Write()
	if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "put back") {
		t.Fatalf("Write error = %v, want the injected one, saying the files were put back", err)
	}
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Fatalf("files after the failed write: %v, want %v", names(after), names(before))
	}
	for name, was := range before {
		// Contents must be back; a put-back file has a new time.
		if content(after[name]) != content(was) {
			t.Errorf("%s was not put back", name)
		}
	}
}

// content drops the modification time from a snapshot entry.
func content(entry string) string {
	_, c, _ := strings.Cut(entry, "\n")
	return c
}

func TestWriteRemovesLeftoversOfKilledRuns(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	dead := filepath.Join(dir, ".lockgen-2147483647-1.tmp") // beyond any pid_max: no such process
	oldStyle := filepath.Join(dir, ".lockgen-123456.tmp")   // an earlier lockgen's name, without a pid
	running := filepath.Join(dir, ".lockgen-1-1.tmp")       // pid 1 is running
	for _, p := range []string{dead, oldStyle, running} {
		write(t, p, "partial")
	}
	generate(t, specPath)
	for _, p := range []string{dead, oldStyle} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", filepath.Base(p))
		}
	}
	if _, err := os.Stat(running); err != nil {
		t.Errorf("the temporary of a running process was removed: %v", err)
	}
}

// TestWriteOnAFullDisk fills a small file system and regenerates into it: the
// write fails and leaves the earlier generation as it was. It needs to mount
// a tmpfs (root on Linux) and skips otherwise.
func TestWriteOnAFullDisk(t *testing.T) {
	dir := module(t)
	out := filepath.Join(dir, "full")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", out, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(out, 0) })
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, twoLocks)
	plan, err := Build([]string{specPath}, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Write(); err != nil {
		t.Fatalf("first write: %v", err)
	}
	before := snapshot(t, out)
	// Leave about 16 KiB free: less than the next generation needs.
	fill := exec.Command("dd", "if=/dev/zero", "of="+filepath.Join(out, "filler"), "bs=4k")
	fill.Run() // stops when the disk is full
	if err := os.Truncate(filepath.Join(out, "filler"), 0); err != nil {
		t.Fatal(err)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(out, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	write(t, filepath.Join(out, "filler"), strings.Repeat("x", int(free-16<<10)))
	before["filler"] = snapshot(t, out)["filler"]

	write(t, specPath, strings.Replace(twoLocks, `algorithm = "ticket"`, `algorithm = "tas"`, 1)+`
[[lock]]
name = "R"
package = "locks"
algorithm = "clh"
`)
	plan, err = Build([]string{specPath}, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Write(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Write on a full disk: error = %v, want ENOSPC", err)
	}
	if after := snapshot(t, out); !equalMaps(before, after) {
		t.Errorf("a write that ran out of space changed the directory: %v, was %v", names(after), names(before))
	}
}
