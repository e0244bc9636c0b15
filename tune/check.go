package tune

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
)

// checkWinner runs the generated tests of the best candidate that beats
// the current variant (stress under -race, and the misuse and zero-value
// tests) in the lock's package, laid over it like the benchmarks: a
// candidate whose tests fail is reported and the next best is checked.
func checkWinner(ctx context.Context, g *goTool, t *Target, res *Result, tmp string, say func(string, ...any)) error {
	for i, o := range ranked(res.Outcomes) {
		say("running %s's tests under -race before recommending it", o.Candidate.Label(t))
		tests, err := runTests(ctx, g, t, o.Candidate, filepath.Join(tmp, fmt.Sprintf("check-%d", i)), res.Opts)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			o.Status, o.Reason = TestsFailed, err.Error()
			say("%s: its tests failed: dropped", o.Candidate.Label(t))
			continue
		}
		o.Status, res.Winner, res.Tests = TestsPassed, o, tests
		say("%s: %s passed under -race", o.Candidate.Label(t), strings.Join(tests, ", "))
		return nil
	}
	return nil
}

// testFunc finds the tests a generated test file declares.
var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)

// runTests runs candidate c's own generated tests in the lock's package
// with -race, and returns their names.
func runTests(ctx context.Context, g *goTool, t *Target, c *Candidate, dir string, opts Options) ([]string, error) {
	ov, err := t.overlay(c, opts.OutDir, true)
	if err != nil {
		return nil, err
	}
	pkgDir := t.Dir
	if opts.OutDir != "" {
		if pkgDir, err = filepath.Abs(opts.OutDir); err != nil {
			return nil, err
		}
	}
	src, ok := ov.Write[filepath.Join(pkgDir, golang.FileBase(t.Lock.Name)+"_test.go")]
	if !ok {
		return nil, fmt.Errorf("no tests generated for %s", t.Lock.Name)
	}
	var tests []string
	for _, m := range testFunc.FindAllSubmatch(src, -1) {
		tests = append(tests, string(m[1]))
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s's generated tests declare no test", t.Lock.Name)
	}
	file, err := ov.save(dir)
	if err != nil {
		return nil, err
	}
	imp, err := gen.ImportPath(pkgDir)
	if err != nil {
		return nil, err
	}
	cmd := g.command(ctx, "test", "-race", "-count=1", "-overlay", file, "-run", "^("+strings.Join(tests, "|")+")$", imp)
	if opts.Stress > 0 {
		cmd.Env = append(cmd.Env, "LOCKGEN_STRESS="+opts.Stress.String())
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go test -race: %v\n%s", err, tail(string(out), 30))
	}
	return tests, nil
}
