// Package gen is lockgen's pipeline: spec files in, generated packages out.
//
//	spec.ParseFile ─► templates entry ─► Def (ir.Algorithm) ─► golang backend ─► Plan ─► Write
//
// Everything is computed in memory first (Plan); only a complete, valid plan
// touches the disk, one file at a time through a temporary file and a
// rename, so a bad spec never writes, creates or truncates anything.
package gen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
)

// Output is one file to write.
type Output struct {
	Path string // absolute
	Data []byte
	Pos  spec.Pos // the lock that writes it (for the runtime, the first lock of its package)
}

// Plan is what a generation writes, and what it removes: files an earlier
// run generated from the same spec for locks that no longer exist.
type Plan struct {
	Outputs []Output
	Stale   []string
	Locks   []spec.Lock // the validated locks it generates, in spec order
	// listings is what each output directory held when Build read it
	// (listing): Write refuses one that changed meanwhile.
	listings map[string]string
}

// Options control a generation.
type Options struct {
	// OutDir receives the packages; "" means each spec's own directory.
	OutDir string
	// WithTests generates every lock's tests, its spec's tests = false
	// notwithstanding: a tool that checks the locks needs their subjects
	// and the check build.
	WithTests bool
}

// Config turns a validated spec lock into a backend configuration. Other
// drivers (the mutation runs) reuse it with a different definition.
func Config(l spec.Lock, f *spec.File, specRel, importPath string) golang.Config {
	k := l.K
	if k == 0 {
		k = 1
	}
	return golang.Config{
		Name:       l.Name,
		Package:    l.Package,
		ImportPath: importPath,
		Entry:      l.Entry,
		Alg:        l.Entry.MustDef(templates.Options{Mode: l.Mode, Preference: l.Preference}),
		Params:     ir.Params{N: l.Procs, K: k, Extra: l.Params},
		Mode:       l.Mode,
		Preference: l.Preference,
		Nodes:      l.Nodes,
		Padding:    l.Padding,
		Wait:       l.Wait,
		Spin:       l.Spin,
		TryLock:    l.TryLock,
		Context:    l.Context,
		SpecPath:   specRel,
		SpecHash:   f.Hash,
		SpecEcho:   l.TOML(),
	}
}

// NetConfig turns a validated spec lock of a message-passing algorithm
// into the backend's configuration.
func NetConfig(l spec.Lock, f *spec.File, specRel string) golang.NetConfig {
	return golang.NetConfig{
		Name:     l.Name,
		Package:  l.Package,
		Entry:    l.Distributed,
		SpecPath: specRel,
		SpecHash: f.Hash,
		SpecEcho: l.TOML(),
	}
}

// Build parses the specs and lowers every lock, without writing anything.
// Spec problems come back as spec.Errors (all of them, every file).
func Build(specPaths []string, opts Options) (*Plan, error) {
	var files []*spec.File
	var errs spec.Errors
	for _, p := range specPaths {
		f, err := spec.ParseFile(p)
		var se spec.Errors
		switch {
		case errors.As(err, &se):
			errs = append(errs, se...)
			continue
		case err != nil:
			return nil, err
		}
		files = append(files, f)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return BuildFiles(files, opts)
}

// BuildFiles lowers every lock of specs already parsed, without writing
// anything: a tool that edits a spec in memory (lockgen tune) generates
// the edited text as generate would the file.
func BuildFiles(files []*spec.File, opts Options) (*Plan, error) {
	var errs spec.Errors
	type dirInfo struct {
		dir   string
		pkg   string
		owner spec.Lock            // the first lock placed there, for messages
		locks map[string]spec.Lock // by name
		seq   map[string]int       // by name: the order the specs list the locks in
		files []planned
		names map[string]string // file name -> the lock writing it ("" for the runtime)
		tests bool              // some lock there has tests: keep the lockgen_check runtime
		// shared and net say whether the package holds shared-memory locks
		// (which need the lockrt runtime) and distributed ones (netrt).
		shared, net bool
		specs       map[string]bool // the specs of this run that write there, as headers name them
	}
	dirs := map[string]*dirInfo{}
	var order []*dirInfo
	plan := &Plan{}
	for _, f := range files {
		specAbs, err := filepath.Abs(f.Path)
		if err != nil {
			return nil, err
		}
		for _, l := range f.Locks {
			dir := opts.OutDir
			if dir == "" {
				dir = filepath.Dir(specAbs)
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				return nil, err
			}
			d := dirs[dir]
			if d == nil {
				d = &dirInfo{dir: dir, pkg: l.Package, owner: l, locks: map[string]spec.Lock{}, seq: map[string]int{}, names: map[string]string{}, specs: map[string]bool{}}
				dirs[dir] = d
				order = append(order, d)
				rt, err := golang.Runtime(d.pkg)
				if err != nil {
					return nil, err
				}
				for _, out := range rt {
					d.names[out.Name] = ""
					d.files = append(d.files, planned{name: out.Name, data: out.Data})
				}
			}
			if d.pkg != l.Package {
				errs = append(errs, spec.Error{Pos: l.Pos, Msg: fmt.Sprintf(
					"package %q: lock %s (%s) already puts package %q in %s; one directory holds one package",
					l.Package, d.owner.Name, d.owner.Pos, d.pkg, dir)})
				continue
			}
			if first, dup := d.locks[l.Name]; dup {
				errs = append(errs, spec.Error{Pos: l.NamePos, Msg: fmt.Sprintf(
					"name = %q: the lock at %s already puts a %s in %s", l.Name, first.Pos, l.Name, dir)})
				continue
			}
			d.locks[l.Name] = l
			d.seq[l.Name] = len(d.seq)
			plan.Locks = append(plan.Locks, l)
			rel, err := filepath.Rel(dir, specAbs)
			if err != nil {
				rel = specAbs
			}
			d.specs[filepath.ToSlash(rel)] = true
			imp, err := ImportPath(dir)
			if err != nil {
				return nil, err
			}
			var lock golang.File
			var tests []golang.File
			if l.Distributed != nil {
				d.net = true
				nc := NetConfig(l, f, filepath.ToSlash(rel))
				nc.Command = command(specAbs, dir)
				if lock, err = golang.NetworkLock(nc); err != nil {
					return nil, fmt.Errorf("%s: %v", l.Pos, err)
				}
				if !l.NoTests || opts.WithTests {
					t, err := golang.NetworkTests(nc)
					if err != nil {
						return nil, fmt.Errorf("%s: %v", l.Pos, err)
					}
					tests = append(tests, t)
				}
			} else {
				d.shared = true
				c := Config(l, f, filepath.ToSlash(rel), imp)
				c.Command = command(specAbs, dir)
				if lock, err = golang.Lock(c); err != nil {
					return nil, fmt.Errorf("%s: %v", l.Pos, err)
				}
				if !l.NoTests || opts.WithTests {
					d.tests = true
					if tests, err = golang.Tests(c); err != nil {
						return nil, fmt.Errorf("%s: %v", l.Pos, err)
					}
				}
			}
			for _, out := range append([]golang.File{lock}, tests...) {
				if prev, dup := d.names[out.Name]; dup {
					by := "the runtime"
					if prev != "" {
						by = "lock " + prev + " (" + d.locks[prev].Pos.String() + ")"
					}
					errs = append(errs, spec.Error{Pos: l.NamePos, Msg: fmt.Sprintf("name = %q: lock %s would write %s, which %s also writes", l.Name, l.Name, out.Name, by)})
					continue
				}
				d.names[out.Name] = l.Name
				d.files = append(d.files, planned{name: out.Name, data: out.Data, lock: l.Name})
			}
		}
		if err := plan.addStale(f, opts); err != nil {
			return nil, err
		}
	}
	for _, d := range order {
		// Locks other specs put in the directory share its runtime.
		other, err := othersNeed(d.dir, d.specs)
		if err != nil {
			return nil, err
		}
		d.shared, d.net, d.tests = d.shared || other.shared, d.net || other.net, d.tests || other.tests
		if !d.shared {
			// Distributed locks only: the shared-memory runtime goes.
			d.files = slices.DeleteFunc(d.files, func(f planned) bool { return f.lock == "" })
		}
		if d.shared && !d.tests {
			// No tests in the package: it needs no check build, and so
			// imports the standard library only.
			plain, err := golang.PlainRuntime(d.pkg)
			if err != nil {
				return nil, err
			}
			d.files = slices.DeleteFunc(d.files, func(f planned) bool { return f.lock == "" })
			for _, f := range plain {
				d.files = append(d.files, planned{name: f.Name, data: f.Data})
			}
		}
		if d.net {
			rt, err := golang.NetRuntime(d.pkg)
			if err != nil {
				return nil, err
			}
			d.names[rt.Name] = ""
			d.files = append(d.files, planned{name: rt.Name, data: rt.Data})
		}
		clashes, err := findClashes(d.files)
		if err != nil {
			return nil, err
		}
		reported := map[string]bool{} // one message per pair of locks
		for _, c := range clashes {
			e, pair := clashError(c, d.locks, d.seq)
			if !reported[pair] {
				reported[pair] = true
				errs = append(errs, e)
			}
		}
		var outs []Output
		for _, pf := range d.files {
			pos := d.owner.Pos
			if pf.lock != "" {
				pos = d.locks[pf.lock].NamePos
			}
			outs = append(outs, Output{Path: filepath.Join(d.dir, pf.name), Data: pf.data, Pos: pos})
		}
		if plan.listings == nil {
			plan.listings = map[string]string{}
		}
		plan.listings[d.dir] = listing(d.dir)
		found, err := scanDir(d.dir, d.pkg, d.owner, d.specs, outs)
		if err != nil {
			return nil, err
		}
		errs = append(errs, found.errs...)
		plan.Stale = append(plan.Stale, found.staleRuntime...)
		plan.Outputs = append(plan.Outputs, outs...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	sort.Slice(plan.Outputs, func(i, j int) bool { return plan.Outputs[i].Path < plan.Outputs[j].Path })
	// A stale file is one not rewritten by this plan.
	keep := map[string]bool{}
	for _, o := range plan.Outputs {
		keep[o.Path] = true
	}
	var stale []string
	for _, s := range plan.Stale {
		if !keep[s] {
			stale = append(stale, s)
		}
	}
	plan.Stale = stale
	return plan, nil
}

// clashError blames a clash on the lock that comes later in the specs (or
// on the only lock involved, when the other file is the runtime's).
func clashError(c clash, locks map[string]spec.Lock, seq map[string]int) (e spec.Error, pair string) {
	blamed, other := locks[c.dup.lock], c.first
	if c.dup.lock == "" || (c.first.lock != "" && seq[c.first.lock] > seq[c.dup.lock]) {
		blamed, other = locks[c.first.lock], c.dup
	}
	what := "the runtime (" + other.name + ")"
	if other.lock != "" {
		what = fmt.Sprintf("lock %s (%s) in %s", other.lock, locks[other.lock].Pos, other.name)
	}
	return spec.Error{Pos: blamed.NamePos, Msg: fmt.Sprintf(
		"name = %q: its generated code declares %s, which %s also declares; rename one of the locks",
		blamed.Name, c.ident, what)}, blamed.Name + "\x00" + other.lock + "\x00" + other.name
}

// generatedFrom returns the spec path recorded in a generated file's header
// ("" for the runtime files, which belong to no spec), and whether the file
// was generated by lockgen at all.
func generatedFrom(path string) (specRel string, ours bool, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer fh.Close()
	// The header is in the first lines: a build constraint, a blank line,
	// the header's two lines.
	head := make([]byte, 2048)
	n, err := io.ReadFull(fh, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", false, err
	}
	h, ours := golang.ParseHeader(head[:n])
	return h.Spec, ours, nil
}

// command is the command that generates the locks of the spec at specAbs
// into dir again, as run in the spec's directory (golang.Header.Command):
// the same whatever directory and flags lockgen ran with.
func command(specAbs, dir string) string {
	specDir := filepath.Dir(specAbs)
	args := []string{"lockgen", "generate"}
	if dir != specDir {
		rel, err := filepath.Rel(specDir, dir)
		if err != nil {
			rel = dir
		}
		args = append(args, "-o", filepath.ToSlash(rel))
	}
	args = append(args, filepath.Base(specAbs))
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell where it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// addStale lists the files a previous run generated from f in its output
// directory.
func (p *Plan) addStale(f *spec.File, opts Options) error {
	specAbs, err := filepath.Abs(f.Path)
	if err != nil {
		return err
	}
	dir := opts.OutDir
	if dir == "" {
		dir = filepath.Dir(specAbs)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(dir, specAbs)
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, m := range matches {
		from, ours, err := generatedFrom(m)
		if err != nil {
			return err
		}
		if ours && from == filepath.ToSlash(rel) {
			p.Stale = append(p.Stale, m)
		}
	}
	return nil
}

// packageClause returns the package name a Go file declares.
func packageClause(src []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	inBlock := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if inBlock {
			if i := strings.Index(line, "*/"); i >= 0 {
				inBlock = false
				line = strings.TrimSpace(line[i+2:])
			} else {
				continue
			}
		}
		if strings.HasPrefix(line, "/*") {
			inBlock = !strings.Contains(line[2:], "*/")
			continue
		}
		if strings.HasPrefix(line, "package ") {
			return strings.Fields(line)[1]
		}
	}
	return ""
}

// ImportPath finds the import path of dir from the enclosing go.mod.
func ImportPath(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mod := modulePath(data)
			if mod == "" {
				return "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return "", err
			}
			if rel == "." {
				return mod, nil
			}
			return mod + "/" + filepath.ToSlash(rel), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside a Go module (no go.mod above it): the generated tests need an import path", dir)
		}
	}
}

func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
