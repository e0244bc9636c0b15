package gen

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Generate is what lockgen generate does: it locks the specs' output
// directories (LockDirs), repairs what killed runs left there (Repair),
// builds the plan and writes it, then unlocks. Concurrent runs on one
// directory so take turns, and each plans against what the one before it
// wrote. Cancelling ctx (SIGINT, SIGTERM) before the write ends puts
// back what it replaced; a SIGKILL leaves a journal the next run
// finishes. waiting, when not nil, is told once that another run holds a
// directory.
func Generate(ctx context.Context, specPaths []string, opts Options, waiting func(dir string)) (*Plan, Report, error) {
	var dirs []string
	for _, p := range specPaths {
		dir := opts.OutDir
		if dir == "" {
			dir = filepath.Dir(p)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, Report{}, err
		}
		dirs = append(dirs, abs)
	}
	unlock, err := LockDirs(ctx, dirs, waiting)
	if err != nil {
		return nil, Report{}, err
	}
	defer unlock()
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			if err := Repair(d); err != nil {
				return nil, Report{}, err
			}
		}
	}
	plan, err := Build(specPaths, opts)
	if err != nil {
		return nil, Report{}, err
	}
	// A directory that did not exist was locked through its nearest
	// ancestor; once made, it is locked itself too, so that a run that
	// finds it existing waits for this one.
	var made []string
	for _, d := range dirs {
		m, err := mkdirs(d)
		made = append(made, m...)
		if err != nil {
			removeEmpty(made)
			return nil, Report{}, err
		}
	}
	if len(made) > 0 {
		unlockMade, err := LockDirs(ctx, made, waiting)
		if err != nil {
			removeEmpty(made)
			return nil, Report{}, err
		}
		defer unlockMade()
	}
	rep, err := plan.WriteContext(ctx)
	if err != nil {
		removeEmpty(made)
	}
	return plan, rep, err
}

// removeEmpty removes the directories made, innermost first, if empty.
func removeEmpty(made []string) {
	for _, d := range slices.Backward(made) {
		os.Remove(d)
	}
}

// lockPoll is how often LockDirs tries again a lock another run holds.
const lockPoll = 20 * time.Millisecond

// LockDirs takes an exclusive lock on each directory, or on its nearest
// existing ancestor where it does not exist yet, in one order for every
// run (so two runs never wait for each other's second lock). It waits for
// locks other runs hold, telling waiting once per directory, until ctx
// ends. unlock releases them all.
func LockDirs(ctx context.Context, dirs []string, waiting func(dir string)) (unlock func(), err error) {
	var targets []string
	for _, d := range dirs {
		t := d
		for {
			if _, err := os.Stat(t); err == nil || filepath.Dir(t) == t {
				break
			}
			t = filepath.Dir(t)
		}
		targets = append(targets, t)
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)
	var held []func()
	unlock = func() {
		for _, u := range slices.Backward(held) {
			u()
		}
	}
	for _, t := range targets {
		told := false
		for {
			u, busy, err := lockDir(t)
			if err != nil {
				unlock()
				return nil, fmt.Errorf("locking %s: %w", t, err)
			}
			if !busy {
				held = append(held, u)
				break
			}
			if !told && waiting != nil {
				waiting(t)
				told = true
			}
			select {
			case <-ctx.Done():
				unlock()
				return nil, errors.Join(ctx.Err(), fmt.Errorf("waiting for another lockgen generate in %s", t))
			case <-time.After(lockPoll):
			}
		}
	}
	return unlock, nil
}
