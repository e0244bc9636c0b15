package spec

import (
	"fmt"
	"slices"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates/distributed"
)

// distributedKeys are the keys a message-passing lock takes: its processes
// are chosen at run time (NewX(self, n, transport)), and the shared-memory
// choices (nodes, padding, wait, ...) do not exist for it.
var distributedKeys = []string{"name", "package", "algorithm", "mode", "context", "tests"}

// distributed finishes the check of a lock whose algorithm is a
// message-passing one.
func (l *lockChecker) distributed(lk Lock, info lockInfo, d *distributed.Entry) (Lock, lockInfo) {
	lk.Mode = d.Modes[0]
	if s, st := l.str("mode", "; valid: "+list(d.Modes)); st == set {
		if m := mode.Mode(s); slices.Contains(d.Modes, m) {
			lk.Mode = m
		} else {
			l.errorf("mode", "mode = %s is not offered by %s; valid: %s", shown(s), d.Name, list(d.Modes))
		}
	}
	if t, st := l.boolean("tests"); st == set {
		lk.NoTests = !t
	}
	// LockContext is always generated for a message-passing lock: saying
	// so is allowed, asking for none is not possible.
	if c, st := l.boolean("context"); st == set {
		if !c {
			l.errorf("context", "context = false: the message-passing lock %s always has LockContext (a request cannot be recalled; a passage given up enters and leaves by itself)", d.Name)
		}
		lk.Context = c
	}
	for _, k := range l.c.sortedKeys(l.base, l.m) {
		if slices.Contains(distributedKeys, k) {
			continue
		}
		why := "it is not a key of a [[lock]] table"
		switch {
		case k == "procs" || k == "k":
			why = fmt.Sprintf("the processes of a distributed lock are chosen at run time (New%s(self, n, transport))", lk.Name)
		case isSchemaKey(k):
			why = "it is a choice of shared-memory locks"
		}
		l.errorf(k, "%s does not apply to the message-passing lock %s: %s; valid keys: %s", shown(k), d.Name, why, list(distributedKeys))
	}
	return lk, info
}
