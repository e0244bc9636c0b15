package mutation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"github.com/lockgen/lockgen/templates/golang"
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
// tag lockgen_check) that log their findings as one "LGMUT {json}" line.
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

// marker prefixes the JSON line each generated test logs.
const marker = "LGMUT "

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
	type tl struct {
		Name, Subject, Opts string
		NoFIFO              bool
		Seed                uint64
	}
	var tls []tl
	for _, l := range locks {
		c := l.Config
		c.Package, c.ImportPath = p.Name, p.ImportPath
		lock, err := golang.Lock(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		tests, err := golang.Tests(c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		for _, f := range append(tests, lock) {
			if err := os.WriteFile(filepath.Join(p.Dir, f.Name), f.Data, 0o644); err != nil {
				return err
			}
		}
		p.Locks = append(p.Locks, c.Name)
		opts := ""
		if l.Seed != 0 {
			opts += fmt.Sprintf(", verify.ExploreSeed(%d)", l.Seed)
		}
		for _, o := range l.Explore {
			opts += ", " + o
		}
		tls = append(tls, tl{Name: c.Name, Subject: subjectFunc(c.Name), Opts: opts, NoFIFO: l.NoFIFO, Seed: l.Seed})
	}
	rt, err := golang.Runtime(p.Name)
	if err != nil {
		return err
	}
	for _, f := range rt {
		if err := os.WriteFile(filepath.Join(p.Dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	var exOpts, deepOpts string
	for _, o := range ex.Options {
		exOpts += ", " + o
	}
	for _, o := range deep.Options {
		deepOpts += ", " + o
	}
	data := map[string]any{
		"Pkg": p.Name, "Locks": tls, "Marker": marker,
		"Goroutines": st.Goroutines, "Passages": st.Passages,
		"Timeout": int64(st.Timeout), "Stall": int64(st.Stall),
		"Budget": int64(ex.Budget), "ExStall": int64(ex.Stall), "ExOpts": exOpts,
		"Deep": deep.Budget > 0, "DeepBudget": int64(deep.Budget), "DeepStall": int64(deep.Stall), "DeepOpts": deepOpts,
	}
	for name, tmpl := range map[string]*template.Template{"lgmut_test.go": stressTmpl, "lgmut_check_test.go": exploreTmpl} {
		var b bytes.Buffer
		if err := tmpl.Execute(&b, data); err != nil {
			return err
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", name, err, b.Bytes())
		}
		if err := os.WriteFile(filepath.Join(p.Dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// subjectFunc is the name golang.Tests gives a lock's subject function.
func subjectFunc(lock string) string {
	// golang lowers the leading capital run of the name (M12 -> m12,
	// DTOneNode -> dtOneNode); the locks here are named so that the
	// result is simply the first letter lowered followed by the rest
	// lowered up to the first lower-case letter.
	r := []rune(lock)
	n := 0
	for n < len(r) && r[n] >= 'A' && r[n] <= 'Z' {
		n++
	}
	if n > 1 && n < len(r) && r[n] >= 'a' && r[n] <= 'z' {
		n--
	}
	return strings.ToLower(string(r[:n])) + string(r[n:]) + "Subject"
}

var stressTmpl = template.Must(template.New("stress").Parse(`// Code generated by lockgen's mutation runner (verify/mutation). DO NOT EDIT.

package {{.Pkg}}_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
)
{{range .Locks}}
func TestLGStress{{.Name}}(t *testing.T) { lgStress(t, {{.Subject}}(), {{.Seed}}) }
{{end}}
// lgStress runs verify.Stress with the runner's settings and logs what it
// found as one JSON line.
func lgStress(t *testing.T, s verify.Subject, seed uint64) {
	var rep verify.StressReport
	opts := []verify.StressOption{
		verify.StressPassages({{.Passages}}),
		verify.StressTimeout(time.Duration({{.Timeout}})),
		verify.StressStall(time.Duration({{.Stall}})),
		verify.StressReportTo(&rep),
	}
	if g := {{.Goroutines}}; g > 0 {
		opts = append(opts, verify.StressGoroutines(g))
	}
	if seed != 0 {
		opts = append(opts, verify.StressSeed(seed))
	}
	verify.Stress(t, s, opts...)
	type failure struct{ Kind, Msg string }
	out := struct {
		Failures []failure
		Passages int64
		Duration time.Duration
		Config   string
	}{Passages: rep.Passages, Duration: rep.Duration, Config: rep.Config()}
	for _, f := range rep.Failures {
		msg := f.String()
		if len(msg) > 600 {
			msg = msg[:600] + " …"
		}
		out.Failures = append(out.Failures, failure{string(f.Kind), msg})
	}
	b, _ := json.Marshal(out)
	t.Logf("{{.Marker}}%s", b)
}
`))

var exploreTmpl = template.Must(template.New("explore").Parse(`//go:build lockgen_check

// Code generated by lockgen's mutation runner (verify/mutation). DO NOT EDIT.

package {{.Pkg}}_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify"
)
{{range .Locks}}
func TestLGExplore{{.Name}}(t *testing.T) {
	lgExplore(t, {{if .NoFIFO}}lgNoFIFO({{.Subject}}()){{else}}{{.Subject}}(){{end}}, time.Duration({{$.Budget}}), time.Duration({{$.ExStall}}){{$.ExOpts}}{{.Opts}})
}
{{if $.Deep}}
func TestLGDeep{{.Name}}(t *testing.T) {
	lgExplore(t, {{if .NoFIFO}}lgNoFIFO({{.Subject}}()){{else}}{{.Subject}}(){{end}}, time.Duration({{$.DeepBudget}}), time.Duration({{$.DeepStall}}){{$.DeepOpts}}{{.Opts}})
}
{{end}}{{end}}
// lgNoFIFO drops a subject's FIFO claim.
func lgNoFIFO(s verify.Subject) verify.Subject { s.FIFO = false; return s }

// lgExplore runs verify.Explore with the runner's settings and logs what it
// found as one JSON line.
func lgExplore(t *testing.T, s verify.Subject, budget, stall time.Duration, extra ...verify.ExploreOption) {
	var rep verify.ExploreReport
	opts := []verify.ExploreOption{
		verify.ExploreBudget(budget),
		verify.ExploreStall(stall),
		verify.ExploreTraceTail(80),
	}
	opts = append(append(opts, extra...), verify.ExploreReportTo(&rep))
	verify.Explore(t, s, opts...)
	out := struct {
		Kind, Message, Strategy, Token, Trace string
		Executions                            int
		Exhausted                             bool
		Summary                               string
	}{Executions: rep.Executions, Exhausted: rep.Exhausted, Summary: rep.String()}
	if f := rep.Failure; f != nil {
		out.Kind, out.Message, out.Strategy, out.Token, out.Trace = string(f.Kind), f.Message, f.Strategy, f.Token, f.Trace
	}
	b, _ := json.Marshal(out)
	t.Logf("{{.Marker}}%s", b)
}
`))

// StressFinding is what a generated stress test logged.
type StressFinding struct {
	Failures []struct{ Kind, Msg string }
	Passages int64
	Duration time.Duration
	Config   string
}

// ExploreFinding is what a generated exploration test logged.
type ExploreFinding struct {
	Kind, Message, Strategy, Token, Trace string
	Executions                            int
	Exhausted                             bool
	Summary                               string
}

// finding extracts the JSON a generated test logged into v; false if the
// test logged none (it crashed or was killed first).
func finding(output string, v any) bool {
	i := strings.LastIndex(output, marker)
	if i < 0 {
		return false
	}
	line := output[i+len(marker):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return json.Unmarshal([]byte(line), v) == nil
}
