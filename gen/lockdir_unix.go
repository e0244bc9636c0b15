//go:build unix

package gen

import (
	"errors"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on the directory itself: no lock file
// is left behind, and the kernel releases it when its holder dies, even
// by SIGKILL. busy reports a lock another process holds.
func lockDir(dir string) (unlock func(), busy bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, false, nil // closing releases the lock
}
