package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Report says what Write did with each file of a plan.
type Report struct {
	Written   []string // new or changed
	Unchanged []string // already as planned: not touched, modification time kept
	Removed   []string // stale files of removed locks
}

// tempPrefix starts the temporary files Write stages beside their targets;
// the process id after it lets a later run tell a killed run's leftovers
// from a running one's files.
const tempPrefix = ".lockgen-"

// fs is the file system Write uses; tests replace parts of it to fail at
// chosen points.
var fs = struct {
	createTemp func(dir, pattern string) (*os.File, error)
	rename     func(old, new string) error
}{os.CreateTemp, os.Rename}

// Write carries out the plan all or nothing: every changed file is first
// written in full to a temporary file beside its target; only when all of
// them are written are they renamed into place, and a failed rename puts
// back what the earlier renames replaced. Stale files are removed last.
// Leftover temporaries of killed runs in the output directories go first.
func (p *Plan) Write() (Report, error) {
	var rep Report
	dirs := map[string]bool{}
	for _, o := range p.Outputs {
		dirs[filepath.Dir(o.Path)] = true
	}
	for d := range dirs {
		removeLeftovers(d)
	}

	var stage []staged
	var created []string // directories made for the plan, outermost first
	abort := func(err error) (Report, error) {
		for _, s := range stage {
			os.Remove(s.tmp)
		}
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // only if still empty
		}
		return Report{}, err
	}
	for _, o := range p.Outputs {
		old, err := os.ReadFile(o.Path)
		switch {
		case err == nil && bytes.Equal(old, o.Data):
			rep.Unchanged = append(rep.Unchanged, o.Path)
			continue
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return abort(err)
		}
		made, err := mkdirs(filepath.Dir(o.Path))
		created = append(created, made...)
		if err != nil {
			return abort(err)
		}
		tmp, err := writeTemp(o.Path, o.Data)
		if err != nil {
			return abort(fmt.Errorf("writing %s: %w (nothing was changed)", o.Path, err))
		}
		stage = append(stage, staged{path: o.Path, tmp: tmp, old: old})
	}

	for i, s := range stage {
		if err := fs.rename(s.tmp, s.path); err != nil {
			undo := rollBack(stage[:i])
			for _, r := range stage[i:] {
				os.Remove(r.tmp)
			}
			if undo != nil {
				return Report{}, fmt.Errorf("replacing %s: %w; putting back the files already replaced failed too: %v", s.path, err, undo)
			}
			return Report{}, fmt.Errorf("replacing %s: %w (the files already replaced were put back)", s.path, err)
		}
		rep.Written = append(rep.Written, s.path)
	}
	for _, s := range p.Stale {
		if err := os.Remove(s); err != nil && !errors.Is(err, os.ErrNotExist) {
			return rep, fmt.Errorf("removing stale %s: %w (the new files are in place)", s, err)
		}
		rep.Removed = append(rep.Removed, s)
	}
	return rep, nil
}

// staged is a file written to its temporary, waiting to be renamed.
type staged struct {
	path, tmp string
	old       []byte // what the rename replaces; nil: the file did not exist
}

// rollBack restores the files that renames replaced, and removes the ones
// that did not exist before.
func rollBack(done []staged) error {
	var errs []error
	for _, s := range done {
		if s.old == nil {
			if err := os.Remove(s.path); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if err := os.WriteFile(s.path, s.old, 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// writeTemp writes data to a new temporary file in path's directory.
func writeTemp(path string, data []byte) (string, error) {
	f, err := fs.createTemp(filepath.Dir(path), tempPrefix+strconv.Itoa(os.Getpid())+"-*.tmp")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// mkdirs is os.MkdirAll that returns the directories it created, outermost
// first, so that an aborted write can remove them again.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append([]string{d}, missing...)
	}
	for i, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return missing[:i], err
		}
	}
	return missing, nil
}

// removeLeftovers deletes the temporaries that a killed lockgen left in dir:
// those of processes no longer running, and any older than an hour.
func removeLeftovers(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*.tmp"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), tempPrefix)
		pidText, _, hasPID := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		stale := !hasPID || err != nil || (pid != os.Getpid() && !processAlive(pid))
		if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > time.Hour {
			stale = true
		}
		if stale {
			os.Remove(m)
		}
	}
}
