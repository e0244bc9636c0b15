package tune

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/lockgen/lockgen/internal/tmpmod"
)

// goTool runs the go command in the user's module, and the test binaries
// it builds. Nothing it runs writes into the user's tree: candidates come
// in through -overlay, binaries go to a temporary directory, and the go
// commands run on a temporary copy of the module's go.mod and go.sum
// (internal/tmpmod), which alone gains what a candidate needs beyond
// them (x/sync for the standard k-exclusion lock).
type goTool struct {
	dir string // where the go command runs: the spec's directory
	mod *tmpmod.Module
	env []string
}

// command prepares a go command; ctx's end interrupts it, and kills it
// if it does not stop within a second.
func (g *goTool) command(ctx context.Context, verb string, args ...string) *exec.Cmd {
	cmd := g.mod.Command(ctx, g.dir, verb, args...)
	cmd.Env = append(os.Environ(), g.env...)
	interruptible(cmd)
	return cmd
}

func interruptible(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Second
}

// pkg is a package whose benchmarks are run.
type pkg struct {
	ImportPath, Dir, Name string
}

// packages resolves -pkg patterns.
func (g *goTool) packages(ctx context.Context, patterns []string) ([]pkg, error) {
	out, err := g.output(ctx, "list", append([]string{"-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Name}}"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var ps []pkg
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 {
			ps = append(ps, pkg{f[0], f[1], f[2]})
		}
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("-pkg %s matches no package", strings.Join(patterns, " "))
	}
	return ps, nil
}

// output runs a go command and returns its standard output; an error
// carries its standard error.
func (g *goTool) output(ctx context.Context, verb string, args ...string) (string, error) {
	cmd := g.command(ctx, verb, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("go %s: %v\n%s", verb, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// buildTest builds the test binary of package p with the overlay; it
// returns "" when the package has no tests.
func (g *goTool) buildTest(ctx context.Context, overlay, out string, p pkg) (string, error) {
	if _, err := g.output(ctx, "test", "-c", "-o", out, "-overlay", overlay, p.ImportPath); err != nil {
		return "", err
	}
	if _, err := os.Stat(out); err != nil {
		return "", nil // no test files
	}
	return out, nil
}

// sample is one run of a package's benchmarks: time per operation, by
// benchmark name.
type sample map[string]float64

// runBench runs a test binary's benchmarks once each.
func runBench(ctx context.Context, bin, dir, bench, benchtime string, env []string) (sample, error) {
	cmd := exec.CommandContext(ctx, bin, "-test.run=^$", "-test.bench="+bench, "-test.benchtime="+benchtime, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	interruptible(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, tail(out.String(), 20))
	}
	return parseBench(out.Bytes())
}

// gomaxprocsSuffix is the -N the testing package appends to a name.
var gomaxprocsSuffix = regexp.MustCompile(`-\d+$`)

// parseBench reads go test's benchmark output (the format benchfmt
// reads, as benchstat does).
func parseBench(out []byte) (sample, error) {
	s := sample{}
	r := benchfmt.NewReader(bytes.NewReader(out), "bench")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		v, ok := res.Value("sec/op")
		if !ok {
			continue
		}
		s[gomaxprocsSuffix.ReplaceAllString(string(res.Name.Full()), "")] = v
	}
	return s, r.Err()
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
