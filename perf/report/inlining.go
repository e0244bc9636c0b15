package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lockgen/lockgen/perf"
)

// passageMethods are the methods a benchmark loop calls, in table order.
var passageMethods = []string{"Lock", "Unlock", "RLock", "RUnlock"}

// inliningOf is the compiler's verdict on a lock's method: on the lock's
// type or, for a lock used through handles, on its handle's.
func (x *Index) inliningOf(subject, method string) (perf.Inlining, bool) {
	for _, in := range x.rep.Inlining {
		if (in.Type == subject || in.Type == subject+"Handle") && in.Method == method {
			return in, true
		}
	}
	return perf.Inlining{}, false
}

// why says why the compiler did not inline a method: its cost against the
// budget, or the reason it gave.
func why(in perf.Inlining) string {
	switch {
	case in.Reason != "":
		return in.Reason
	case in.Budget > 0:
		return fmt.Sprintf("cost %d, budget %d", in.Cost, in.Budget)
	case in.Inlinable:
		return fmt.Sprintf("cost %d, within the budget, but not inlined at this call", in.Cost)
	}
	return fmt.Sprintf("cost %d", in.Cost)
}

// callsPhrase says which of a lock's methods the compiler inlined into the
// benchmark's loop, and why not the others; "" when the report has no
// verdict on one of them (a report from before it recorded them).
func (x *Index) callsPhrase(subject string, methods ...string) string {
	var in, out []string
	for _, m := range methods {
		v, ok := x.inliningOf(subject, m)
		if !ok {
			return ""
		}
		if v.Inlined {
			in = append(in, m)
		} else {
			out = append(out, fmt.Sprintf("%s (%s)", m, why(v)))
		}
	}
	switch {
	case len(out) == 0:
		return fmt.Sprintf("the compiler inlines this lock's %s into the benchmark's loop", andList(in))
	case len(in) == 0 && len(out) == 1:
		return fmt.Sprintf("the compiler does not inline this lock's %s into the benchmark's loop", out[0])
	case len(in) == 0 && len(out) == 2:
		return fmt.Sprintf("the compiler inlines neither this lock's %s nor its %s into the benchmark's loop", out[0], out[1])
	case len(in) == 0:
		return fmt.Sprintf("the compiler inlines none of this lock's %s into the benchmark's loop", andList(out))
	}
	return fmt.Sprintf("the compiler inlines this lock's %s into the benchmark's loop, but not %s", andList(in), andList(out))
}

// andList joins words as prose: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// generated lists the report's generated locks (not the baselines) once
// each, in the report's order.
func (x *Index) generated() []string {
	var out []string
	for i := range x.rep.Results {
		if r := &x.rep.Results[i]; !r.Baseline && !slices.Contains(out, r.Subject) {
			out = append(out, r.Subject)
		}
	}
	return out
}

// inliningTable writes the compiler's verdict on every generated lock's
// passage methods, one row per lock in the report's order.
func inliningTable(w io.Writer, x *Index) {
	var cols []string
	for _, m := range passageMethods {
		if slices.ContainsFunc(x.rep.Inlining, func(in perf.Inlining) bool { return in.Method == m }) {
			cols = append(cols, m)
		}
	}
	fmt.Fprintf(w, "## Inlining\n\nWhat the compiler did with each method a lock's benchmark loop calls, from its own report (`go test -c -gcflags=-m=2` of the benchmark's package, the build that was measured): inlined into the loop, or not, with the method's cost in the compiler's measure against its budget, or the reason it gave. sync.Mutex's Lock and Unlock inline; a call that does not costs the passage a function call, whose price the bare-steps table above gives (\"in two calls\").\n\n| lock |")
	for _, m := range cols {
		fmt.Fprintf(w, " %s |", m)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(cols)))
	for _, subject := range x.generated() {
		row := fmt.Sprintf("| %s |", subject)
		found := false
		for _, m := range cols {
			v, ok := x.inliningOf(subject, m)
			switch {
			case !ok:
				row += " |"
			case v.Inlined:
				found = true
				row += fmt.Sprintf(" inlined (cost %d) |", v.Cost)
			default:
				found = true
				row += fmt.Sprintf(" not inlined (%s) |", why(v))
			}
		}
		if found {
			fmt.Fprintln(w, row)
		}
	}
	fmt.Fprintln(w)
}

// inliningLines writes, under the terminal table, one line per generated
// lock: which of its methods the compiler inlined into the loop, and the
// cost against the budget (or the reason) of those it did not. At most
// 100 columns, like the table.
func inliningLines(w io.Writer, x *Index) {
	if len(x.rep.Inlining) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-22s %s\n", "LOCK", "METHODS INLINED INTO THE LOOP (the compiler's cost>budget where not)")
	for _, subject := range x.generated() {
		var in, out []string
		for _, m := range passageMethods {
			v, ok := x.inliningOf(subject, m)
			switch {
			case !ok:
			case v.Inlined:
				in = append(in, m)
			case v.Reason != "":
				out = append(out, m+" ("+v.Reason+")")
			case v.Budget > 0:
				out = append(out, fmt.Sprintf("%s %d>%d", m, v.Cost, v.Budget))
			default:
				out = append(out, fmt.Sprintf("%s %d", m, v.Cost))
			}
		}
		if len(in)+len(out) == 0 {
			continue
		}
		var parts []string
		if len(in) > 0 {
			parts = append(parts, "inlined: "+strings.Join(in, ", "))
		}
		if len(out) > 0 {
			parts = append(parts, "not inlined: "+strings.Join(out, ", "))
		}
		fmt.Fprintln(w, trunc(fmt.Sprintf("%-22s %s", trunc(subject, 22), strings.Join(parts, "; ")), 100))
	}
}
