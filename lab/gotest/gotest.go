// Package gotest runs Go tests as a tool drives them: `go test -json` on a
// package, or a test binary built once and run many times (each run in its
// own process, so a test that hangs or leaks goroutines cannot disturb the
// next), and returns the outcome and output of every test.
//
//	res, err := gotest.Run(ctx, gotest.Options{Dir: dir, Race: true, Run: "^TestMCS"})
//	for _, t := range res.Tests {
//		fmt.Println(t.Name, t.Outcome, t.Elapsed)
//	}
//
//	bin, err := gotest.Build(ctx, gotest.Options{Dir: dir, Tags: []string{"lockgen_check"}})
//	defer bin.Remove()
//	res, err = bin.Run(ctx, gotest.RunOptions{Run: "^TestX$", Timeout: 10 * time.Second})
//
// An error is returned only when the tests could not be run at all (no Go
// toolchain, a directory that does not exist); a package that fails to
// build is a Result with BuildFailed set.
package gotest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Outcome is how a test ended.
type Outcome string

const (
	Pass Outcome = "pass"
	Fail Outcome = "fail"
	Skip Outcome = "skip"
	// Killed: the test was running when its process ended without
	// reporting it: the run's timeout killed the process, or the process
	// crashed (a panic outside the test's goroutine, a fatal runtime
	// error); the test's Output and the Result's Output say which.
	Killed Outcome = "killed"
)

// Test is one test (or subtest: "TestX/sub") of a run.
type Test struct {
	Package string
	Name    string
	Outcome Outcome
	Elapsed time.Duration
	// Output is everything the test printed, t.Log lines included.
	Output string
}

// Result is one run.
type Result struct {
	// Tests in the order they started.
	Tests []Test
	// Passed: the run exited with status 0.
	Passed bool
	// TimedOut: the run's Timeout (or the context) ended it.
	TimedOut bool
	// BuildFailed: a package did not compile; BuildOutput says why.
	BuildFailed bool
	BuildOutput string
	// Output is what was printed outside any test (package summaries,
	// panics that ended the process), and non-JSON error text.
	Output  string
	Elapsed time.Duration
}

// Test returns the test named name, if it ran.
func (r *Result) Test(name string) (Test, bool) {
	for _, t := range r.Tests {
		if t.Name == name {
			return t, true
		}
	}
	return Test{}, false
}

// Failed lists the tests that did not pass or skip.
func (r *Result) Failed() []Test {
	var out []Test
	for _, t := range r.Tests {
		if t.Outcome == Fail || t.Outcome == Killed {
			out = append(out, t)
		}
	}
	return out
}

// Options say what to test and how to build it.
type Options struct {
	// Dir is where the go command runs (a package or module directory).
	Dir string
	// Packages to test; nil means ".". Build takes exactly one.
	Packages []string
	// Tags are build tags (-tags).
	Tags []string
	// Race builds with the race detector.
	Race bool
	// Run selects tests (-run); "" runs all.
	Run string
	// Timeout bounds the whole run; the go command's own -timeout is set
	// a little beyond it so that the process is ended from here first. 0
	// means 10 minutes.
	Timeout time.Duration
	// Args are passed to the test binary (after -args).
	Args []string
	// Env is added to the environment. With Race, GORACE defaults to
	// atexit_sleep_ms=0: the race detector otherwise sleeps a second at
	// every exit, which dominates short runs.
	Env []string
}

// env is the environment additions of a run.
func (o Options) env() []string {
	env := append([]string(nil), o.Env...)
	if !o.Race || os.Getenv("GORACE") != "" {
		return env
	}
	for _, e := range env {
		if strings.HasPrefix(e, "GORACE=") {
			return env
		}
	}
	return append(env, "GORACE=atexit_sleep_ms=0")
}

// Run runs `go test -json -count=1` with the options and collects the
// outcome of every test.
func Run(ctx context.Context, o Options) (*Result, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	args := []string{"test", "-json", "-count=1", "-timeout", (timeout + 30*time.Second).String()}
	args = append(args, buildFlags(o)...)
	if o.Run != "" {
		args = append(args, "-run", o.Run)
	}
	pkgs := o.Packages
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	args = append(args, pkgs...)
	if len(o.Args) > 0 {
		args = append(append(args, "-args"), o.Args...)
	}
	return execute(ctx, o.Dir, o.env(), timeout, "go", args...)
}

func buildFlags(o Options) []string {
	var f []string
	if len(o.Tags) > 0 {
		f = append(f, "-tags", strings.Join(o.Tags, ","))
	}
	if o.Race {
		f = append(f, "-race")
	}
	return f
}

// Binary is a compiled test binary.
type Binary struct {
	Path    string
	Package string // the import path, as reported in events
	Dir     string // the package directory, where the binary runs
	env     []string
	tmp     string
}

// Build compiles the test binary of one package (`go test -c`) into a
// temporary directory. The error is for a build that could not be
// attempted; a compile error is returned as *BuildError.
func Build(ctx context.Context, o Options) (*Binary, error) {
	pkg := "."
	if len(o.Packages) == 1 {
		pkg = o.Packages[0]
	} else if len(o.Packages) > 1 {
		return nil, fmt.Errorf("gotest.Build: one package at a time, got %d", len(o.Packages))
	}
	tmp, err := os.MkdirTemp("", "gotest-bin-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "pkg.test")
	args := append([]string{"test", "-c", "-o", bin}, buildFlags(o)...)
	args = append(args, pkg)
	cmd, stop, err := goCommand(ctx, o.Dir, o.Env, "go", args...)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	out, err := cmd.CombinedOutput()
	stop()
	if err != nil {
		os.RemoveAll(tmp)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, &BuildError{Output: string(out)}
		}
		return nil, err
	}
	if _, err := os.Stat(bin); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("gotest.Build: %s has no tests (no binary written)", pkg)
	}
	b := &Binary{Path: bin, Dir: o.Dir, env: o.env(), tmp: tmp}
	list := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}", pkg)
	list.Dir = o.Dir
	list.Env = append(os.Environ(), o.Env...)
	if out, err := list.Output(); err == nil {
		if ip, d, ok := strings.Cut(strings.TrimSpace(string(out)), "\t"); ok {
			b.Package, b.Dir = ip, d
		}
	}
	return b, nil
}

// BuildError is a package that did not compile.
type BuildError struct{ Output string }

func (e *BuildError) Error() string { return "build failed:\n" + e.Output }

// Remove deletes the binary.
func (b *Binary) Remove() error { return os.RemoveAll(b.tmp) }

// RunOptions configure one run of a Binary.
type RunOptions struct {
	// Run selects tests (-test.run); "" runs all.
	Run string
	// Timeout bounds the run; the process (and its children) is killed
	// when it expires. 0 means 10 minutes.
	Timeout time.Duration
	// Args are extra test flags (e.g. "-test.cpu=2").
	Args []string
}

// Run runs the binary once, in its package directory, in a process of
// its own, through `go tool test2json`.
func (b *Binary) Run(ctx context.Context, o RunOptions) (*Result, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	args := []string{"tool", "test2json", "-t"}
	if b.Package != "" {
		args = append(args, "-p", b.Package)
	}
	args = append(args, b.Path, "-test.v=test2json", "-test.count=1",
		"-test.timeout="+(timeout+30*time.Second).String())
	if o.Run != "" {
		args = append(args, "-test.run="+o.Run)
	}
	args = append(args, o.Args...)
	return execute(ctx, b.Dir, b.env, timeout, "go", args...)
}

// event is a test2json event, or a build event of go test -json.
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
	ImportPath  string
}

// interruptGrace is how long a cancelled go command has to clean up
// after its interrupt before it is killed.
const interruptGrace = 3 * time.Second

// goCommand prepares a go command (or a tool it runs) in dir with env
// added, in a process group of its own: cancelling ctx interrupts the
// group, so that go test removes its build directory, and kills whatever
// still runs a moment later. The go command's work directory, and the
// temporary files of what it runs (the compilers, the test binary), lie
// in a directory of their own (GOTMPDIR and TMPDIR) that stop removes
// once the command has ended, so that a process killed before it cleans
// up leaves nothing in the user's temporary directory. stop is called
// once the command ended.
func goCommand(ctx context.Context, dir string, env []string, name string, args ...string) (cmd *exec.Cmd, stop func(), err error) {
	work, err := os.MkdirTemp("", "lockgen-gotmp-")
	if err != nil {
		return nil, nil, err
	}
	cmd = exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "GOTMPDIR="+work, "TMPDIR="+work)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	done := make(chan struct{})
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		group := -cmd.Process.Pid
		time.AfterFunc(interruptGrace, func() {
			select {
			case <-done:
			default:
				syscall.Kill(group, syscall.SIGKILL)
			}
		})
		return syscall.Kill(group, syscall.SIGINT)
	}
	cmd.WaitDelay = interruptGrace + 2*time.Second
	return cmd, func() { close(done); os.RemoveAll(work) }, nil
}

// execute runs a go command producing test2json events and parses them.
func execute(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd, stop, err := goCommand(ctx, dir, env, name, args...)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	stop()
	res := parse(stdout.Bytes())
	res.Elapsed = time.Since(start)
	if s := stderr.String(); s != "" {
		res.Output += s
	}
	if ctx.Err() != nil {
		res.TimedOut = true
		res.Passed = false
		return res, nil
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return res, fmt.Errorf("gotest: %s: %w", name, err)
		}
		res.Passed = false
		return res, nil
	}
	res.Passed = !res.BuildFailed && len(res.Failed()) == 0
	return res, nil
}

// parse turns a stream of events into a Result. Lines that are not JSON
// go to Output; tests still running at the end are Killed.
func parse(data []byte) *Result {
	res := &Result{}
	idx := map[string]int{} // package + test -> index in res.Tests
	var out, build strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			out.Write(line)
			out.WriteByte('\n')
			continue
		}
		switch ev.Action {
		case "build-output":
			build.WriteString(ev.Output)
			continue
		case "build-fail":
			res.BuildFailed = true
			continue
		}
		if ev.FailedBuild != "" {
			res.BuildFailed = true
		}
		if ev.Test == "" {
			if ev.Action == "output" {
				out.WriteString(ev.Output)
			}
			continue
		}
		key := ev.Package + "\x00" + ev.Test
		i, ok := idx[key]
		if !ok {
			i = len(res.Tests)
			idx[key] = i
			res.Tests = append(res.Tests, Test{Package: ev.Package, Name: ev.Test, Outcome: Killed})
		}
		t := &res.Tests[i]
		switch ev.Action {
		case "output":
			t.Output += ev.Output
		case "pass", "fail", "skip":
			t.Outcome = Outcome(ev.Action)
			t.Elapsed = time.Duration(ev.Elapsed * float64(time.Second))
		}
	}
	res.Output = out.String()
	res.BuildOutput = build.String()
	return res
}
