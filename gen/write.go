package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// stop is called at every point of a write where a SIGKILL could stop
// it; tests stop the write there (write_test.go) and check that Repair
// makes the package wholly old or wholly new.
var stop = func(where string) {}

// Write is WriteContext without a way to interrupt it.
func (p *Plan) Write() (Report, error) { return p.WriteContext(context.Background()) }

// WriteContext carries out the plan all or nothing, directory by
// directory, as a transaction with a journal (journal.go): a run killed
// at any point, SIGKILL included, leaves each package as it was or lets
// the next run finish it (Repair), and one whose ctx is cancelled
// (SIGINT, SIGTERM) or that fails puts back what it replaced. First it
// repairs what killed runs left in its directories; a directory that
// changed since Build read it (another run wrote there) is refused, and
// nothing is written.
func (p *Plan) WriteContext(ctx context.Context) (Report, error) {
	var rep Report
	byDir := map[string]*dirWrite{}
	var dirs []string
	at := func(path string) *dirWrite {
		d := filepath.Dir(path)
		if byDir[d] == nil {
			byDir[d] = &dirWrite{dir: d}
			dirs = append(dirs, d)
		}
		return byDir[d]
	}
	for _, o := range p.Outputs {
		w := at(o.Path)
		w.outs = append(w.outs, o)
	}
	for _, s := range p.Stale {
		w := at(s)
		w.stale = append(w.stale, s)
	}
	slices.Sort(dirs)

	var created []string // directories made for the plan, outermost first
	var ws []*dirWrite
	abort := func(err error) (Report, error) {
		for _, w := range ws {
			w.j.finish(w.dir) // no journal yet: temporaries and kept versions go
		}
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // only if still empty
		}
		return Report{}, err
	}
	for _, d := range dirs {
		made, err := mkdirs(d)
		created = append(created, made...)
		if err != nil {
			return abort(err)
		}
		if err := Repair(d); err != nil {
			return abort(err)
		}
		if want, ok := p.listings[d]; ok && listing(d) != want {
			return abort(fmt.Errorf("%s changed while lockgen planned its files (another lockgen generate?); nothing was written: run it again", d))
		}
	}
	for _, d := range dirs {
		w := byDir[d]
		ws = append(ws, w)
		w.j.PID = os.Getpid()
		for _, o := range w.outs {
			old, err := os.ReadFile(o.Path)
			switch {
			case err == nil && bytes.Equal(old, o.Data):
				rep.Unchanged = append(rep.Unchanged, o.Path)
				continue
			case err != nil && !errors.Is(err, os.ErrNotExist):
				return abort(err)
			}
			existed := err == nil
			tmp, err := writeTemp(o.Path, o.Data)
			if err != nil {
				return abort(fmt.Errorf("writing %s: %w (nothing was changed)", o.Path, err))
			}
			stop("staged " + o.Path)
			e := entry{Target: filepath.Base(o.Path), Temp: filepath.Base(tmp)}
			w.j.Entries = append(w.j.Entries, e)
			if existed {
				kept, err := keep(o.Path)
				if err != nil {
					return abort(err)
				}
				w.j.Entries[len(w.j.Entries)-1].Kept = kept
				stop("kept " + o.Path)
			}
			rep.Written = append(rep.Written, o.Path)
		}
		for _, s := range w.stale {
			kept, err := keep(s)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return abort(err)
			}
			w.j.Entries = append(w.j.Entries, entry{Target: filepath.Base(s), Kept: kept, Remove: true})
			rep.Removed = append(rep.Removed, s)
			stop("kept " + s)
		}
		if ctx.Err() != nil {
			return abort(errors.New("interrupted; nothing was changed"))
		}
	}
	// Commit: every directory's journal, then the renames.
	var committed []*dirWrite
	rollBack := func(cause error) (Report, error) {
		var undo []error
		for _, w := range committed {
			w.j.Back = true
			if err := writeJournal(w.dir, w.j); err != nil {
				undo = append(undo, err)
				continue // its journal still says forward: the next run finishes it
			}
			if err := w.j.backward(w.dir); err != nil {
				undo = append(undo, err)
				continue // the journal says back: the next run finishes it
			}
			w.j.finish(w.dir)
		}
		for _, w := range ws[len(committed):] {
			w.j.finish(w.dir)
		}
		if len(undo) > 0 {
			return Report{}, fmt.Errorf("%w; putting back the files already replaced failed too: %v (the next lockgen generate there finishes it)", cause, errors.Join(undo...))
		}
		return Report{}, fmt.Errorf("%w (the files already replaced were put back)", cause)
	}
	for _, w := range ws {
		if len(w.j.Entries) > 0 {
			if err := writeJournal(w.dir, w.j); err != nil {
				return rollBack(fmt.Errorf("writing the journal in %s: %w", w.dir, err))
			}
			stop("journal " + w.dir)
		}
		committed = append(committed, w)
	}
	for _, w := range ws {
		if ctx.Err() != nil {
			return rollBack(errors.New("interrupted"))
		}
		if err := w.j.forward(w.dir); err != nil {
			return rollBack(err)
		}
	}
	for _, w := range ws {
		stop("finish " + w.dir)
		if err := w.j.finish(w.dir); err != nil {
			return rep, fmt.Errorf("%s: %w (the new files are in place)", w.dir, err)
		}
	}
	return rep, nil
}

// dirWrite is one directory's part of a write.
type dirWrite struct {
	dir   string
	outs  []Output
	stale []string
	j     journal
}

// keep gives path's current content a second name beside it (a hard
// link; a copy where the file system has none), so that the transaction
// can put it back.
func keep(path string) (string, error) {
	name := filepath.Join(filepath.Dir(path), tempPrefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36)+"-"+filepath.Base(path)+".kept")
	err := os.Link(path, name)
	if err == nil {
		return filepath.Base(name), nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		os.Remove(name)
		return "", err
	}
	return filepath.Base(name), nil
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

// running reports whether the run with this process id may still be
// writing (tests stand in a run stopped in their own process).
var running = func(pid int) bool { return pid == os.Getpid() || processAlive(pid) }

// removeLeftovers deletes the temporaries and kept old versions that a
// lockgen killed before its commit left in dir: those of processes no
// longer running, and temporaries older than an hour (a kept version has
// the old file's time, which says nothing of its run).
func removeLeftovers(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), tempPrefix)
		pidText, _, hasPID := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		stale := !hasPID || err != nil || !running(pid)
		if fi, err := os.Stat(m); err == nil && strings.HasSuffix(m, ".tmp") && time.Since(fi.ModTime()) > time.Hour {
			stale = true
		}
		if stale {
			os.Remove(m)
		}
	}
}
