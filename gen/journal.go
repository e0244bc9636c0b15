package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A directory's writing is a transaction with a journal, so that a run
// killed at any point (SIGKILL included) leaves what the next run needs to
// make the package wholly old or wholly new again:
//
//  1. every new file is written in full to a temporary beside its target,
//     and every file it replaces or removes is kept under a second name
//     (a hard link: no data is copied);
//  2. the journal, listing each target with its temporary and its kept
//     old version, is written (to a temporary, then renamed: it exists
//     whole or not at all). This is the commit point;
//  3. the temporaries are renamed over their targets, stale files removed;
//  4. the journal is removed, then the old versions.
//
// A run killed before 2 changed no target: its temporaries and kept
// versions are leftovers, removed as such. A journal found by the next run
// (Repair) is finished: forward if it says so (every temporary still there
// is renamed, every stale file removed), backward if its run was rolling
// back (every kept version put back, every new file removed). Both are
// idempotent, so a repair that is itself killed is repaired again.

// journalName is the journal in an output directory. It is not a Go file,
// and the go tool ignores names starting with a dot.
const journalName = ".lockgen.journal"

// journal is one directory's transaction.
type journal struct {
	PID     int     `json:"pid"`
	Back    bool    `json:"back"` // rolling back: undo every entry
	Entries []entry `json:"entries"`
}

// entry is one file of the transaction; names are relative to the
// directory.
type entry struct {
	Target string `json:"target"`
	Temp   string `json:"temp,omitempty"`   // its new content; "" for a stale file
	Kept   string `json:"kept,omitempty"`   // its old version; "" if it did not exist
	Remove bool   `json:"remove,omitempty"` // a stale file: removed, not replaced
}

func writeJournal(dir string, j journal) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	tmp, err := writeTemp(filepath.Join(dir, journalName), data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, journalName)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// forward carries out the entries, in order. It is idempotent: an entry
// already done is skipped.
func (j journal) forward(dir string) error {
	for _, e := range j.Entries {
		target := filepath.Join(dir, e.Target)
		if e.Remove {
			if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("removing stale %s: %w", target, err)
			}
			stop("removed " + target)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Temp)); errors.Is(err, os.ErrNotExist) {
			continue // renamed already
		}
		if err := fs.rename(filepath.Join(dir, e.Temp), target); err != nil {
			return fmt.Errorf("replacing %s: %w", target, err)
		}
		stop("renamed " + target)
	}
	return nil
}

// backward undoes the entries: every kept version goes back, every file
// that did not exist is removed. It is idempotent.
func (j journal) backward(dir string) error {
	var errs []error
	for _, e := range slices.Backward(j.Entries) {
		target := filepath.Join(dir, e.Target)
		switch {
		case e.Kept != "":
			if _, err := os.Stat(filepath.Join(dir, e.Kept)); errors.Is(err, os.ErrNotExist) {
				continue // put back already
			}
			if err := os.Rename(filepath.Join(dir, e.Kept), target); err != nil {
				errs = append(errs, err)
			}
			stop("put back " + target)
		case !e.Remove:
			if _, err := os.Stat(filepath.Join(dir, e.Temp)); err == nil {
				continue // never renamed: the target is not ours
			}
			if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			stop("took back " + target)
		}
		if e.Temp != "" {
			os.Remove(filepath.Join(dir, e.Temp))
		}
	}
	return errors.Join(errs...)
}

// finish removes the journal, then what the transaction no longer needs:
// the temporaries left (after a rollback) and the kept old versions
// (after a commit).
func (j journal) finish(dir string) error {
	if err := os.Remove(filepath.Join(dir, journalName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	stop("journal removed " + dir)
	for _, e := range j.Entries {
		if e.Temp != "" {
			os.Remove(filepath.Join(dir, e.Temp))
		}
		if e.Kept != "" {
			os.Remove(filepath.Join(dir, e.Kept))
		}
	}
	return nil
}

// Repair finishes the transaction a killed lockgen generate left in dir,
// if any: the package becomes wholly what that run wrote (it had
// committed) or wholly what was there before (it was rolling back). Then
// the leftovers of runs killed before their commit go. Write does this
// first in every directory it writes; a caller that runs it beside a
// generate on the same directory must hold the directory's lock
// (LockDirs).
func Repair(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, journalName))
	if errors.Is(err, os.ErrNotExist) {
		removeLeftovers(dir)
		return nil
	}
	if err != nil {
		return err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%s: %v (written whole or not at all by lockgen, so not lockgen's: remove it)", filepath.Join(dir, journalName), err)
	}
	if j.Back {
		err = j.backward(dir)
	} else {
		err = j.forward(dir)
	}
	if err != nil {
		return fmt.Errorf("repairing the generation a killed lockgen left in %s: %w", dir, err)
	}
	if err := j.finish(dir); err != nil {
		return err
	}
	removeLeftovers(dir)
	return nil
}

// listing describes what dir holds (names, sizes, modification times),
// lockgen's own temporaries and journal left out: a write compares it
// with what Build saw, and refuses a directory that changed meanwhile.
func listing(dir string) string {
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) || e.Name() == journalName {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return b.String()
}
