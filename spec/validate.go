package spec

import (
	"errors"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
)

type checker struct {
	cat  Catalogue
	file string
	idx  keyIndex
	errs Errors
}

func (c *checker) errorf(p Pos, format string, args ...any) {
	c.errs = append(c.errs, Error{Pos: p, Msg: oneLine.Replace(fmt.Sprintf(format, args...))})
}

// pos is where the key at path is defined, or fallback if the scanner did
// not find it.
func (c *checker) pos(path string, fallback Pos) Pos {
	if sp, ok := c.idx[path]; ok {
		return Pos{File: c.file, Line: sp.line, Col: sp.col}
	}
	return fallback
}

func (c *checker) start() Pos { return Pos{File: c.file, Line: 1, Col: 1} }

// syntax reports a TOML parse error.
func (c *checker) syntax(src string, err error) {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		c.errorf(c.start(), "%v", err)
		return
	}
	// Keep the position inside the text.
	lines := strings.Split(src, "\n")
	line := min(max(pe.Position.Line, 1), len(lines))
	col := min(max(pe.Position.Col, 1), len(lines[line-1])+1)
	c.errorf(Pos{File: c.file, Line: line, Col: col}, "syntax error: %s", pe.Message)
}

// sortedKeys returns m's keys in source order (unlocated keys last, by name).
func (c *checker) sortedKeys(base string, m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	far := srcPos{line: 1 << 30}
	at := func(k string) srcPos {
		if p, ok := c.idx[keyPath(base, k)]; ok {
			return p
		}
		return far
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := at(keys[i]), at(keys[j])
		if pi != pj {
			return pi.line < pj.line || pi.line == pj.line && pi.col < pj.col
		}
		return keys[i] < keys[j]
	})
	return keys
}

// document checks the top level and each [[lock]].
func (c *checker) document(doc map[string]any) []Lock {
	var locks []Lock
	var infos []lockInfo
	sawLock, topErrs := false, false
	for _, k := range c.sortedKeys("", doc) {
		p := c.pos(keyPath("", k), c.start())
		if k != "lock" {
			topErrs = true
			if isSchemaKey(k) {
				c.errorf(p, "%s is outside any [[lock]] table; put a [[lock]] header above it", k)
			} else {
				c.errorf(p, "unknown top-level key %s; a spec holds only [[lock]] tables%s", shown(k), didYouMean(k, []string{"lock"}))
			}
			continue
		}
		sawLock = true
		switch v := doc[k].(type) {
		case []map[string]any:
			for i, m := range v {
				l, info := c.lock(i, m)
				locks = append(locks, l)
				infos = append(infos, info)
			}
		case map[string]any:
			c.errorf(p, "lock is a plain table; write [[lock]] (an array of tables), one per lock")
		default:
			c.errorf(p, "%s must be written as [[lock]] tables", kv("lock", v))
		}
	}
	if !sawLock && !topErrs {
		c.errorf(c.start(), "no [[lock]] table; a spec holds one or more [[lock]] tables")
	}
	c.crossCheck(infos)
	return locks
}

// lockInfo is what crossCheck needs of a lock.
type lockInfo struct {
	head    Pos
	name    string // "" unless valid
	namePos Pos
	pkg     string // "" unless valid
}

// crossCheck finds duplicate names and generated-file collisions.
func (c *checker) crossCheck(infos []lockInfo) {
	byName := map[string]lockInfo{}
	byFile := map[[2]string]lockInfo{}
	for _, in := range infos {
		if in.name == "" {
			continue
		}
		if first, dup := byName[in.name]; dup {
			c.errorf(in.namePos, "name = %s is already used by the lock at %s; lock names in a spec file must be unique", shown(in.name), first.head)
			continue
		}
		byName[in.name] = in
		if in.pkg == "" {
			continue
		}
		key := [2]string{in.pkg, strings.ToLower(in.name)}
		if first, clash := byFile[key]; clash {
			c.errorf(in.namePos, "name = %s collides with %s (the lock at %s): both are in package %s, and generated file names are the lower-cased lock names", shown(in.name), shown(first.name), first.head, in.pkg)
			continue
		}
		byFile[key] = in
	}
}

// state says whether a key is absent, present with a bad value (reported),
// or present and well typed.
type state int

const (
	unset state = iota
	bad
	set
)

type lockChecker struct {
	c    *checker
	base string // key path of this [[lock]] element
	head Pos
	m    map[string]any
}

func (c *checker) lock(i int, m map[string]any) (Lock, lockInfo) {
	base := elemPath(keyPath("", "lock"), i)
	l := &lockChecker{c: c, base: base, head: c.pos(base, c.start()), m: m}
	return l.check()
}

func (l *lockChecker) at(key string) Pos { return l.c.pos(keyPath(l.base, key), l.head) }

func (l *lockChecker) errorf(key string, format string, args ...any) {
	l.c.errorf(l.at(key), format, args...)
}

// headErr reports a problem of the table as a whole (a missing key).
func (l *lockChecker) headErr(format string, args ...any) {
	l.c.errorf(l.head, format, args...)
}

func (l *lockChecker) str(key, hint string) (string, state) {
	v, ok := l.m[key]
	if !ok {
		return "", unset
	}
	s, ok := v.(string)
	if !ok {
		l.errorf(key, "%s must be a string%s", kv(key, v), hint)
		return "", bad
	}
	return s, set
}

func (l *lockChecker) integer(key, hint string) (int64, state) {
	v, ok := l.m[key]
	if !ok {
		return 0, unset
	}
	n, ok := v.(int64)
	if !ok {
		l.errorf(key, "%s must be an integer%s", kv(key, v), hint)
		return 0, bad
	}
	return n, set
}

func (l *lockChecker) boolean(key string) (bool, state) {
	v, ok := l.m[key]
	if !ok {
		return false, unset
	}
	b, ok := v.(bool)
	if !ok {
		l.errorf(key, "%s must be a boolean (true or false)", kv(key, v))
		return false, bad
	}
	return b, set
}

var (
	allModes = mode.All
	// kModes and readerModes are the modes k and a preference apply to.
	kModes      = modesWhere(mode.Mode.TakesK)
	readerModes = modesWhere(mode.Mode.Readers)
)

// algorithmNames lists the algorithms a spec may name: the catalogue's,
// and with the built-in catalogue the message-passing ones.
func algorithmNames(cat Catalogue) []string {
	names := cat.Names()
	if _, builtin := cat.(registry); builtin {
		for _, d := range distributed.All() {
			names = append(names, d.Name)
		}
		sort.Strings(names)
	}
	return names
}

// modesWhere lists the modes of mode.All for which rule holds.
func modesWhere(rule func(mode.Mode) bool) []mode.Mode {
	return slices.DeleteFunc(slices.Clone(mode.All), func(m mode.Mode) bool { return !rule(m) })
}

// modeNames renders modes as `mode = "kexclusion"` for error messages.
func modeNames(ms []mode.Mode) string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("mode = %q", string(m)))
	}
	return strings.Join(out, " or ")
}

var allPrefs = []templates.Preference{templates.ReaderPref, templates.WriterPref, templates.FairPref}

func (l *lockChecker) check() (Lock, lockInfo) {
	lk := Lock{Pos: l.head, NamePos: l.at("name")}
	info := lockInfo{head: l.head, namePos: lk.NamePos}
	cat := l.c.cat

	// name
	if name, st := l.str("name", ""); st == unset {
		l.headErr(`name is required: the lock's exported Go type name, e.g. name = "QueueLock"`)
	} else if st == set {
		if msg := checkName(name); msg != "" {
			l.errorf("name", "name = %s %s", shown(name), msg)
		} else {
			lk.Name, info.name = name, name
		}
	}

	// package
	if pkg, st := l.str("package", ""); st == unset {
		l.headErr(`package is required: the Go package name of the output, e.g. package = "queuelock"`)
	} else if st == set {
		if msg := checkPackage(pkg); msg != "" {
			l.errorf("package", "package = %s %s", shown(pkg), msg)
		} else {
			lk.Package, info.pkg = pkg, pkg
		}
	}

	// algorithm, allow_incorrect
	var e *templates.Entry
	names := algorithmNames(cat)
	if alg, st := l.str("algorithm", "; valid: "+list(names)); st == unset {
		l.headErr("algorithm is required; valid: %s", list(names))
	} else if st == set {
		if found, ok := cat.Lookup(alg); ok && found != nil {
			e = found
			lk.Algorithm, lk.Entry = alg, e
		} else if d, ok := distributed.Lookup(alg); ok {
			lk.Algorithm, lk.Distributed = alg, d
			return l.distributed(lk, info, d)
		} else {
			l.errorf("algorithm", "algorithm = %s is unknown; valid: %s%s", shown(alg), list(names), didYouMean(alg, names))
		}
	}
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

	// mode
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

	// nodes
	nodesOK := true
	s, st = l.str("nodes", "; valid: "+list(templates.AllNodePolicies))
	switch st {
	case bad:
		nodesOK = false
	case set:
		n := templates.NodePolicy(s)
		switch {
		case !slices.Contains(templates.AllNodePolicies, n):
			l.errorf("nodes", "nodes = %s is not a node policy; valid: %s%s", shown(s), list(templates.AllNodePolicies), didYouMean(s, templates.AllNodePolicies))
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

	// procs
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
		switch needs := e.NeedsProcs || lk.Nodes == templates.Array; {
		case needs && pst == unset:
			switch {
			case e.NeedsProcs && e.ProcsSizeOnly:
				l.headErr("procs is required: %s sizes its shared arrays by the number of processes, and at most procs goroutines may use the lock at once; valid: %d..%d", e.Name, lo, hi)
			case e.NeedsProcs:
				l.headErr("procs is required: %s addresses per-process registers by process id; valid: %d..%d", e.Name, lo, hi)
			default:
				l.headErr("procs is required with nodes = \"array\"; valid: %d..%d", lo, hi)
			}
			procsOK = false
		case !needs && pst == set && !(!nodesOK && l.m["nodes"] == string(templates.Array)):
			// (With a rejected nodes = "array", that error says it all.)
			hint := ""
			if e.HasNodes() && e.Nodes[templates.Array] == "" {
				if _, ok := e.Nodes[templates.Array]; ok {
					hint = `; set nodes = "array" to index nodes by process id`
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

	// k
	kval, kst := l.integer("k", "")
	if modeOK {
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

	// padding
	lk.Padding = DefaultPadding
	if pad, st := l.integer("padding", "; valid: "+listInts(Paddings)); st == set {
		if !slices.ContainsFunc(Paddings, func(p int) bool { return int64(p) == pad }) {
			l.errorf("padding", "padding = %d is out of range; valid: %s", pad, listInts(Paddings))
		} else {
			lk.Padding = int(pad)
		}
	}

	// wait
	waitOK := true
	lk.Wait = DefaultWait
	s, st = l.str("wait", "; valid: "+list(templates.AllWaitPolicies))
	switch st {
	case bad:
		waitOK = false
	case set:
		w := templates.WaitPolicy(s)
		switch {
		case !slices.Contains(templates.AllWaitPolicies, w):
			l.errorf("wait", "wait = %s is not a wait policy; valid: %s%s", shown(s), list(templates.AllWaitPolicies), didYouMean(s, templates.AllWaitPolicies))
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

	// spin
	sv, sst := l.integer("spin", "")
	spins := lk.Wait == templates.SpinThenYield || lk.Wait == templates.SpinThenPark
	switch {
	case waitOK && !spins && sst == set:
		l.errorf("spin", "spin = %d has no effect with wait = %s; spin applies only to spin-then-yield and spin-then-park", sv, shown(string(lk.Wait)))
	case sst == set && (sv < MinSpin || sv > MaxSpin):
		l.errorf("spin", "spin = %d is out of range; valid: %d..%d", sv, MinSpin, MaxSpin)
	case waitOK && spins && sst == set:
		lk.Spin = int(sv)
	case waitOK && spins:
		lk.Spin = DefaultSpin
	}

	// preference
	s, st = l.str("preference", "; valid: "+list(allPrefs))
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

	// trylock
	if t, st := l.boolean("trylock"); st == set {
		if t && e != nil && e.TryLock != "" {
			l.errorf("trylock", "trylock = true is not supported by %s: %s", e.Name, e.TryLock)
		}
		lk.TryLock = t
	}

	// tests
	if t, st := l.boolean("tests"); st == set {
		lk.NoTests = !t
	}

	// the entry's own parameters
	if e != nil {
		l.params(e, &lk, procsOK)
	}

	l.unknownKeys(e)
	return lk, info
}

// params checks and fills the entry's parameters. procsOK says whether
// lk.Procs can be handed to the parameters' checks.
func (l *lockChecker) params(e *templates.Entry, lk *Lock, procsOK bool) {
	for _, p := range e.Params {
		if isSchemaKey(p.Key) {
			continue // a catalogue bug: the common key wins
		}
		if lk.Params == nil {
			lk.Params = map[string]int64{}
		}
		v, present := l.m[p.Key]
		if !present {
			if p.Required {
				doc := ""
				if p.Doc != "" {
					doc = ": " + p.Doc
				}
				l.headErr("%s is required by %s%s", p.Key, e.Name, doc)
			} else {
				lk.Params[p.Key] = p.Default
			}
			continue
		}
		var n int64
		if p.Duration {
			s, ok := v.(string)
			if !ok {
				l.errorf(p.Key, `%s must be a duration string such as "10us" or "1.5ms"`, kv(p.Key, v))
				continue
			}
			d, err := time.ParseDuration(s)
			if err != nil {
				l.errorf(p.Key, `%s is not a duration; write a Go duration such as "10us" or "1.5ms"`, kv(p.Key, v))
				continue
			}
			n = int64(d)
		} else {
			i, ok := v.(int64)
			if !ok {
				l.errorf(p.Key, "%s must be an integer", kv(p.Key, v))
				continue
			}
			n = i
		}
		if n < 0 {
			l.errorf(p.Key, "%s must not be negative", kv(p.Key, v))
			continue
		}
		if p.Check != nil && procsOK {
			if err := p.Check(n, lk.Procs); err != nil {
				l.errorf(p.Key, "%s is out of range for %s: %v", kv(p.Key, v), e.Name, err)
				continue
			}
		}
		lk.Params[p.Key] = n
	}
}

// unknownKeys reports keys that are neither in Schema nor parameters of e.
// With e nil (algorithm missing or unknown), keys that are some entry's
// parameters are let pass: the algorithm is the problem.
func (l *lockChecker) unknownKeys(e *templates.Entry) {
	valid := schemaKeys()
	if e != nil {
		for _, p := range e.Params {
			if !isSchemaKey(p.Key) {
				valid = append(valid, p.Key)
			}
		}
	}
	for _, k := range l.c.sortedKeys(l.base, l.m) {
		if slices.Contains(valid, k) {
			continue
		}
		owners := l.paramOwners(k)
		switch {
		case len(owners) > 0 && e == nil:
			continue
		case len(owners) > 0:
			l.errorf(k, "unknown key %s: it is a parameter of %s, not of %s", shown(k), list(owners), e.Name)
		default:
			if m := didYouMean(k, valid); m != "" {
				l.errorf(k, "unknown key %s%s", shown(k), m)
			} else {
				l.errorf(k, "unknown key %s; valid keys: %s", shown(k), list(valid))
			}
		}
	}
}

// paramOwners lists the catalogue entries that have a parameter named key.
func (l *lockChecker) paramOwners(key string) []string {
	var owners []string
	for _, n := range l.c.cat.Names() {
		e, ok := l.c.cat.Lookup(n)
		if !ok || e == nil {
			continue
		}
		for _, p := range e.Params {
			if p.Key == key {
				owners = append(owners, n)
				break
			}
		}
	}
	return owners
}

func validNodes(e *templates.Entry) []templates.NodePolicy {
	var out []templates.NodePolicy
	for _, n := range templates.AllNodePolicies {
		if reason, ok := e.Nodes[n]; ok && reason == "" {
			out = append(out, n)
		}
	}
	return out
}

func validWaits(e *templates.Entry) []templates.WaitPolicy {
	var out []templates.WaitPolicy
	for _, w := range templates.AllWaitPolicies {
		if e.Waits[w] == "" {
			out = append(out, w)
		}
	}
	return out
}

// clause trims the final period of a catalogue text that a message goes on
// after.
func clause(s string) string { return strings.TrimRight(strings.TrimSpace(s), ".") }

func listInts(xs []int) string {
	ss := make([]string, len(xs))
	for i, x := range xs {
		ss[i] = fmt.Sprint(x)
	}
	return strings.Join(ss, ", ")
}

// checkName returns why name cannot be a lock's type name, or "".
func checkName(name string) string {
	switch {
	case token.IsKeyword(name):
		return "is a Go keyword; name must be an exported Go identifier"
	case !token.IsIdentifier(name):
		return "is not a Go identifier; name must be an exported Go identifier, e.g. \"QueueLock\""
	case !token.IsExported(name):
		hint := ""
		if up := strings.ToUpper(name[:1]) + name[1:]; token.IsExported(up) {
			hint = "; did you mean " + shown(up) + "?"
		}
		return "is not exported: name must start with an upper-case letter" + hint
	}
	return checkFileName(strings.ToLower(name))
}

// MaxNameBytes bounds a lock name so that its longest generated file name,
// base + LongestFileSuffix, fits the 255-byte limit of common file systems.
const (
	LongestFileSuffix = "_check_test.go"
	MaxNameBytes      = 255 - len(LongestFileSuffix)
)

// RuntimeFilePrefix starts the names of the runtime files every generated
// package holds; lock file names may not.
const RuntimeFilePrefix = "lockgen_"

// checkFileName returns why base, a lock's lower-cased name, cannot name its
// generated files (base.go, base_test.go, base_check_test.go), or "".
func checkFileName(base string) string {
	switch {
	case len(base) > MaxNameBytes:
		return fmt.Sprintf("is %d bytes long; at most %d, so that its generated file %s fits the 255-byte limit of file names", len(base), MaxNameBytes, "…"+LongestFileSuffix)
	case strings.HasSuffix(base, "_test"):
		return fmt.Sprintf("ends in _test: its generated file %s.go would be a test file to the go tool", base)
	case strings.HasPrefix(base, RuntimeFilePrefix):
		return fmt.Sprintf("starts with %s, which is reserved for the runtime files of generated packages", RuntimeFilePrefix)
	}
	if suffix := osArchSuffix(base); suffix != "" {
		return fmt.Sprintf("ends in _%s: the go tool would build its generated file %s.go only for %s", suffix, base, strings.ReplaceAll(suffix, "_", "/"))
	}
	return ""
}

// osArchSuffix returns the GOOS or GOARCH that the go tool reads in the file
// name base.go (as in lock_windows.go or lock_arm64.go), or "". It asks
// go/build, so the list of systems is the toolchain's own.
func osArchSuffix(base string) string {
	ctx := build.Context{
		GOOS: "none", GOARCH: "none", Compiler: "gc",
		OpenFile: func(string) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader("package p\n")), nil
		},
	}
	builds := func(base string) bool {
		ok, err := ctx.MatchFile(".", base+".go")
		return ok || err != nil
	}
	if builds(base) {
		return ""
	}
	parts := strings.Split(base, "_")
	for n := 1; n <= 2 && n < len(parts); n++ {
		if builds(strings.Join(parts[:len(parts)-n], "_")) {
			return strings.Join(parts[len(parts)-n:], "_")
		}
	}
	return parts[len(parts)-1]
}

var pkgName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkPackage returns why pkg cannot be the output's package name, or "".
func checkPackage(pkg string) string {
	switch {
	case token.IsKeyword(pkg):
		return "is a Go keyword"
	case !token.IsIdentifier(pkg):
		return "is not a Go identifier; package must be a lower-case identifier, e.g. \"queuelock\""
	case !pkgName.MatchString(pkg):
		hint := ""
		if low := strings.ToLower(pkg); pkgName.MatchString(low) && checkPackage(low) == "" {
			hint = "; did you mean " + shown(low) + "?"
		}
		return "must be lower case: a letter a-z, then letters a-z, digits or _" + hint
	case pkg == "main":
		return "cannot be used: a lock package must be importable, and main is not"
	case pkg == "init":
		return "cannot be used: init names package initialisers, and a package named init cannot be imported"
	case pkg == "documentation":
		return "cannot be used: the go tool ignores files of package documentation"
	case strings.HasSuffix(pkg, "_test"):
		return "cannot be used: go test reserves the _test suffix for external test packages"
	case types.Universe.Lookup(pkg) != nil:
		return "is a predeclared Go identifier; importing the package would shadow the built-in " + pkg
	}
	return ""
}
