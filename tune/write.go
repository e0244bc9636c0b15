package tune

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/spec"
)

// CommentPrefix starts every line of the evidence tune writes above a
// lock; the next -write replaces those lines.
const CommentPrefix = "# tune: "

// Evidence is the comment -write puts above the lock: the date, the
// variants, the objective's ratio with its interval, and each
// benchmark's change as benchstat gives it.
func (r *Result) Evidence() []string {
	w := r.Winner
	t := r.Target
	var b strings.Builder
	fmt.Fprintf(&b, "lockgen tune, %s: %s over %s: %s the current variant's time", r.Started.UTC().Format("2006-01-02"),
		w.Candidate.Variant(t), r.Outcomes[0].Candidate.Variant(t), w.Ratio)
	fmt.Fprintf(&b, " (%s; median and %.0f%% interval over %d rounds of go test -bench %s -benchtime %s in %s; %s/%s, %d CPUs, %s).",
		r.Opts.Objective, 100*Confidence, w.Ratio.N, r.Opts.Bench, r.Opts.Benchtime, strings.Join(r.Packages, ", "),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	lines := wrapWords(b.String(), 76)
	for _, bench := range r.Benchmarks {
		if c := w.Cells[bench]; c != nil {
			lines = append(lines, fmt.Sprintf("  %s: %s (%s)", bench, c.Delta, c.Test))
		}
	}
	return lines
}

// Change is the spec edit that makes the winner the spec's lock, with the
// evidence above it when evidence is set.
func (r *Result) change(evidence bool) ([]byte, error) {
	e := r.Winner.Candidate.Edit
	if evidence {
		e.Comment, e.CommentPrefix = r.Evidence(), CommentPrefix
	}
	return spec.EditSource(r.Target.Src, e)
}

// ErrStandardWins says why -write leaves the spec alone when the standard
// lock won: a spec names only the catalogue's algorithms.
type ErrStandardWins struct{ Name, Type string }

func (e ErrStandardWins) Error() string {
	return fmt.Sprintf("the standard lock won, which a spec cannot name: use %s in place of %s in your code and drop the lock from the spec", e.Type, e.Name)
}

// SpecDiff is the lines of the spec to change for the winner, as a
// unified diff's - and + lines with their line numbers.
func (r *Result) SpecDiff() ([]string, error) {
	if r.Winner == nil {
		return nil, nil
	}
	if r.Winner.Candidate.Standard {
		return nil, ErrStandardWins{r.Target.Lock.Name, golang.StandardName(r.Target.Lock.Mode)}
	}
	after, err := r.change(false)
	if err != nil {
		return nil, err
	}
	return lineDiff(string(r.Target.Src), string(after)), nil
}

// Write puts the winner into the spec, with the evidence above its lock,
// and regenerates the spec's package: the spec and the package's files
// are one plan, written all or nothing.
func (r *Result) Write() (gen.Report, error) {
	t := r.Target
	if r.Winner.Candidate.Standard {
		return gen.Report{}, ErrStandardWins{t.Lock.Name, golang.StandardName(t.Lock.Mode)}
	}
	after, err := r.change(true)
	if err != nil {
		return gen.Report{}, err
	}
	f, err := spec.Parse(t.Path, after)
	if err != nil {
		return gen.Report{}, err
	}
	plan, err := gen.BuildFiles([]*spec.File{f}, gen.Options{OutDir: r.Opts.OutDir})
	if err != nil {
		return gen.Report{}, err
	}
	plan.Outputs = append(plan.Outputs, gen.Output{Path: t.absSpec(), Data: after})
	return plan.Write()
}

// lineDiff lists the lines that differ between a and b, "-N: line" for a
// line of a and "+N: line" for one of b (N numbers lines in b for
// additions, in a for removals), by a longest common subsequence.
func lineDiff(a, b string) []string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, fmt.Sprintf("-%d: %s", i+1, x[i]))
			i++
		default:
			out = append(out, fmt.Sprintf("+%d: %s", j+1, y[j]))
			j++
		}
	}
	return out
}

// wrapWords breaks text into lines of at most width bytes at spaces.
func wrapWords(text string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
