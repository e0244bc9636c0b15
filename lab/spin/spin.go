// Package spin runs the SPIN model checker on Promela models produced by
// backend/promela and reports, per property, whether the search passed,
// found a counterexample (with the trail turned into the paper's line
// labels), or ran out of its budget. A search that did not cover the whole
// state space is never reported as passed.
//
// Check runs one model for one property: it writes the model to a
// directory, runs spin -a, compiles pan.c with gcc (-DSAFETY for safety
// properties, -DMEMLIM for the memory budget, -DNFAIR when weak fairness
// needs it), runs pan (-E for assertion-only searches, -a -f -N claim for
// liveness under weak fairness, -m for the depth bound), reads its
// statistics, and on an error replays the trail (spin -t -p -g -l) into
// Steps that name process, operation, paper label, statement and values.
//
// CheckEntry runs the standard property set of a catalogue entry for
// n = 2, 3, 4, choosing for each property the model that covers the most
// (see plan): exact models where the state space is finite, counters
// checked against a bound, then bounded passages or counters modulo n+1
// where they grow for ever. Every run says what it covered.
package spin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/templates"
)

// Property is what one SPIN run checks. It decides how pan is compiled and
// run; the model must carry the matching instrumentation (see
// backend/promela: MutualExclusion, FIFO/StrongFIFO, Starvation,
// DeadlockFreedom; Deadlock needs none).
type Property string

const (
	// MutualExclusion: the model's assertions (occupancy, and the checks
	// SPIN adds itself: array bounds, i.e. nil dereferences). Pure safety
	// search (-DSAFETY), end states not checked.
	MutualExclusion Property = "mutual-exclusion"
	// Deadlock: invalid end states — every process stopped and one of them
	// not in its remainder section (blocked in an await, in acquire or in
	// release). Busy-wait loops never stop, so they are left to liveness.
	Deadlock Property = "deadlock"
	// FIFO: the model's FIFO/FCFS (or strong FIFO) assertions.
	FIFO Property = "fifo"
	// Starvation: the LTL claim "starvation" (every trying process
	// eventually enters) under weak fairness (pan -a -f).
	Starvation Property = "starvation-freedom"
	// DeadlockFreedom: the LTL claim "deadlock_freedom" (if some process is
	// trying, some process eventually enters) under weak fairness.
	DeadlockFreedom Property = "deadlock-freedom"
	// BoundedWaiting: the model's bounded-bypass assertions (a process past
	// its doorway is overtaken at most the claimed number of times).
	BoundedWaiting Property = "bounded-waiting"
	// WriterPriority: the model's writer-priority assertions (reader/writer
	// locks: a reader arriving after a writer's doorway enters after it).
	WriterPriority Property = "writer-priority"
	// FIFE: the model's first-in-first-enabled assertions (Zehavi): a
	// process overtaken by one that began after its doorway ended checks
	// its wait at most twice more (fifeChecks) before it enters.
	FIFE Property = "fife"
	// CrashTolerance: the claimed liveness (starvation or deadlock freedom)
	// of the processes that do not crash, while up to k − 1 of them crash
	// anywhere, the critical section included (k-exclusion), under weak
	// fairness.
	CrashTolerance Property = "crash-tolerance"
	// Quiescence: the safety form of starvation and deadlock freedom over
	// bounded passages (promela.Quiescence): no reachable state in which
	// every process is idle, crashed or stuck in a wait that repeats itself
	// with memory unchanged. The suite runs it in place of the LTL claim
	// when SuiteOptions.Quiescence asks and the model allows it; it is not
	// a property to plan on its own. A wait whose locals never settle
	// makes it Incomplete.
	Quiescence Property = "quiescence"
	// Stabilization: the LTL claim "stabilization" of a network model with
	// promela.NetOptions.Stabilize (from any states, eventually and for
	// ever exactly one token), under weak fairness.
	Stabilization Property = "stabilization"
)

// Properties lists every property, in the order StandardProperties checks
// them.
var Properties = []Property{MutualExclusion, Deadlock, Starvation, DeadlockFreedom, FIFO, BoundedWaiting, WriterPriority, FIFE, CrashTolerance}

// Instrument returns the model options that check p for an algorithm with
// these claims at n processes: the instrumentation (promela.Options.Checks)
// and its parameters. Mode, sizes and bounds are the caller's.
func (p Property) Instrument(claims templates.Properties, n int) (promela.Options, error) {
	var po promela.Options
	po.Abort, po.AbortFinitely = p.Aborts(), p.finiteAborts()
	switch p.Base() {
	case MutualExclusion:
		po.Checks = promela.MutualExclusion
	case Deadlock:
	case FIFO:
		po.Checks = promela.FIFO
		if claims.Fairness == "strong FIFO" {
			po.Checks = promela.StrongFIFO
		}
	case Starvation:
		po.Checks = promela.Starvation
	case DeadlockFreedom:
		po.Checks = promela.DeadlockFreedom
	case BoundedWaiting:
		if claims.Overtakes == nil {
			return po, fmt.Errorf("bounded waiting is not claimed")
		}
		po.Checks, po.Overtakes = promela.BoundedWaiting, claims.Overtakes(n)
	case WriterPriority:
		if !claims.WriterPriority {
			return po, fmt.Errorf("writer priority is not claimed")
		}
		po.Checks = promela.WriterPriority
	case FIFE:
		if claims.FIFESteps == nil {
			return po, fmt.Errorf("FIFE is not claimed")
		}
		po.Checks, po.FIFEChecks = promela.FIFE, fifeChecks
	case CrashTolerance:
		// Checked whether claimed or not: what an entry tolerates is a
		// finding the catalogue reports (filter tolerates no crash).
		po.Checks = promela.DeadlockFreedom
		if strings.HasPrefix(claims.Liveness, "starvation-free") {
			po.Checks = promela.Starvation
		}
		// The number of crashes is k − 1: the caller's (it knows k).
	default:
		return po, fmt.Errorf("unknown property %q", p)
	}
	return po, nil
}

// fifeChecks is how many checks of its wait an overtaken process may
// still make: the one under way (it may have read before the overtaker's
// writes) and the next. A third would mean it waits for another process's
// write, which is what being enabled excludes; the controlled scheduler
// checks the same, and the step bound (Properties.FIFESteps).
const fifeChecks = 2

// claim is the LTL claim a liveness property selects in the model.
func (p Property) claim() string {
	switch p.Base() {
	case Starvation:
		return promela.ClaimStarvation
	case DeadlockFreedom:
		return promela.ClaimDeadlockFreedom
	case CrashTolerance:
		return promela.ClaimCrashTolerance
	case Stabilization:
		return promela.ClaimStabilization
	}
	return ""
}

// Liveness reports whether p is an LTL (acceptance-cycle) property.
func (p Property) Liveness() bool { return p.claim() != "" }

// Status is the verdict of a run.
type Status string

const (
	Passed     Status = "passed"     // the whole state space was searched, no error
	Failed     Status = "failed"     // a counterexample was found (see Trail)
	Incomplete Status = "incomplete" // out of time, memory or depth: no verdict
	Skipped    Status = "skipped"    // not run (see Result.Reason)
)

// Options bound and tune one run.
type Options struct {
	// Dir keeps the model, pan and the trail there; "" uses a temporary
	// directory removed afterwards.
	Dir string
	// Timeout bounds the whole run (spin, gcc, pan, trail replay); 0 means
	// only the context's deadline.
	Timeout time.Duration
	// MemLimitMB is pan's memory bound (-DMEMLIM); 0 means 4096.
	MemLimitMB int
	// MaxDepth is pan's search depth bound (-m); 0 means 1,000,000. A
	// search that hits it is retried once with ten times the depth, then
	// reported incomplete.
	MaxDepth int
	// HashBits is the hash table size (-w); 0 means 22.
	HashBits int
	// Collapse compresses stored states (-DCOLLAPSE): less memory, slower.
	Collapse bool
	// FixedHash keeps the hash table at HashBits (-DNO_RESIZE) instead of
	// letting pan grow it, which costs a word in every stored state: 8
	// bytes less per state, for large searches with HashBits sized to
	// about log2(states).
	FixedHash bool
	// Optimize is gcc's optimisation flag; "" means -O2.
	Optimize string
	// Fold lowers models with promela.Options.Fold (local work folded
	// into the neighbouring step): the same verdicts, usually from fewer
	// states, with trails that skip local steps. Used by CheckAlgorithm
	// and the suite built on it.
	Fold bool
	// SplitCrashes runs a check with crashes once per set of
	// promela.Options.Crashes processes, each run letting only that set
	// crash (promela.Options.Victims): together the runs cover every
	// crash, and each stores fewer states than the model where any
	// process may crash. For searches that do not fit in memory whole.
	// Used by CheckAlgorithm and the suite built on it.
	SplitCrashes bool
	// Victims, with crashes, makes one run of those SplitCrashes makes:
	// the one where only these processes may crash (as many as the
	// model's crashes). The runs of a split too long for one sitting can
	// then be made apart, on other days or machines; together they cover
	// what the split covers. SplitCrashes is then ignored.
	Victims []int
	// Bitstate hunts for counterexamples in state spaces too large to
	// search (pan -DBITSTATE: one bit array of 2^HashBits bits instead of
	// stored states). A counterexample it finds is real, and its trail
	// replays; a search that finds none is Incomplete, never Passed:
	// states whose bits collide are never explored.
	Bitstate bool
	// HashCompact stores a 96-bit signature of each state in place of
	// the state (pan -DHC4: 64 bits of one hash, 32 of another), for
	// exhaustive searches too large to store whole: fewer bytes per state
	// than Collapse (Zehavi's n = 3 crash model: about 30 against 36;
	// with NoReduce, 21 to 25). Two states with one signature count as
	// one, so the search may skip states; Result.Omission bounds how many
	// it skipped on average (N²/2^97 for N stored states), and a search
	// whose bound is not negligible (OmissionLimit) is Incomplete, not
	// Passed. Not with Collapse or Bitstate.
	HashCompact bool
	// EndStates makes a safety run (other than Deadlock's, which always
	// does) report invalid end states too, as Deadlock does: pan without
	// -E. A mutual-exclusion run then also decides Deadlock, on the same
	// model plus its ghost count (see mergedRuns).
	EndStates bool
	// NoReduce compiles pan without partial order reduction
	// (-DNOREDUCE): more states where the reduction prunes, and a verdict
	// that does not rest on it. A safety search stores a word less per
	// state without it (pan drops the state's stack tag), which is all it
	// changes where the reduction prunes nothing, as in the safety form's
	// crash models (TestCrashReductionPrunesNothing).
	NoReduce bool
	// Progress, when set, receives pan's progress reports while it
	// searches (pan prints one every million states): the states stored
	// and the depth reached so far.
	Progress func(states, depth int64)
}

func (o Options) withDefaults() Options {
	if o.MemLimitMB == 0 {
		o.MemLimitMB = 4096
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = 1_000_000
	}
	if o.HashBits == 0 {
		o.HashBits = 22
	}
	if o.Optimize == "" {
		o.Optimize = "-O2"
	}
	return o
}

// Unbounded turns a run whose counters left the model's bound into a
// failure, for an algorithm that claims bounded registers
// (templates.Properties.BoundedRegistersUpTo); other results are returned as
// they are.
func Unbounded(r Result) Result {
	if !r.BoundExceeded {
		return r
	}
	r.Status = Failed
	r.Failure = "unbounded register"
	r.Message = "a register left the model's bound with processes looping for ever, although the algorithm claims bounded registers (" + r.Message + ")"
	r.Reason = ""
	return r
}

// Result is the outcome of one run.
type Result struct {
	Property Property
	Status   Status
	// Failure is the kind of counterexample: "assertion violated",
	// "invalid end state", "acceptance cycle", "invalid array index".
	Failure string
	// Message is pan's error line, e.g. "assertion violated (g_ncs<=1)".
	Message string
	// Trail is the counterexample, one step per transition, in the
	// paper's terms. For a liveness failure the steps from CycleStart on
	// repeat for ever.
	Trail []Step
	// Stuck are, for an invalid end state, the processes that stopped
	// outside their remainder section and where (Stmt is the statement
	// they cannot pass).
	Stuck []Step
	// BoundExceeded: a counter left the model's bound (promela
	// Options.Bound); the search says nothing about the property.
	BoundExceeded bool
	// Omission bounds the expected number of states a hash-compact
	// search (Options.HashCompact) skipped; 0 for every other search.
	Omission float64
	// Reason explains Incomplete and Skipped.
	Reason string

	States      int64   // states stored (Incomplete: at pan's last progress report, every million)
	Transitions int64   // transitions taken
	Depth       int64   // depth reached
	MemoryMB    float64 // pan's total actual memory usage
	StateVector int     // bytes per state
	SearchTime  time.Duration
	Elapsed     time.Duration // spin + gcc + pan (+ trail replay)

	// Warnings are spin's and pan's warnings about this run, each on one
	// line. A search that finds no counterexample passes only if every
	// warning is known not to touch the verdict (harmfulWarning):
	// otherwise it is Incomplete, since a warning may say the search was
	// not what it claims (a reduction pan cannot vouch for). A
	// counterexample stands whatever the warnings: it is a real run.
	Warnings []string

	CompileFlags []string
	RunFlags     []string
	Output       string // pan's output
	Dir          string // where the files are, when Options.Dir was set
}

// ErrNotInstalled is returned (wrapped) when spin or gcc is missing.
var ErrNotInstalled = errors.New("model checker toolchain not installed")

// Available reports whether spin and gcc can be run, and how to install
// them if not.
func Available() error {
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: %s not found in PATH; install it with `apt-get install -y spin gcc` (Debian/Ubuntu) or from https://spinroot.com", ErrNotInstalled, tool)
		}
	}
	return nil
}

// Check runs SPIN on model for one property. The error is for the
// toolchain (missing tools, a model SPIN rejects, a compile failure); a
// property that does not hold is a Result with Status Failed.
func Check(ctx context.Context, model string, prop Property, opts Options) (res Result, err error) {
	res.Property = prop
	if err := Available(); err != nil {
		return res, err
	}
	opts = opts.withDefaults()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()

	dir := opts.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "lockgen-spin-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(d)
		dir = d
	} else {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, err
		}
		res.Dir = dir
	}
	const file = "model.pml"
	if err := os.WriteFile(filepath.Join(dir, file), []byte(model), 0o644); err != nil {
		return res, err
	}
	_ = os.Remove(filepath.Join(dir, file+".trail"))

	out, err := run(ctx, dir, "spin", "-a", file)
	if err != nil {
		if r, done := budgetOut(ctx, res, "spin -a"); done {
			return r, nil
		}
		return res, fmt.Errorf("spin rejected the model: %v\n%s", err, out)
	} else if strings.Contains(out, "Error:") {
		return res, fmt.Errorf("spin rejected the model:\n%s", out)
	}
	spinWarnings := warningLines(out)

	cflags := []string{"-w", opts.Optimize, fmt.Sprintf("-DMEMLIM=%d", opts.MemLimitMB), "-DVECTORSZ=4096"}
	if !prop.Liveness() {
		cflags = append(cflags, "-DSAFETY")
	} else if procs := strings.Count(model, "run ") + 2; procs > 6 {
		// Weak fairness keeps NFAIR bytes per state; NFAIR bytes cover
		// 4·NFAIR − 2 processes (ours, init and the claim): pan's default
		// of 2 covers 6.
		cflags = append(cflags, fmt.Sprintf("-DNFAIR=%d", (procs+5)/4))
	}
	if opts.Collapse {
		cflags = append(cflags, "-DCOLLAPSE")
	}
	if opts.FixedHash {
		cflags = append(cflags, "-DNO_RESIZE")
	}
	if opts.Bitstate {
		cflags = append(cflags, "-DBITSTATE")
	}
	if opts.NoReduce {
		cflags = append(cflags, "-DNOREDUCE")
	}
	if opts.HashCompact {
		if opts.Collapse || opts.Bitstate {
			return res, errors.New("HashCompact stores signatures: it does not combine with Collapse or Bitstate")
		}
		cflags = append(cflags, "-DHC4")
	}
	res.CompileFlags = cflags
	args := append(append([]string{}, cflags...), "-o", "pan", "pan.c")
	if out, err := run(ctx, dir, "gcc", args...); err != nil {
		if r, done := budgetOut(ctx, res, "gcc"); done {
			return r, nil
		}
		return res, fmt.Errorf("compiling pan.c: %v\n%s", err, out)
	}

	depth := opts.MaxDepth
	for attempt := 0; ; attempt++ {
		rflags := []string{fmt.Sprintf("-m%d", depth), fmt.Sprintf("-w%d", opts.HashBits)}
		switch {
		case prop.Liveness():
			rflags = append(rflags, "-a", "-f", "-N", prop.claim())
		case prop.Base() == Deadlock, opts.EndStates:
			// End states too: the deadlock model has no assertions of its
			// own, and SPIN's array-bound checks stay on.
		default:
			rflags = append(rflags, "-E")
		}
		res.RunFlags = rflags
		var reported int64 // states in pan's last progress report
		progress := progressLines(opts.Progress, &reported)
		// A search that will be retried deeper stops as soon as pan says
		// it truncated a path: what it would search after that is searched
		// again by the retry (DT2's mutual exclusion at n = 3 reaches the
		// default depth after a few million states).
		retry := attempt == 0 && depth < maxRetryDepth
		panCtx, stopPan := context.WithCancel(ctx)
		truncated := false
		out, err := runReporting(panCtx, dir, func(line string) {
			progress(line)
			if retry && strings.Contains(line, "max search depth too small") {
				truncated = true
				stopPan()
			}
		}, "./pan", rflags...)
		stopPan()
		res.Output = out
		if r, done := budgetOut(ctx, res, "pan"); done {
			r.States = reported
			return r, nil
		}
		if truncated {
			depth *= 10
			continue
		}
		if err != nil && !strings.Contains(out, "errors:") {
			return res, fmt.Errorf("pan: %v\n%s", err, out)
		}
		parseStats(out, &res)
		res.Warnings = slices.Concat(spinWarnings, warningLines(out))
		errs := countErrors(out)
		if errs > 0 {
			res.Status = Failed
			res.Failure, res.Message = failureOf(out)
			trail, stuck, terr := replay(ctx, dir, file, model)
			if terr != nil {
				res.Reason = "trail replay failed: " + terr.Error()
			}
			res.Trail = trail
			if strings.Contains(res.Message, promela.BoundName) {
				// Not a property violation: the model's counter bound
				// (promela.Options.Bound) was too small for this run. The
				// trail shows how the counter grew (see Unbounded).
				res.Status = Incomplete
				res.BoundExceeded = true
				res.Reason = "a counter left the model's bound (" + res.Message + ")"
				return res, nil
			}
			if strings.Contains(res.Message, promela.SettleName) {
				// The quiescence check's premise, not the property: a
				// wait's locals kept changing with memory unchanged.
				res.Status = Incomplete
				res.Reason = "a wait's locals kept changing with no shared write (" + res.Message + "), so the quiescence check cannot conclude"
				return res, nil
			}
			if res.Failure == "invalid end state" {
				res.Stuck = stuck
			}
			return res, nil
		}
		if why := incomplete(out); why != "" {
			if strings.Contains(why, "depth") && attempt == 0 && depth < maxRetryDepth {
				depth *= 10
				continue
			}
			res.Status = Incomplete
			res.Reason = why
			return res, nil
		}
		if opts.Bitstate {
			res.Status = Incomplete
			res.Reason = "bitstate search found no counterexample; not exhaustive"
			return res, nil
		}
		if opts.HashCompact {
			res.Omission = omission(res.States)
			if res.Omission >= OmissionLimit {
				res.Status = Incomplete
				res.Reason = fmt.Sprintf("hash-compact search found no counterexample, but it may have skipped %.2g states whose signatures collided", res.Omission)
				return res, nil
			}
		}
		if w := harmfulWarning(res.Warnings, model, prop); w != "" {
			res.Status = Incomplete
			res.Reason = "no counterexample, but spin warned: " + w
			return res, nil
		}
		res.Status = Passed
		return res, nil
	}
}

// warningLines are the warnings in a spin or pan output, each with the
// indented lines that continue it joined to it.
func warningLines(out string) []string {
	var ws []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(strings.ToLower(line), "warning"):
			ws = append(ws, strings.TrimSpace(line))
			in = true
		case in && strings.HasPrefix(line, "\t"):
			ws[len(ws)-1] += " " + strings.TrimSpace(line)
		default:
			in = false
		}
	}
	return ws
}

// harmfulWarning returns the first of warnings that may touch a verdict,
// or "". The one known to be harmless is pan's "only one claim defined,
// -N ignored" where the model's one claim is the one -N names: every
// liveness model holds exactly the claim of its property.
func harmfulWarning(warnings []string, model string, prop Property) string {
	for _, w := range warnings {
		if strings.Contains(w, "only one claim defined, -N ignored") && prop.claim() != "" && onlyClaim(model) == prop.claim() {
			continue
		}
		return w
	}
	return ""
}

var reClaim = regexp.MustCompile(`(?m)^\s*(?:ltl|never)\b\s*(\w*)\s*\{`)

// onlyClaim is the name of the model's claim (ltl or never) if it has
// exactly one, and "" otherwise.
func onlyClaim(model string) string {
	m := reClaim.FindAllStringSubmatch(model, -1)
	if len(m) != 1 {
		return ""
	}
	return m[0][1]
}

// OmissionLimit is the bound on the expected number of skipped states
// below which a hash-compact search that finds no counterexample passes.
const OmissionLimit = 1e-6

// omission bounds the expected number of states a hash-compact search of
// n stored states skipped: each pair of distinct states shares a 96-bit
// signature with probability 2^-96 (pan's hashes taken as uniform), and a
// skipped state needs such a pair.
func omission(n int64) float64 {
	return float64(n) * float64(n) / 2 / math.Pow(2, 96)
}

// budgetOut turns a cancelled or timed-out context into an Incomplete (or
// cancelled) result.
func budgetOut(ctx context.Context, res Result, stage string) (Result, bool) {
	if ctx.Err() == nil {
		return res, false
	}
	res.Status = Incomplete
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.Reason = "time budget exhausted during " + stage
	} else {
		res.Reason = "cancelled during " + stage
	}
	return res, true
}

// run runs a tool in dir; cancelling ctx stops its whole process group.
func run(ctx context.Context, dir, name string, args ...string) (string, error) {
	return runReporting(ctx, dir, nil, name, args...)
}

// stopGrace is how long a cancelled tool's process group has, after
// SIGTERM, to remove its files (gcc its temporaries) before SIGKILL.
const stopGrace = 2 * time.Second

// runReporting is run that also hands each line of output to line (when
// not nil) as the tool prints it. The tool's temporary files go to dir
// (TMPDIR), which the caller removes: a compiler killed before it cleans
// up leaves nothing in the user's temporary directory.
func runReporting(ctx context.Context, dir string, line func(string), name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if abs, err := filepath.Abs(dir); err == nil {
		cmd.Env = append(os.Environ(), "TMPDIR="+abs)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	exited := make(chan struct{})
	defer close(exited)
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		group := -cmd.Process.Pid
		time.AfterFunc(stopGrace, func() {
			select {
			case <-exited:
			default:
				syscall.Kill(group, syscall.SIGKILL)
			}
		})
		return syscall.Kill(group, syscall.SIGTERM)
	}
	cmd.WaitDelay = stopGrace + 2*time.Second
	var buf bytes.Buffer
	var out io.Writer = &buf
	if line != nil {
		out = &lineWriter{w: &buf, line: line}
	}
	cmd.Stdout = out
	cmd.Stderr = out
	err := cmd.Run()
	return buf.String(), err
}

// lineWriter copies to w and calls line for every complete line.
type lineWriter struct {
	w       io.Writer
	line    func(string)
	partial []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.line(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	return l.w.Write(p)
}

// reProgress matches pan's periodic report, e.g.
// "Depth=    9478 States=    1e+06 Transitions= 2.8e+06 Memory=   147.456".
var reProgress = regexp.MustCompile(`^Depth=\s*(\d+)\s+States=\s*([\d.e+]+)`)

// progressLines turns pan's report lines into calls of progress (when
// not nil) and keeps the last report's states in *reported: what a search
// stopped by its budget had stored at least.
func progressLines(progress func(states, depth int64), reported *int64) func(string) {
	return func(line string) {
		if m := reProgress.FindStringSubmatch(line); m != nil {
			depth, _ := strconv.ParseInt(m[1], 10, 64)
			states, _ := strconv.ParseFloat(m[2], 64)
			*reported = int64(states)
			if progress != nil {
				progress(int64(states), depth)
			}
		}
	}
}

var (
	reErrors  = regexp.MustCompile(`errors: (\d+)`)
	reStored  = regexp.MustCompile(`(?m)^\s*([\d.e+]+) states, stored`)
	reTrans   = regexp.MustCompile(`(?m)^\s*([\d.e+]+) transitions`)
	reDepth   = regexp.MustCompile(`depth reached (\d+)`)
	reVector  = regexp.MustCompile(`State-vector (\d+) byte`)
	reMemory  = regexp.MustCompile(`(?m)^\s*([\d.]+)\s+total actual memory usage`)
	reElapsed = regexp.MustCompile(`pan: elapsed time ([\d.e+]+) seconds`)
	reFailure = regexp.MustCompile(`(?m)^pan:\d+: (.*?)(?: \(at depth \d+\))?$`)
)

func num(re *regexp.Regexp, s string) float64 {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	f, _ := strconv.ParseFloat(m[1], 64)
	return f
}

func parseStats(out string, r *Result) {
	r.States = int64(num(reStored, out))
	r.Transitions = int64(num(reTrans, out))
	r.Depth = int64(num(reDepth, out))
	r.StateVector = int(num(reVector, out))
	r.MemoryMB = num(reMemory, out)
	r.SearchTime = time.Duration(num(reElapsed, out) * float64(time.Second))
}

func countErrors(out string) int {
	m := reErrors.FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// failureOf classifies pan's first error line.
func failureOf(out string) (kind, msg string) {
	m := reFailure.FindStringSubmatch(out)
	if m == nil {
		return "error", ""
	}
	msg = m[1]
	switch {
	case strings.Contains(msg, "invalid array index"), strings.Contains(msg, "indexing"):
		kind = "invalid array index"
	case strings.HasPrefix(msg, "assertion violated"):
		kind = "assertion violated"
	case strings.HasPrefix(msg, "invalid end state"):
		kind = "invalid end state"
	case strings.HasPrefix(msg, "acceptance cycle"):
		kind = "acceptance cycle"
	case strings.HasPrefix(msg, "non-progress cycle"):
		kind = "non-progress cycle"
	default:
		kind = msg
	}
	return kind, msg
}

// incomplete returns why a search without errors did not cover the whole
// state space, or "".
// maxRetryDepth: a search that reaches a depth bound below it is retried
// once with ten times the bound.
const maxRetryDepth = 50_000_000

func incomplete(out string) string {
	switch {
	case strings.Contains(out, "out of memory"), strings.Contains(out, "MEMLIM"):
		return "memory budget exhausted (pan: out of memory)"
	case strings.Contains(out, "max search depth too small"):
		return "search depth bound reached (pan -m): the state space was truncated"
	case strings.Contains(out, "VECTORSZ"):
		return "state vector larger than VECTORSZ"
	case strings.Contains(out, "Search not completed"):
		return "pan: search not completed"
	case !strings.Contains(out, "states, stored"):
		return "pan printed no statistics"
	}
	return ""
}
