package mutation

import (
	"fmt"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/wait"
)

// How mutants become Go packages: the configuration they are generated in.

// lowerable reports whether the Go backend lowers a, lock and tests, in
// the configuration the runner generates mutants in: mutate.Target's
// Lowerable.
func lowerable(t mutate.Target) func(a *ir.Algorithm) error {
	return func(a *ir.Algorithm) error {
		c := goConfig(t, a, "M", "m", "example.com/m")
		if _, err := golang.Lock(c); err != nil {
			return err
		}
		_, err := golang.Tests(c)
		return err
	}
}

// goConfig is the configuration a mutant (or a control) of the target is
// generated in: the entry's default node policy (the pool policy when the
// original definition frees records and the entry supports it), the first
// waiting policy it allows among mutantWaits, no padding, TryLock when the
// definition has a try-acquire, LockContext when the entry is abortable
// (and not reader/writer), and small
// parameters (3 processes when ids are needed, k = 2 for k-exclusion,
// every extra parameter at its default or its smallest valid value).
func goConfig(t mutate.Target, a *ir.Algorithm, name, pkg, importPath string) golang.Config {
	e, o := t.Entry, t.Options
	c := golang.Config{
		Name: name, Package: pkg, ImportPath: importPath,
		Entry: e, Alg: a, Mode: o.Mode, Preference: o.Preference,
		Nodes: e.DefaultNodes, Spin: 16,
		TryLock: a.TryAcquire != nil && (!o.Mode.Readers() || a.TryRAcquire != nil),
		// LockContext where the entry's waiters may give up, so that
		// Explore cancels them and catches the abort code's mistakes.
		Context:  e.Abortable() && a.Abortable() && !o.Mode.Readers(),
		SpecPath: "mutation", SpecHash: "0",
		SpecEcho: fmt.Sprintf("# mutant %s of %s", name, a.Name),
	}
	if c.Mode == "" {
		c.Mode = mode.Mutex
	}
	if !e.HasNodes() {
		c.Nodes = nodes.None
	} else if why, ok := e.Nodes[nodes.Pool]; ok && why == "" && frees(e.Def(o)) {
		// Only pooled records go back anywhere: a free in the wrong place
		// shows only under the pool policy.
		c.Nodes = nodes.Pool
	}
	for _, w := range mutantWaits() {
		if _, bad := e.Waits[w]; !bad {
			c.Wait = w
			break
		}
	}
	c.Params = e.SmallParams(c.Mode, c.Nodes)
	return c
}

// mutantWaits are the wait policies in the order mutants try them: those
// whose waiters never sleep first, so that the scheduler explores the
// algorithm's own waits, then those that sleep; each in wait.All's order,
// leaving out a policy that counts its spinners (its count would add
// steps to every wait the searches make).
func mutantWaits() []wait.Policy {
	fine := func(w wait.Policy) bool { return !w.CountsSpinners() }
	return append(wait.Where(func(w wait.Policy) bool { return fine(w) && !w.Parks() }),
		wait.Where(func(w wait.Policy) bool { return fine(w) && w.Parks() })...)
}

// frees reports whether a returns records to the allocator anywhere.
func frees(a *ir.Algorithm) bool {
	found := false
	for _, op := range a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			_, ok := s.(ir.FreeRecord)
			found = found || ok
		})
	}
	return found
}
