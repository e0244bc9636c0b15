package tune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/spec"
)

// Overlay is a candidate laid over the user's package for the go command
// (go build -overlay): the generated files it replaces or adds, and those
// it deletes, while the user's files on disk stay as they are.
type Overlay struct {
	Write  map[string][]byte // absolute path → contents
	Delete []string          // absolute paths
}

// overlay generates the candidate's package as lockgen generate would
// write it for the edited spec; withTests adds every lock's tests (the
// check of a winner needs its own), otherwise a lock's tests are there as
// its spec says.
func (t *Target) overlay(c *Candidate, outDir string, withTests bool) (*Overlay, error) {
	plan, err := gen.BuildFiles([]*spec.File{c.File}, gen.Options{OutDir: outDir, WithTests: withTests})
	if err != nil {
		return nil, err
	}
	o := &Overlay{Write: map[string][]byte{}, Delete: plan.Stale}
	for _, out := range plan.Outputs {
		o.Write[out.Path] = out.Data
	}
	if !c.Standard {
		return o, nil
	}
	// The standard lock takes the generated lock's files.
	dir := outDir
	if dir == "" {
		dir = t.Dir
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(dir, golang.FileBase(t.Lock.Name))
	for _, p := range []string{base + ".go", base + "_test.go", base + "_check_test.go"} {
		if _, ours := o.Write[p]; ours {
			delete(o.Write, p)
			o.Delete = append(o.Delete, p)
		}
	}
	rel, err := filepath.Rel(dir, t.absSpec())
	if err != nil {
		return nil, err
	}
	imp, err := gen.ImportPath(dir)
	if err != nil {
		return nil, err
	}
	lock, tests, err := golang.Standard(gen.Config(t.Lock, t.File, filepath.ToSlash(rel), imp))
	if err != nil {
		return nil, err
	}
	if !withTests && t.Lock.NoTests {
		tests = nil
	}
	for _, f := range append(tests, lock) {
		p := filepath.Join(dir, f.Name)
		o.Write[p] = f.Data
	}
	kept := o.Delete[:0]
	for _, p := range o.Delete {
		if _, written := o.Write[p]; !written {
			kept = append(kept, p)
		}
	}
	o.Delete = kept
	return o, nil
}

func (t *Target) absSpec() string {
	p, err := filepath.Abs(t.Path)
	if err != nil {
		return t.Path
	}
	return p
}

// save writes the overlay's files and the go command's overlay file into
// dir, and returns the overlay file's path.
func (o *Overlay) save(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	replace := map[string]string{}
	paths := make([]string, 0, len(o.Write))
	for p := range o.Write {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		f := filepath.Join(dir, strconv.Itoa(i)+"-"+filepath.Base(p))
		if err := os.WriteFile(f, o.Write[p], 0o644); err != nil {
			return "", err
		}
		replace[p] = f
	}
	for _, p := range o.Delete {
		replace[p] = ""
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return "", fmt.Errorf("overlay: %v", err)
	}
	return file, nil
}
