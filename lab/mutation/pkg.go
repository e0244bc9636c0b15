package mutation

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/verify/harness"
)

// Lock is one lock of a generated package: a mutant or a control, with
// the configuration it is lowered in (golang.Config: Name, Package and
// ImportPath are set by WritePackage).
type Lock struct {
	Config golang.Config
	// Explore lists extra verify.ExploreOption expressions (Go source,
	// e.g. "verify.ExploreDFS(3)") for this lock's exploration.
	Explore []string
	// Seed, when not 0, fixes the seed of the lock's stress and
	// exploration (verify.StressSeed, verify.ExploreSeed), so that a
	// report can be regenerated with the same random choices (the Go
	// scheduler's interleavings under stress cannot be).
	Seed uint64
	// NoFIFO explores the lock without its FIFO claim: no FIFO check, and
	// no scheduling point where an acquire begins (a smaller search when
	// the failure sought is not about order).
	NoFIFO bool
}

// StressSettings configure the generated stress tests.
type StressSettings struct {
	Goroutines int           // 0: verify's default (4×GOMAXPROCS)
	Passages   int           // per goroutine
	Timeout    time.Duration // the whole run
	Stall      time.Duration // the watchdog
}

// ExploreSettings configure the generated exploration tests.
type ExploreSettings struct {
	Budget time.Duration
	Stall  time.Duration
	// Options are verify.ExploreOption expressions applied to every lock
	// (before the lock's own).
	Options []string
}

// Package is a generated package of many locks, each with a stress test
// (TestLGStress<Name>) and an exploration test (TestLGExplore<Name>, build
// tag lockgen_check) that log their findings for the runner (verify/harness).
type Package struct {
	Dir        string
	ImportPath string
	Name       string   // Go package name
	Locks      []string // lock names, in order
}

// StressTest and ExploreTest name the generated tests of lock name.
func StressTest(name string) string  { return "TestLGStress" + name }
func ExploreTest(name string) string { return "TestLGExplore" + name }

// DeepTest names the deep exploration test of lock name (generated when
// WritePackage gets deep settings).
func DeepTest(name string) string { return "TestLGDeep" + name }

// WritePackage writes locks as package pkg into a fresh directory under
// parent (which must lie inside module root modRoot, whose module path is
// modPath): each lock's code and golang.Tests files (whose subject
// function the generated tests use), the package runtime, and the
// mutation tests. The caller removes Package.Dir.
func WritePackage(modRoot, modPath, parent, pkg string, locks []Lock, st StressSettings, ex, deep ExploreSettings) (*Package, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, pkg+"-")
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(modRoot, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("mutation: %s is not inside the module at %s", dir, modRoot)
	}
	p := &Package{Dir: dir, ImportPath: modPath + "/" + filepath.ToSlash(rel), Name: pkg}
	if err := p.write(locks, st, ex, deep); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return p, nil
}

// Rewrite writes the package again with only the given locks (after
// dropping some that did not compile).
func (p *Package) Rewrite(locks []Lock, st StressSettings, ex, deep ExploreSettings) error {
	ents, err := os.ReadDir(p.Dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".go") {
			os.Remove(filepath.Join(p.Dir, e.Name()))
		}
	}
	return p.write(locks, st, ex, deep)
}

func (p *Package) write(locks []Lock, st StressSettings, ex, deep ExploreSettings) error {
	p.Locks = nil
	stressOpts := stressOptions(st)
	exOpts, err := exploreOptions(ex)
	if err != nil {
		return err
	}
	deepOpts, err := exploreOptions(deep)
	if err != nil {
		return err
	}
	var tests []golang.HarnessTest
	for _, l := range locks {
		c := l.Config
		c.Package, c.ImportPath = p.Name, p.ImportPath
		lock, err := golang.Lock(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		files, err := golang.Tests(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		for _, f := range append(files, lock) {
			if err := os.WriteFile(filepath.Join(p.Dir, f.Name), f.Data, 0o644); err != nil {
				return err
			}
		}
		p.Locks = append(p.Locks, c.Name)
		own := l.Explore
		if l.Seed != 0 {
			own = append([]string{fmt.Sprintf("verify.ExploreSeed(%d)", l.Seed)}, own...)
		}
		lockOpts, err := parseOptions(own)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		seeded := stressOpts
		if l.Seed != 0 {
			seeded = append(slices.Clip(stressOpts), jen.Qual(verifyPath, "StressSeed").Call(jen.Lit(l.Seed)))
		}
		tests = append(tests,
			golang.HarnessTest{Name: StressTest(c.Name), Lock: c.Name, Layer: golang.LayerStress, Options: seeded},
			golang.HarnessTest{Name: ExploreTest(c.Name), Lock: c.Name, Layer: golang.LayerExplore, NoFIFO: l.NoFIFO,
				Options: append(slices.Clip(exOpts), lockOpts...)})
		if deep.Budget > 0 {
			tests = append(tests, golang.HarnessTest{Name: DeepTest(c.Name), Lock: c.Name, Layer: golang.LayerExplore, NoFIFO: l.NoFIFO,
				Options: append(slices.Clip(deepOpts), lockOpts...)})
		}
	}
	rt, err := golang.Runtime(p.Name)
	if err != nil {
		return err
	}
	harness, err := golang.Harness(p.Name, "lockgen's mutation runner (lab/mutation)", tests)
	if err != nil {
		return err
	}
	for _, f := range append(rt, harness...) {
		if err := os.WriteFile(filepath.Join(p.Dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

const verifyPath = "github.com/lockgen/lockgen/verify"

// stressOptions are the runner's stress settings as verify options.
func stressOptions(st StressSettings) []jen.Code {
	opts := []jen.Code{
		jen.Qual(verifyPath, "StressPassages").Call(jen.Lit(st.Passages)),
		jen.Qual(verifyPath, "StressTimeout").Call(duration(st.Timeout)),
		jen.Qual(verifyPath, "StressStall").Call(duration(st.Stall)),
	}
	if st.Goroutines > 0 {
		opts = append(opts, jen.Qual(verifyPath, "StressGoroutines").Call(jen.Lit(st.Goroutines)))
	}
	return opts
}

// exploreOptions are an exploration's settings as verify options: its
// budget and watchdog, a trace tail long enough to name the lines, then
// its own options.
func exploreOptions(ex ExploreSettings) ([]jen.Code, error) {
	opts := []jen.Code{
		jen.Qual(verifyPath, "ExploreBudget").Call(duration(ex.Budget)),
		jen.Qual(verifyPath, "ExploreStall").Call(duration(ex.Stall)),
		jen.Qual(verifyPath, "ExploreTraceTail").Call(jen.Lit(80)),
	}
	more, err := parseOptions(ex.Options)
	return append(opts, more...), err
}

func parseOptions(srcs []string) ([]jen.Code, error) {
	var out []jen.Code
	for _, s := range srcs {
		c, err := golang.ParseOption(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func duration(d time.Duration) *jen.Statement {
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

// StressFinding and ExploreFinding are what a generated test logged.
type (
	StressFinding  = harness.StressFinding
	ExploreFinding = harness.ExploreFinding
)
