package gen

import (
	"os"
	"path/filepath"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/spec"
)

// ScratchDir is a package generated from a spec for a tool to test or
// measure (lockgen verify, lockgen bench), beside the spec so that it lies
// in the spec's module and may import lockgen's verify and perf packages.
// Its name starts with an underscore, so ./... patterns skip it.
type ScratchDir struct {
	Path string // absolute
}

// Scratch generates the locks of f into a new directory beside f.Path
// named prefix followed by random characters. The caller removes it.
func Scratch(f *spec.File, prefix string) (*ScratchDir, error) {
	dir, err := os.MkdirTemp(filepath.Dir(f.Path), prefix)
	if err != nil {
		return nil, err
	}
	s := &ScratchDir{Path: dir}
	if s.Path, err = filepath.Abs(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	plan, err := Build([]string{f.Path}, Options{OutDir: s.Path, WithTests: true})
	if err == nil {
		_, err = plan.Write()
	}
	if err != nil {
		s.Remove()
		return nil, err
	}
	return s, nil
}

// Add writes files into the package (a tool's tests or driver).
func (s *ScratchDir) Add(files ...golang.File) error {
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(s.Path, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Remove deletes the package.
func (s *ScratchDir) Remove() error { return os.RemoveAll(s.Path) }
