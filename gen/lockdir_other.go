//go:build !unix

package gen

import (
	"errors"
	"os"
	"path/filepath"
)

// lockDir creates a lock file in dir exclusively: where flock is not
// available, a second run waits for it; one left by a killed run must be
// removed by hand (LockDirs's error names it).
func lockDir(dir string) (unlock func(), busy bool, err error) {
	name := filepath.Join(dir, ".lockgen.lock")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	f.Close()
	return func() { os.Remove(name) }, false, nil
}
