package spec

import (
	"fmt"
	"slices"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
	"github.com/lockgen/lockgen/wait"
)

// check checks one [[lock]] table, one method per key (or per pair of
// keys checked together), in this order: a later key's check reads what
// the earlier ones accepted.
func (l *lockChecker) check() (Lock, lockInfo) {
	lk := Lock{Pos: l.head, NamePos: l.at("name")}
	info := lockInfo{head: l.head, namePos: lk.NamePos}
	l.name(&lk, &info)
	l.pkg(&lk, &info)
	e, d := l.algorithm(&lk)
	if d != nil {
		return l.distributed(lk, info, d)
	}
	l.allowIncorrect(e, &lk)
	modeOK := l.mode(e, &lk)
	nodesOK := l.nodes(e, &lk)
	procsOK := l.procs(e, &lk, nodesOK)
	l.k(e, &lk, modeOK, procsOK)
	l.padding(&lk)
	waitOK := l.wait(e, &lk)
	l.spin(&lk, waitOK)
	l.preference(e, &lk, modeOK)
	l.trylock(e, &lk)
	l.context(e, &lk)
	l.tests(&lk)
	if e != nil {
		l.params(e, &lk, procsOK)
	}
	l.unknownKeys(e)
	return lk, info
}

// name checks the lock's Go type name.
func (l *lockChecker) name(lk *Lock, info *lockInfo) {
	if name, st := l.str("name", ""); st == unset {
		l.headErr(`name is required: the lock's exported Go type name, e.g. name = "QueueLock"`)
	} else if st == set {
		if msg := checkName(name); msg != "" {
			l.errorf("name", "name = %s %s", shown(name), msg)
		} else {
			lk.Name, info.name = name, name
		}
	}
}

// pkg checks the Go package name.
func (l *lockChecker) pkg(lk *Lock, info *lockInfo) {
	if pkg, st := l.str("package", ""); st == unset {
		l.headErr(`package is required: the Go package name of the output, e.g. package = "queuelock"`)
	} else if st == set {
		if msg := checkPackage(pkg); msg != "" {
			l.errorf("package", "package = %s %s", shown(pkg), msg)
		} else {
			lk.Package, info.pkg = pkg, pkg
		}
	}
}

// algorithm looks the algorithm up: a shared-memory catalogue entry, or a
// message-passing one (the rest of the table is then checked by
// distributed); both are nil when it is missing or unknown.
func (l *lockChecker) algorithm(lk *Lock) (*templates.Entry, *distributed.Entry) {
	var e *templates.Entry
	var d *distributed.Entry
	names := algorithmNames(l.c.cat)
	if alg, st := l.str("algorithm", "; valid: "+list(names)); st == unset {
		l.headErr("algorithm is required; valid: %s", list(names))
	} else if st == set {
		if found, ok := l.c.cat.Lookup(alg); ok && found != nil {
			e = found
			lk.Algorithm, lk.Entry = alg, e
		} else if found, ok := distributed.Lookup(alg); ok {
			d = found
			lk.Algorithm, lk.Distributed = alg, d
		} else {
			l.errorf("algorithm", "algorithm = %s is unknown; valid: %s%s", shown(alg), list(names), didYouMean(alg, names))
		}
	}
	return e, d
}

// allowIncorrect checks allow_incorrect against the entry's known bugs.
func (l *lockChecker) allowIncorrect(e *templates.Entry, lk *Lock) {
	allow, ast := l.boolean("allow_incorrect")
	lk.AllowIncorrect = allow
	if e != nil && ast != bad {
		switch {
		case e.Incorrect != "" && !allow:
			l.errorf("algorithm", "algorithm = %s is known to be incorrect: %s; set allow_incorrect = true to generate it anyway", shown(e.Name), clause(e.Incorrect))
		case e.Incorrect == "" && allow:
			l.errorf("allow_incorrect", "allow_incorrect = true has no effect: %s is not known to be incorrect", e.Name)
		}
	}
}

// mode checks the mode against the entry; it reports whether the mode is
// known good, so that the keys that depend on it are checked.
func (l *lockChecker) mode(e *templates.Entry, lk *Lock) bool {
	modeOK := true
	lk.Mode = DefaultMode
	s, st := l.str("mode", "; valid: "+list(allModes))
	switch st {
	case bad:
		modeOK = false
	case set:
		m := mode.Mode(s)
		switch {
		case !slices.Contains(allModes, m):
			l.errorf("mode", "mode = %s is not a mode; valid: %s%s", shown(s), list(allModes), didYouMean(s, allModes))
			modeOK = false
		case e != nil && !e.SupportsMode(m):
			l.errorf("mode", "mode = %s is not offered by %s; valid: %s", shown(s), e.Name, list(e.Modes))
			modeOK = false
		default:
			lk.Mode = m
		}
	case unset:
		switch {
		case e == nil || e.SupportsMode(DefaultMode):
		case len(e.Modes) == 1:
			lk.Mode = e.Modes[0] // the algorithm's only mode (mcs-rw: rw)
		default:
			l.headErr("mode is not set, and %s does not offer the default %s; set mode to one of: %s", e.Name, shown(string(DefaultMode)), list(e.Modes))
			modeOK = false
		}
	}
	return modeOK
}

// nodes checks the node policy; it reports whether it is known good.
func (l *lockChecker) nodes(e *templates.Entry, lk *Lock) bool {
	nodesOK := true
	s, st := l.str("nodes", "; valid: "+list(nodes.All))
	switch st {
	case bad:
		nodesOK = false
	case set:
		n := nodes.Policy(s)
		switch {
		case !slices.Contains(nodes.All, n):
			l.errorf("nodes", "nodes = %s is not a node policy; valid: %s%s", shown(s), list(nodes.All), didYouMean(s, nodes.All))
			nodesOK = false
		case e == nil:
			// Entry unknown: nothing more to check.
		case !e.HasNodes():
			l.errorf("nodes", "nodes = %s has no effect: %s has no per-process records", shown(s), e.Name)
			nodesOK = false
		default:
			if reason, listed := e.Nodes[n]; reason != "" {
				l.errorf("nodes", "nodes = %s is not valid for %s: %s; valid: %s", shown(s), e.Name, clause(reason), list(validNodes(e)))
				nodesOK = false
			} else if !listed {
				l.errorf("nodes", "nodes = %s is not supported by %s; valid: %s", shown(s), e.Name, list(validNodes(e)))
				nodesOK = false
			} else {
				lk.Nodes = n
			}
		}
	case unset:
		if e != nil && e.HasNodes() {
			if reason, listed := e.Nodes[e.DefaultNodes]; e.DefaultNodes == "" || !listed || reason != "" {
				// A catalogue bug, but say what the user can do.
				l.headErr("nodes is not set, and %s has no valid default node policy; set nodes to one of: %s", e.Name, list(validNodes(e)))
				nodesOK = false
			} else {
				lk.Nodes = e.DefaultNodes
			}
		}
	}
	return nodesOK
}

// procs checks the number of processes against the entry and the node
// policy; it reports false when procs is wrong, so that nothing that
// depends on it is checked.
func (l *lockChecker) procs(e *templates.Entry, lk *Lock, nodesOK bool) bool {
	lo, hi, forAlg := MinProcs, MaxProcs, ""
	if e != nil {
		if e.MinProcs > lo {
			lo, forAlg = e.MinProcs, " for "+e.Name
		}
		if e.MaxProcs > 0 {
			hi, forAlg = e.MaxProcs, " for "+e.Name
		}
	}
	procsOK := true // false: procs is wrong, so nothing that depends on it is checked
	pv, pst := l.integer("procs", fmt.Sprintf("; valid: %d..%d", lo, hi))
	if pst == bad {
		procsOK = false
	}
	if e != nil {
		switch needs := e.NeedsProcs || lk.Nodes.NeedsProcs(); {
		case needs && pst == unset:
			switch {
			case e.NeedsProcs && e.ProcsSizeOnly:
				l.headErr("procs is required: %s sizes its shared arrays by the number of processes, and at most procs goroutines may use the lock at once; valid: %d..%d", e.Name, lo, hi)
			case e.NeedsProcs:
				l.headErr("procs is required: %s addresses per-process registers by process id; valid: %d..%d", e.Name, lo, hi)
			default:
				l.headErr("procs is required with nodes = %q; valid: %d..%d", string(lk.Nodes), lo, hi)
			}
			procsOK = false
		case !needs && pst == set && !(!nodesOK && rejectedNeedsProcs(l.m["nodes"])):
			// (With a rejected nodes = "array", that error says it all.)
			hint := ""
			for _, n := range validNodes(e) {
				if n.NeedsProcs() {
					hint = fmt.Sprintf("; set nodes = %q to index nodes by process id", string(n))
					break
				}
			}
			l.errorf("procs", "procs = %d has no effect: %s does not use process ids%s", pv, e.Name, hint)
			pst = unset
		case !needs:
			pst = unset // no effect, reported above or nodes is wrong
		}
	}
	if pst == set {
		if pv < int64(lo) || pv > int64(hi) {
			l.errorf("procs", "procs = %d is out of range%s; valid: %d..%d", pv, forAlg, lo, hi)
			procsOK = false
		} else {
			lk.Procs = int(pv)
		}
	}
	return procsOK
}

// k checks k against the mode and procs; beyond its type, only when the
// mode is known good.
func (l *lockChecker) k(e *templates.Entry, lk *Lock, modeOK, procsOK bool) {
	kval, kst := l.integer("k", "")
	if !modeOK {
		return
	}
	switch {
	case lk.Mode.TakesK() && kst == unset:
		l.headErr("k is required with mode = %q; valid: 2 <= k < procs", string(lk.Mode))
	case lk.Mode.TakesK() && kst == set:
		switch {
		case lk.Procs > 0 && lk.Procs-1 < MinK:
			l.errorf("k", "k = %d is out of range: 2 <= k < procs needs procs >= 3, and procs = %d", kval, lk.Procs)
		case lk.Procs > 0 && (kval < MinK || kval >= int64(lk.Procs)):
			l.errorf("k", "k = %d is out of range; valid: %d..%d (k < procs = %d)", kval, MinK, lk.Procs-1, lk.Procs)
		case lk.Procs == 0 && procsOK && (kval < MinK || kval > MaxProcs-1):
			l.errorf("k", "k = %d is out of range; valid: %d..%d", kval, MinK, MaxProcs-1)
		case lk.Procs == 0 && !procsOK && kval < MinK:
			l.errorf("k", "k = %d is out of range; valid: 2 <= k < procs", kval)
		default:
			lk.K = int(kval)
		}
	case kst == set:
		if e != nil && !slices.ContainsFunc(e.Modes, mode.Mode.TakesK) {
			l.errorf("k", `k = %d has no effect: k applies only to %s, which %s does not offer (modes: %s)`, kval, modeNames(kModes), e.Name, list(e.Modes))
		} else {
			l.errorf("k", `k = %d has no effect with mode = %s; k applies only to %s`, kval, shown(string(lk.Mode)), modeNames(kModes))
		}
	}
}

// padding checks the padding.
func (l *lockChecker) padding(lk *Lock) {
	lk.Padding = DefaultPadding
	if pad, st := l.integer("padding", "; valid: "+listInts(Paddings)); st == set {
		if !slices.ContainsFunc(Paddings, func(p int) bool { return int64(p) == pad }) {
			l.errorf("padding", "padding = %d is out of range; valid: %s", pad, listInts(Paddings))
		} else {
			lk.Padding = int(pad)
		}
	}
}

// wait checks the wait policy against the entry; it reports whether it is
// known good.
func (l *lockChecker) wait(e *templates.Entry, lk *Lock) bool {
	waitOK := true
	lk.Wait = DefaultWait
	s, st := l.str("wait", "; valid: "+list(wait.All))
	switch st {
	case bad:
		waitOK = false
	case set:
		w := wait.Policy(s)
		switch {
		case !slices.Contains(wait.All, w):
			l.errorf("wait", "wait = %s is not a wait policy; valid: %s%s", shown(s), list(wait.All), didYouMean(s, wait.All))
			waitOK = false
		case e != nil && e.Waits[w] != "":
			l.errorf("wait", "wait = %s is not valid for %s: %s; valid: %s", shown(s), e.Name, clause(e.Waits[w]), list(validWaits(e)))
			waitOK = false
		default:
			lk.Wait = w
		}
	case unset:
		if e != nil && e.Waits[DefaultWait] != "" {
			l.headErr("wait is not set, and the default %s is not valid for %s: %s; set wait to one of: %s", shown(string(DefaultWait)), e.Name, clause(e.Waits[DefaultWait]), list(validWaits(e)))
			waitOK = false
		}
	}
	return waitOK
}

// spin checks the spin count, which only the spinning wait policies take.
func (l *lockChecker) spin(lk *Lock, waitOK bool) {
	sv, sst := l.integer("spin", "")
	spins := lk.Wait.TakesSpin()
	switch {
	case waitOK && !spins && sst == set:
		l.errorf("spin", "spin = %d has no effect with wait = %s; spin applies only to %s", sv, shown(string(lk.Wait)), listAnd(wait.Where(wait.Policy.TakesSpin)))
	case sst == set && (sv < MinSpin || sv > MaxSpin):
		l.errorf("spin", "spin = %d is out of range; valid: %d..%d", sv, MinSpin, MaxSpin)
	case waitOK && spins && sst == set:
		lk.Spin = int(sv)
	case waitOK && spins:
		lk.Spin = DefaultSpin
	}
}

// preference checks a reader/writer lock's preference.
func (l *lockChecker) preference(e *templates.Entry, lk *Lock, modeOK bool) {
	s, st := l.str("preference", "; valid: "+list(allPrefs))
	p := templates.Preference(s)
	switch {
	case st == set && !slices.Contains(allPrefs, p):
		l.errorf("preference", "preference = %s is not a preference; valid: %s%s", shown(s), list(allPrefs), didYouMean(s, allPrefs))
	case !modeOK:
	case !lk.Mode.Readers() && st == set:
		l.errorf("preference", `preference = %s has no effect with mode = %s; preference applies only to %s`, shown(s), shown(string(lk.Mode)), modeNames(readerModes))
	case !lk.Mode.Readers():
	case st == set && e != nil && !slices.Contains(e.Preferences, p):
		l.errorf("preference", "preference = %s is not offered by %s; valid: %s", shown(s), e.Name, list(e.Preferences))
	case st == set:
		lk.Preference = p
	case st == unset && e != nil && len(e.Preferences) > 0:
		lk.Preference = e.Preferences[0]
	}
}

// trylock checks that a TryLock asked for exists.
func (l *lockChecker) trylock(e *templates.Entry, lk *Lock) {
	if t, st := l.boolean("trylock"); st == set {
		if t && e != nil && e.TryLock != "" {
			l.errorf("trylock", "trylock = true is not supported by %s: %s", e.Name, e.TryLock)
		}
		lk.TryLock = t
	}
}

// tests reads whether to generate the lock's tests.
func (l *lockChecker) tests(lk *Lock) {
	if t, st := l.boolean("tests"); st == set {
		lk.NoTests = !t
	}
}

// rejectedNeedsProcs reports whether v, a nodes value the spec gave, names
// a node policy that takes process ids.
func rejectedNeedsProcs(v any) bool {
	s, ok := v.(string)
	return ok && nodes.Policy(s).Valid() && nodes.Policy(s).NeedsProcs()
}
