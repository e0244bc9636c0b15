package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/golang"
	"github.com/lockgen/lockgen/verify/gotest"
	"github.com/lockgen/lockgen/verify/spin"
)

// The layers lockgen verify runs, in order.
const (
	layerStress  = "stress"
	layerExplore = "explore"
	layerSpin    = "spin"
)

// verdicts of a layer.
const (
	verdictPass       = "pass"
	verdictFail       = "FAIL"
	verdictIncomplete = "incomplete" // SPIN could not search the whole space: no verdict
	verdictSkipped    = "skipped"
)

// layerResult is one layer's outcome for one lock.
type layerResult struct {
	lock, layer, verdict string
	elapsed              time.Duration
	detail               string // figures: passages, executions, states
	failure              string // what went wrong, with the replay token or trail
}

// spinCache remembers SPIN layers by model: locks that differ only in what
// SPIN does not model (node policy, padding, waiting, TryLock) share one run.
type spinCache map[string]layerResult

func spinKey(l spec.Lock, sizes []int) string {
	var params []string
	for k, v := range l.Params {
		params = append(params, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(params)
	return fmt.Sprintf("%s|%s|%s|k=%d|procs=%d|%s|n=%v", l.Algorithm, l.Mode, l.Preference, l.K, l.Procs, strings.Join(params, ","), sizes)
}

type verifyOptions struct {
	cache            spinCache
	layers           map[string]bool
	sizes            []int
	spinTimeout      time.Duration
	spinFold         bool
	expectRejections bool
	stderr           io.Writer
	command          string // the command line without the specs, for the report
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "[-layers L] [-n SIZES] [-spin-timeout D] [-spin-fold] [-report FILE] [-expect-rejections] SPEC...", stderr)
	layers := fs.String("layers", "stress,explore,spin", "comma-separated `layers` to run: stress, explore, spin")
	sizes := fs.String("n", "2,3,4", "process counts for SPIN, comma-separated (capped by procs)")
	spinTimeout := fs.Duration("spin-timeout", time.Minute, "time limit of one SPIN run; a run that hits it is incomplete, not failed")
	spinFold := fs.Bool("spin-fold", false, "fold local work into the neighbouring step in SPIN models: usually fewer states, same verdicts")
	report := fs.String("report", "", "also write the summary as Markdown to `FILE`")
	expect := fs.Bool("expect-rejections", false, "negative controls (known-incorrect or timing-dependent algorithms) must be rejected, and their rejection does not fail the run")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	o := verifyOptions{cache: spinCache{}, layers: map[string]bool{}, spinTimeout: *spinTimeout, spinFold: *spinFold, expectRejections: *expect, stderr: stderr}
	for _, l := range strings.Split(*layers, ",") {
		switch l = strings.TrimSpace(l); l {
		case layerStress, layerExplore, layerSpin:
			o.layers[l] = true
		default:
			fmt.Fprintf(stderr, "lockgen verify: unknown layer %q; valid: stress, explore, spin\n", l)
			return exitUsage
		}
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 2 {
			fmt.Fprintf(stderr, "lockgen verify: -n %q: want process counts of at least 2\n", *sizes)
			return exitUsage
		}
		o.sizes = append(o.sizes, n)
	}
	// Validate every spec before running anything.
	var files []*spec.File
	var errs spec.Errors
	for _, p := range fs.Args() {
		f, err := spec.ParseFile(p)
		var se spec.Errors
		switch {
		case errors.As(err, &se):
			errs = append(errs, se...)
		case err != nil:
			fmt.Fprintln(stderr, "lockgen:", err)
			return exitUsage
		default:
			files = append(files, f)
		}
	}
	if len(errs) > 0 {
		return reportSpecErrors(errs, stderr)
	}
	// Usage first, then the tools: a bad command line is exit 2 whatever
	// is installed.
	if o.layers[layerSpin] {
		if err := spin.Available(); err != nil {
			fmt.Fprintln(stderr, "lockgen verify:", err)
			return exitFailed
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	var results []layerResult
	for _, f := range files {
		rs, err := verifyFile(ctx, f, o)
		if err != nil && ctx.Err() != nil {
			fmt.Fprintf(stderr, "lockgen verify: interrupted during %s; no verdict\n", f.Path)
			return exitFailed
		}
		if err != nil {
			fmt.Fprintf(stderr, "lockgen verify: %s: %v\n", f.Path, err)
			return exitFailed
		}
		results = append(results, rs...)
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "lockgen verify: interrupted; no verdict")
			return exitFailed
		}
	}
	code := summarize(stdout, results, files, o, time.Since(start))
	if *report != "" {
		o.command = commandLine(fs)
		if err := writeReport(*report, results, files, o, time.Since(start)); err != nil {
			fmt.Fprintln(stderr, "lockgen verify:", err)
			return exitFailed
		}
	}
	return code
}

// verifyFile generates f's locks into a scratch package inside f's module,
// runs the Go layers on it with go test, and SPIN on each definition.
func verifyFile(ctx context.Context, f *spec.File, o verifyOptions) ([]layerResult, error) {
	dir, err := os.MkdirTemp(filepath.Dir(f.Path), "_lockgen-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	plan, err := gen.Build([]string{f.Path}, gen.Options{OutDir: dir})
	if err != nil {
		return nil, err
	}
	if _, err := plan.Write(); err != nil {
		return nil, err
	}
	pkg := f.Locks[0].Package
	if err := writeVerifyTests(dir, pkg, f.Locks); err != nil {
		return nil, err
	}

	var out []layerResult
	progress := func(r layerResult) {
		out = append(out, r)
		verdict, failure := shownVerdict(r, []*spec.File{f}, o), r.failure
		if verdict == verdictRejected {
			// A negative control that failed did what it must: show the
			// first line of what was found, not the whole trace.
			failure, _, _ = strings.Cut(failure, "\n")
		}
		hanging(o.stderr, fmt.Sprintf("%-18s %-8s %-10s %6.1fs  ", r.lock, r.layer, verdict, r.elapsed.Seconds()), r.detail)
		if failure != "" {
			fmt.Fprintln(o.stderr, indent(failure, "    "))
		}
	}
	if o.layers[layerStress] {
		fmt.Fprintf(o.stderr, "%s: stress under -race (%s)...\n", f.Path, plural(len(f.Locks), "lock"))
		res, err := gotest.Run(ctx, gotest.Options{Dir: dir, Race: true, Run: "^TestLockgenVerify.*Stress$", Timeout: 10 * time.Minute})
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // interrupted: the tests' outcomes mean nothing
		}
		if err != nil {
			return nil, err
		}
		for _, l := range f.Locks {
			progress(goLayer(res, l.Name, layerStress, "Stress", "stress "))
		}
	}
	if o.layers[layerExplore] {
		fmt.Fprintf(o.stderr, "%s: controlled scheduler (%s)...\n", f.Path, plural(len(f.Locks), "lock"))
		res, err := gotest.Run(ctx, gotest.Options{Dir: dir, Tags: []string{"lockgen_check"}, Run: "^TestLockgenVerify.*Explore$", Timeout: 10 * time.Minute})
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, err
		}
		for _, l := range f.Locks {
			progress(goLayer(res, l.Name, layerExplore, "Explore", "explore "))
		}
	}
	if o.layers[layerSpin] {
		for _, l := range f.Locks {
			fmt.Fprintf(o.stderr, "%s: SPIN...\n", l.Name)
			progress(spinLayer(ctx, l, o))
		}
	}
	return out, nil
}

// writeVerifyTests adds a test file calling Stress and Explore on every
// lock's generated subject, whatever the lock is (a negative control's
// generated tests expect a violation instead).
func writeVerifyTests(dir, pkg string, locks []spec.Lock) error {
	var stress, explore strings.Builder
	header := "// Code generated by lockgen verify. DO NOT EDIT.\n\n"
	fmt.Fprintf(&stress, "%spackage %s_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/lockgen/lockgen/verify\"\n)\n", header, pkg)
	fmt.Fprintf(&explore, "//go:build lockgen_check\n\n%spackage %s_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/lockgen/lockgen/verify\"\n)\n", header, pkg)
	for _, l := range locks {
		fmt.Fprintf(&stress, "\nfunc TestLockgenVerify%sStress(t *testing.T) { verify.Stress(t, %s()) }\n", l.Name, golang.SubjectFunc(l.Name))
		fmt.Fprintf(&explore, "\nfunc TestLockgenVerify%sExplore(t *testing.T) { verify.Explore(t, %s()) }\n", l.Name, golang.SubjectFunc(l.Name))
	}
	if err := os.WriteFile(filepath.Join(dir, "lockgen_verify_test.go"), []byte(stress.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "lockgen_verify_check_test.go"), []byte(explore.String()), 0o644)
}

// goLayer reads one lock's test of a go test run.
func goLayer(res *gotest.Result, lock, layer, suffix, logPrefix string) layerResult {
	r := layerResult{lock: lock, layer: layer}
	if res.BuildFailed {
		r.verdict, r.failure = verdictFail, "the generated package does not build:\n"+res.BuildOutput
		return r
	}
	t, ok := res.Test("TestLockgenVerify" + lock + suffix)
	if !ok {
		r.verdict, r.failure = verdictFail, "the test did not run:\n"+res.Output
		return r
	}
	r.elapsed = t.Elapsed
	r.detail = summaryLine(t.Output, logPrefix)
	switch t.Outcome {
	case gotest.Pass:
		r.verdict = verdictPass
	case gotest.Skip:
		r.verdict = verdictSkipped
	default:
		r.verdict, r.failure = verdictFail, strings.TrimSpace(t.Output)
	}
	return r
}

var logLine = regexp.MustCompile(`^\s*\S+_test\.go:\d+: `)

// summaryLine finds the layer's one-line report in a test's output.
func summaryLine(output, prefix string) string {
	for _, line := range strings.Split(output, "\n") {
		line = logLine.ReplaceAllString(line, "")
		if strings.HasPrefix(line, prefix) {
			s := strings.TrimPrefix(line, prefix)
			if i := strings.Index(s, ": "); i >= 0 {
				s = s[i+2:] // drop the lock's name
			}
			return s
		}
	}
	return ""
}

// progressEvery is how often a long SPIN layer reports what it searches.
var progressEvery = 10 * time.Second

// spinLayer runs the entry's standard SPIN properties on the lock's own
// definition (mode, k, preference, parameters) for each size procs allows.
func spinLayer(ctx context.Context, l spec.Lock, o verifyOptions) layerResult {
	r := layerResult{lock: l.Name, layer: layerSpin}
	start := time.Now()
	var sizes []int
	for _, n := range o.sizes {
		if (l.Procs > 0 && n > l.Procs) || (l.Mode == templates.KExclusion && n <= l.K) {
			continue
		}
		if l.Entry.MaxProcs > 0 && n > l.Entry.MaxProcs || n < l.Entry.MinProcs {
			continue
		}
		sizes = append(sizes, n)
	}
	if len(sizes) == 0 {
		r.verdict, r.detail = verdictSkipped, "no process count in -n fits this lock"
		return r
	}
	key := spinKey(l, sizes)
	if c, ok := o.cache[key]; ok {
		c.lock, c.elapsed = l.Name, 0
		c.detail = "same model as " + c.detail
		return c
	}
	defer func() {
		c := r
		c.detail = c.lock + ": " + c.detail
		o.cache[key] = c
	}()
	// A SPIN layer can take minutes: say what it is searching every
	// progressEvery, so that a long run is never silent.
	last := start
	progress := func(msg string) {
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			fmt.Fprintf(o.stderr, "  %s: spin %s (%s so far)\n", l.Name, msg, now.Sub(start).Round(time.Second))
		}
	}
	rep, err := spin.CheckEntry(ctx, l.Algorithm, spin.SuiteOptions{
		Progress: progress,
		Sizes:    sizes, Mode: l.Mode, K: l.K, Preference: l.Preference,
		Def:   l.Entry.MustDef(templates.Options{Mode: l.Mode, Preference: l.Preference}),
		Extra: l.Params, Reduce: true, Run: spin.Options{Timeout: o.spinTimeout, Fold: o.spinFold},
	})
	r.elapsed = time.Since(start)
	if err != nil {
		r.verdict, r.failure = verdictFail, err.Error()
		return r
	}
	var passed, failed, incomplete, skipped int
	var states int64
	var failures, gaps, reduced []string
	for _, run := range rep.Runs {
		if run.Reduced != "" && run.Result.Status != spin.Skipped && !slices.Contains(reduced, run.Reduced) {
			reduced = append(reduced, run.Reduced)
		}
		switch run.Result.Status {
		case spin.Passed:
			passed++
			states += run.Result.States
		case spin.Failed:
			failed++
			failures = append(failures, fmt.Sprintf("n=%d %s: %s\n%s", run.N, run.Property, run.Result.Message, indent(spin.Counterexample(run.Result, trailShown), "  ")))
		case spin.Skipped:
			skipped++
		default:
			incomplete++
			gaps = append(gaps, fmt.Sprintf("n=%d %s", run.N, run.Property))
		}
	}
	r.detail = fmt.Sprintf("%s passed (n = %s, %d states in all)", plural(passed, "run"), joinInts(sizes), states)
	if failed > 0 {
		r.detail = fmt.Sprintf("%s failed, %s", plural(failed, "run"), r.detail)
	}
	if incomplete > 0 {
		r.detail += fmt.Sprintf("; %d incomplete, no verdict (%s)", incomplete, strings.Join(gaps, ", "))
	}
	if len(reduced) > 0 {
		r.detail += fmt.Sprintf("; checked with the smallest valid parameters, %s, as %s", strings.Join(reduced, " and "), rep.Reduction)
	}
	if skipped > 0 {
		r.detail += fmt.Sprintf("; %d skipped (a smaller n was already incomplete, or the parameters do not fit n)", skipped)
	}
	switch {
	case failed > 0:
		r.verdict, r.failure = verdictFail, strings.Join(failures, "\n")
	case passed == 0:
		r.verdict = verdictIncomplete
	default:
		r.verdict = verdictPass
	}
	return r
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n")
}

// control says whether lock is a negative control, and what kind.
func control(files []*spec.File, lock string) string {
	for _, f := range files {
		for _, l := range f.Locks {
			if l.Name == lock && l.Entry.NegativeControl() {
				if l.Entry.Incorrect != "" {
					return "known incorrect"
				}
				return "timing-dependent"
			}
		}
	}
	return ""
}

// verdictRejected is how a negative control's failed layer is shown under
// -expect-rejections: the failure is what it must produce.
const verdictRejected = "rejected"

// shownVerdict is a layer's verdict as printed.
func shownVerdict(r layerResult, files []*spec.File, o verifyOptions) string {
	if o.expectRejections && r.verdict == verdictFail && control(files, r.lock) != "" {
		return verdictRejected
	}
	return r.verdict
}

// plural says "1 run" or "3 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// outcome judges one lock over its layers: a lock passes when no layer
// failed; a negative control (with -expect-rejections) when one did.
func outcome(rs []layerResult, ctl string, o verifyOptions) (string, bool) {
	rejected := false
	var open []string // layers that gave no verdict
	for _, r := range rs {
		switch r.verdict {
		case verdictFail:
			rejected = true
		case verdictIncomplete:
			open = append(open, r.layer)
		}
	}
	switch {
	case ctl != "" && o.expectRejections && rejected:
		return "rejected (" + ctl + "), as required", true
	case ctl != "" && o.expectRejections:
		return "NOT rejected (" + ctl + "): the checker missed it", false
	case rejected:
		return "FAILED", false
	case len(open) > 0:
		return "no failure; no verdict from " + strings.Join(open, ", ") + " (incomplete)", true
	}
	return "verified", true
}

// summarize prints the table and returns the exit code.
func summarize(w io.Writer, results []layerResult, files []*spec.File, o verifyOptions, elapsed time.Duration) int {
	var rows [][]string
	for _, r := range results {
		rows = append(rows, []string{r.lock, r.layer, shownVerdict(r, files, o), fmt.Sprintf("%.1fs", r.elapsed.Seconds()), r.detail})
	}
	table(w, termWidth, []string{"LOCK", "LAYER", "VERDICT", "TIME", "DETAIL"}, rows)
	code := exitOK
	fmt.Fprintln(w)
	for _, lock := range lockOrder(results) {
		verdict, ok := outcome(byLock(results, lock), control(files, lock), o)
		if !ok {
			code = exitFailed
		}
		fmt.Fprintf(w, "%s: %s\n", lock, verdict)
	}
	fmt.Fprintf(w, "\n%s, %s, %s\n", plural(len(lockOrder(results)), "lock"), plural(len(results), "layer run"), elapsed.Round(time.Second))
	return code
}

func lockOrder(results []layerResult) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range results {
		if !seen[r.lock] {
			seen[r.lock] = true
			out = append(out, r.lock)
		}
	}
	return out
}

func byLock(results []layerResult, lock string) []layerResult {
	var out []layerResult
	for _, r := range results {
		if r.lock == lock {
			out = append(out, r)
		}
	}
	return out
}

// writeReport writes the summary as Markdown (docs/verification.md).
func writeReport(path string, results []layerResult, files []*spec.File, o verifyOptions, elapsed time.Duration) error {
	var b strings.Builder
	b.WriteString("# Verification of the catalogue\n\n")
	fmt.Fprintf(&b, "Generated by `%s` over %d specs (%s on this machine).\n\n", o.command, len(files), elapsed.Round(time.Second))
	b.WriteString("Layers: stress (verify.Stress under -race), explore (verify.Explore under -tags lockgen_check: random, PCT and bounded exhaustive schedules), spin (SPIN on the Promela lowering of the same definition, n = " + joinInts(o.sizes) + " where procs allows, the properties the paper claims). An incomplete SPIN run hit its limit (time or memory) and gives no verdict.\n\n")
	b.WriteString("| lock | algorithm | layer | verdict | time | detail |\n|---|---|---|---|---|---|\n")
	alg := map[string]string{}
	for _, f := range files {
		for _, l := range f.Locks {
			alg[l.Name] = l.Algorithm
		}
	}
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %.1fs | %s |\n", r.lock, alg[r.lock], r.layer, shownVerdict(r, files, o), r.elapsed.Seconds(), strings.ReplaceAll(r.detail, "|", "\\|"))
	}
	b.WriteString("\n## Outcome per lock\n\n")
	for _, lock := range lockOrder(results) {
		verdict, _ := outcome(byLock(results, lock), control(files, lock), o)
		fmt.Fprintf(&b, "- %s (`%s`): %s\n", lock, alg[lock], verdict)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// trailShown is how many steps of a SPIN trail a failure shows: the end,
// where the violation is (a long trail would bury the summary).
const trailShown = 80

// commandLine renders a command with the flags that were set (a true
// boolean flag as its bare name), for a report that says how it was made.
func commandLine(fs *flag.FlagSet) string {
	parts := []string{fs.Name()}
	fs.Visit(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && f.Value.String() == "true" {
			parts = append(parts, "-"+f.Name)
			return
		}
		parts = append(parts, "-"+f.Name+" "+f.Value.String())
	})
	return strings.Join(parts, " ")
}
