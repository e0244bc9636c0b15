package tune

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
)

// Target is the lock being tuned, as its spec has it.
type Target struct {
	Path  string     // the spec's path
	Src   []byte     // the spec's text
	File  *spec.File // the spec, parsed
	Index int        // the lock's index in File.Locks
	Lock  spec.Lock
	Dir   string     // the directory the lock's package is generated into (absolute)
	API   golang.API // what the user's code calls
}

// NewTarget finds lock name ("" when the spec has one lock) in the spec f
// parsed from src.
func NewTarget(f *spec.File, src []byte, i int) (*Target, error) {
	l := f.Locks[i]
	if l.Distributed != nil {
		return nil, fmt.Errorf("%s: %s is a distributed lock (%s): lockgen tune measures shared-memory locks", l.Pos, l.Name, l.Algorithm)
	}
	abs, err := filepath.Abs(f.Path)
	if err != nil {
		return nil, err
	}
	return &Target{Path: f.Path, Src: src, File: f, Index: i, Lock: l, Dir: filepath.Dir(abs),
		API: golang.APIOf(gen.Config(l, f, "", ""))}, nil
}

// Candidate is one variant of the target: the current one, the standard
// lock, or the spec's lock with other keys.
type Candidate struct {
	// Name is how -candidates names it: "current", the standard lock's
	// name ("sync.RWMutex"), or the algorithm followed by the keys that
	// differ from its defaults ("mcs-rw:preference=reader:wait=park").
	Name     string
	Current  bool
	Standard bool
	// Lock is the variant's lock (the target's for the standard lock).
	Lock spec.Lock
	// Edit turns the spec into the variant's (none for the current and
	// the standard lock); File is the edited spec, parsed.
	Edit spec.Edit
	File *spec.File
}

// Variant names what the candidate is: for the current one, its
// algorithm and keys.
func (c *Candidate) Variant(t *Target) string {
	if c.Current {
		return t.NameOf(t.Lock)
	}
	return c.Name
}

// Label is the candidate as tables show it.
func (c *Candidate) Label(t *Target) string {
	if c.Current {
		return "current (" + t.NameOf(t.Lock) + ")"
	}
	return c.Name
}

// Current is the lock as the spec has it.
func (t *Target) Current() *Candidate {
	return &Candidate{Name: "current", Current: true, Lock: t.Lock, File: t.File}
}

// Standard is the standard lock in the target's shape.
func (t *Target) Standard() *Candidate {
	return &Candidate{Name: golang.StandardName(t.Lock.Mode), Standard: true, Lock: t.Lock, File: t.File}
}

// knobs are the keys a candidate name may set: they change the variant,
// not the API. Every other key of the spec's lock is kept as it is.
var knobs = []string{"preference", "nodes", "wait", "spin", "padding"}

// errNotApplicable wraps the reason a candidate cannot stand in for the
// target.
var errNotApplicable = errors.New("not applicable")

// Resolve turns a candidate's name into the candidate. An error wrapping
// errNotApplicable says why the variant cannot replace the target (an
// option its algorithm refuses, another API).
func (t *Target) Resolve(name string) (*Candidate, error) {
	switch name {
	case "current":
		return t.Current(), nil
	case "std", "standard", golang.StandardName(t.Lock.Mode):
		return t.Standard(), nil
	}
	parts := strings.Split(name, ":")
	alg := parts[0]
	e, ok := templates.Lookup(alg)
	if !ok {
		hint := ""
		if m := spec.Suggest(alg, templates.Names()); m != "" {
			hint = fmt.Sprintf("; did you mean %q?", m)
		}
		return nil, fmt.Errorf("candidate %q: unknown algorithm %q%s", name, alg, hint)
	}
	if e.NegativeControl() {
		return nil, fmt.Errorf("candidate %q: %w: %s is a negative control, which verify must reject", name, errNotApplicable, alg)
	}
	set := map[string]any{"algorithm": alg}
	for _, kv := range parts[1:] {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("candidate %q: %q is not KEY=VALUE", name, kv)
		}
		v, err := keyValue(e, key, val)
		if err != nil {
			return nil, fmt.Errorf("candidate %q: %v", name, err)
		}
		set[key] = v
	}
	// Where the algorithm has nodes, the policy that keeps the API.
	if _, given := set["nodes"]; e.HasNodes() && !given {
		set["nodes"] = string(t.nodesFor(e))
	}
	var remove []string
	for _, k := range knobs {
		if _, given := set[k]; !given {
			remove = append(remove, k)
		}
	}
	if t.Lock.Entry != nil {
		for _, p := range t.Lock.Entry.Params {
			if _, given := set[p.Key]; !given {
				remove = append(remove, p.Key)
			}
		}
	}
	if !e.NeedsProcs && set["nodes"] != string(nodes.Array) {
		remove = append(remove, "procs")
	}
	ed := spec.Edit{Lock: t.Index, Set: set, Remove: remove}
	src, err := spec.EditSource(t.Src, ed)
	if err != nil {
		return nil, fmt.Errorf("candidate %q: %v", name, err)
	}
	f, err := spec.Parse(t.Path, src)
	if err != nil {
		var se spec.Errors
		if errors.As(err, &se) && len(se) > 0 {
			return nil, fmt.Errorf("candidate %q: %w: %s", name, errNotApplicable, se[0].Msg)
		}
		return nil, fmt.Errorf("candidate %q: %v", name, err)
	}
	l := f.Locks[t.Index]
	if a := golang.APIOf(gen.Config(l, f, "", "")); a != t.API {
		return nil, fmt.Errorf("candidate %q: %w: its API (%s) is not %s's (%s)", name, errNotApplicable, a, t.Lock.Name, t.API)
	}
	return &Candidate{Name: name, Lock: l, Edit: ed, File: f}, nil
}

// nodesFor is the node policy of e that gives the target's shape.
func (t *Target) nodesFor(e *templates.Entry) nodes.Policy {
	ok := func(n nodes.Policy) bool { why, has := e.Nodes[n]; return has && why == "" }
	switch t.API.Shape {
	case shape.Handles:
		return nodes.Handle
	case shape.CallerNodes:
		return nodes.Caller
	case shape.IDs:
		return nodes.Array
	}
	if ok(e.DefaultNodes) && (e.DefaultNodes == nodes.Pool || e.DefaultNodes == nodes.Heap) {
		return e.DefaultNodes
	}
	if ok(nodes.Pool) {
		return nodes.Pool
	}
	return nodes.Heap
}

// keyValue reads a candidate's KEY=VALUE as the spec's TOML type.
func keyValue(e *templates.Entry, key, val string) (any, error) {
	if slices.Contains(knobs, key) {
		for _, d := range spec.Schema {
			if d.Key == key && d.Type == "integer" {
				n, err := strconv.Atoi(val)
				if err != nil {
					return nil, fmt.Errorf("%s=%s: want an integer", key, val)
				}
				return n, nil
			}
		}
		return val, nil
	}
	for _, p := range e.Params {
		if p.Key != key {
			continue
		}
		if p.Duration {
			return val, nil
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: want an integer", key, val)
		}
		return n, nil
	}
	return nil, fmt.Errorf("%s: a candidate sets only %s or the algorithm's own keys (lockgen explain %s); the others keep the API", key, strings.Join(knobs, ", "), e.Name)
}

// NameOf names a lock as a candidate: its algorithm, then each key whose
// value is not what the shorter name gives.
func (t *Target) NameOf(l spec.Lock) string {
	name := l.Algorithm
	c, err := t.Resolve(name)
	if err != nil {
		return name
	}
	keys := append([]string{}, knobs...)
	if l.Entry != nil {
		for _, p := range l.Entry.Params {
			keys = append(keys, p.Key)
		}
	}
	for _, k := range keys {
		have, want := keyOf(l, k), keyOf(c.Lock, k)
		if have == want || have == "" {
			continue
		}
		next, err := t.Resolve(name + ":" + k + "=" + have)
		if err != nil {
			continue
		}
		name, c = next.Name, next
	}
	return name
}

// keyOf is one key's value in a lock's canonical echo ("" if absent).
func keyOf(l spec.Lock, key string) string {
	for _, line := range strings.Split(l.TOML(), "\n") {
		k, v, ok := strings.Cut(line, " = ")
		if ok && k == key {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// The default candidates, best first: the standard lock, then the
// variants lockgen explain advises for the mode, the catalogue's fastest
// first (docs/performance.md: the ticket and test-and-set locks meet
// sync.Mutex's uncontended time, MCS and CLH keep FIFO order under
// contention), then the current algorithm under the waiting policies
// explain advises for long critical sections and for far more goroutines
// than processors (park, spin-then-park), unpadded, and with its nodes
// from the heap or a pool where it takes them so. A name that does
// not fit the target (another API, an option its algorithm refuses) is
// left out; "CUR" is the current algorithm and preference.
var defaults = map[string][]string{
	"mutex":      {"ticket", "ttas", "mcs", "tas:wait=park", "clh", "CUR:wait=park", "CUR:wait=spin-then-park", "CUR:padding=0", "CUR:nodes=heap", "CUR:nodes=pool", "graunke-thakkar", "anderson"},
	"rw":         {"mcs-rw:preference=reader", "mcs-rw:preference=writer", "mcs-rw:preference=fair", "CUR:wait=park", "CUR:wait=spin-then-park", "CUR:padding=0"},
	"kexclusion": {"replace-add", "zehavi", "filter", "CUR:wait=park", "CUR:wait=spin-then-park", "CUR:padding=0"},
}

// Defaults are the candidates tuned when -candidates does not say: the
// current variant, the standard lock, then the default list's variants
// that fit the target, without repeats, at most max in all.
func (t *Target) Defaults(max int) []*Candidate {
	out := []*Candidate{t.Current(), t.Standard()}
	seen := map[string]bool{t.Lock.TOML(): true}
	cur := t.Lock.Algorithm
	if t.Lock.Preference != "" {
		cur += ":preference=" + string(t.Lock.Preference)
	}
	for _, name := range defaults[string(t.Lock.Mode.Or("mutex"))] {
		if len(out) >= max {
			break
		}
		name = strings.Replace(name, "CUR", cur, 1)
		c, err := t.Resolve(name)
		if err != nil {
			continue
		}
		if echo := c.Lock.TOML(); !seen[echo] {
			seen[echo] = true
			c.Name = t.NameOf(c.Lock)
			out = append(out, c)
		}
	}
	return out
}

// Parse reads -candidates: names separated by commas. The current
// variant comes first whether named or not: the others are measured
// against it.
func (t *Target) Parse(list string) ([]*Candidate, error) {
	out := []*Candidate{t.Current()}
	seen := map[string]bool{"current": true}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		c, err := t.Resolve(name)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		out = append(out, c)
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("-candidates %q names no variant beside the current one", list)
	}
	return out, nil
}
