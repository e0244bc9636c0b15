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
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
	"github.com/lockgen/lockgen/wait"
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

func validNodes(e *templates.Entry) []nodes.Policy {
	var out []nodes.Policy
	for _, n := range nodes.All {
		if reason, ok := e.Nodes[n]; ok && reason == "" {
			out = append(out, n)
		}
	}
	return out
}

func validWaits(e *templates.Entry) []wait.Policy {
	var out []wait.Policy
	for _, w := range wait.All {
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
