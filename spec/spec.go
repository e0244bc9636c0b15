// Package spec reads lockgen's TOML lock specifications and validates them
// against the catalogue.
//
// A spec file holds one or more [[lock]] tables; Schema documents their keys
// and defaults. Parse checks everything it can before generation starts: TOML
// syntax, unknown keys (with a suggestion), types, ranges, Go names, and
// every choice the chosen algorithm cannot honour. It reports all problems at
// once, each as file:line:col: message.
package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/BurntSushi/toml"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
	"github.com/lockgen/lockgen/wait"
)

// File is a parsed, validated spec file.
type File struct {
	Path  string
	Hash  string // sha256 of the file's bytes, hex
	Locks []Lock // in file order
}

// Lock is one validated [[lock]] table with every default filled in.
type Lock struct {
	Pos     Pos // the [[lock]] header
	NamePos Pos // the name key, where messages about the name point

	Name      string           // exported Go type name
	Package   string           // Go package name of the output
	Algorithm string           // catalogue name
	Entry     *templates.Entry // the catalogue entry named by Algorithm
	// Distributed is the message-passing entry named by Algorithm (Entry
	// is then nil): a distributed lock, which takes only name, package,
	// algorithm, mode and tests (see distributed.go).
	Distributed *distributed.Entry

	Mode       mode.Mode
	K          int          // at most K holders; mode kexclusion only, else 0
	Procs      int          // process ids are 0..Procs-1; 0 when the lock takes no ids
	Nodes      nodes.Policy // NodesNone when the algorithm has no per-process records
	Padding    int          // bytes
	Wait       wait.Policy
	Spin       int                  // with a policy that takes it (wait.Policy.TakesSpin), else 0
	Preference templates.Preference // mode rw only, else ""

	TryLock        bool
	Context        bool // context = true: LockContext (see context.go)
	AllowIncorrect bool
	NoTests        bool // tests = false: no test files and no lockgen_check runtime

	// Params holds every parameter of the entry (Entry.Params), set or
	// defaulted; durations in nanoseconds. Nil when the entry has none.
	Params map[string]int64
}

// Catalogue resolves algorithm names. The default is the templates package's
// registry; tests pass their own.
type Catalogue interface {
	Lookup(name string) (*templates.Entry, bool)
	Names() []string // sorted
}

type registry struct{}

func (registry) Lookup(name string) (*templates.Entry, bool) { return templates.Lookup(name) }
func (registry) Names() []string                             { return templates.Names() }

// ParseFile reads and parses the spec at path.
func ParseFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses and validates a spec against the catalogue (templates).
// path is used in positions. On any problem it returns a nil File and an
// Errors holding every problem found.
func Parse(path string, data []byte) (*File, error) {
	return ParseWith(nil, path, data)
}

// ParseWith is Parse against cat (nil: the templates catalogue).
func ParseWith(cat Catalogue, path string, data []byte) (*File, error) {
	if cat == nil {
		cat = registry{}
	}
	sum := sha256.Sum256(data)
	c := &checker{cat: cat, file: path}
	src := stripBOM(string(data))
	idx, deep := scanKeys(src)
	if deep != nil {
		c.errorf(Pos{File: path, Line: deep.line, Col: deep.col}, "nested deeper than %d levels; spec values are plain strings, integers and booleans", maxNesting)
		return nil, c.errs
	}
	doc, err := decode(src)
	if err != nil {
		c.syntax(src, err)
		return nil, c.errs
	}
	c.idx = idx
	locks := c.document(doc)
	if len(c.errs) > 0 {
		c.errs.sort()
		return nil, c.errs
	}
	return &File{Path: path, Hash: hex.EncodeToString(sum[:]), Locks: locks}, nil
}

// decode parses TOML, turning a panic in the parser (a bug there) into an
// error: a bad spec must never crash lockgen.
func decode(src string) (doc map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("TOML parser failed: %v", r)
		}
	}()
	_, err = toml.Decode(src, &doc)
	return doc, err
}
