package spin

import (
	"bufio"
	"context"
	"fmt"
	"github.com/lockgen/lockgen/backend/promela"
	"regexp"
	"strconv"
	"strings"
)

// Step is one transition of a counterexample, in the paper's terms.
type Step struct {
	Proc  int    // process id (Self: 0..n-1)
	Role  string // proctype: Proc (mutex, k-exclusion), Writer or Reader
	Op    string // Acquire, Release, TryAcquire, RAcquire, ...; CS or NCS for the harness
	Label string // the paper's line label, "" for unlabelled statements
	Stmt  string // the IR statement, in the paper's notation
	// Promela is what the model executed in this step.
	Promela string
	// Values are the variables the step changed, "name = value".
	Values []string
	// CycleStart marks the first step of the cycle of a liveness
	// counterexample: from here the run repeats for ever.
	CycleStart bool
	Line       int // line of the model
}

func (s Step) String() string {
	who := fmt.Sprintf("p%d", s.Proc)
	switch s.Role {
	case "Writer":
		who = fmt.Sprintf("w%d", s.Proc)
	case "Reader":
		who = fmt.Sprintf("r%d", s.Proc)
	case promela.CrasherRole:
		who = "ghost"
	}
	var where string
	switch {
	case s.Op == "CS" || s.Op == "NCS" || s.Op == "crash":
		where = s.Stmt
	case s.Label != "":
		where = fmt.Sprintf("%s line %s: %s", s.Op, s.Label, s.Stmt)
	case s.Op != "":
		where = fmt.Sprintf("%s: %s", s.Op, s.Stmt)
	default:
		where = s.Promela
	}
	out := fmt.Sprintf("%-4s %s", who, where)
	if s.Op != "" && s.Promela != "" && s.Op != "CS" && s.Op != "NCS" {
		out += "   ⟨" + s.Promela + "⟩"
	}
	if len(s.Values) > 0 {
		out += "   {" + strings.Join(s.Values, ", ") + "}"
	}
	return out
}

// TrailText renders a counterexample, one step per line.
func TrailText(steps []Step) string {
	return trailText(steps, nil)
}

// Counterexample renders a failed run's trail, condensed, and the
// processes stuck in an invalid end state. With last > 0 only the last
// steps are shown (where the violation is), after a line counting the
// steps left out.
func Counterexample(res Result, last int) string {
	steps := Condense(res.Trail)
	if last <= 0 || len(steps) <= last {
		return trailText(steps, res.Stuck)
	}
	return fmt.Sprintf("     … (%d earlier steps not shown)\n%s", len(steps)-last, trailText(steps[len(steps)-last:], res.Stuck))
}

func trailText(steps, stuck []Step) string {
	var b strings.Builder
	for i, s := range steps {
		if s.CycleStart {
			b.WriteString("     ---- cycle: the steps below repeat for ever ----\n")
		}
		fmt.Fprintf(&b, "%4d %s\n", i+1, s)
	}
	for _, s := range stuck {
		fmt.Fprintf(&b, "     stuck: %s\n", s)
	}
	return b.String()
}

// Condense merges runs of consecutive steps of one process on the same
// statement (the iterations of a local loop, a flattened read and its
// test) into one step carrying the last values, so that long trails read
// line by line. The cycle mark is kept.
func Condense(steps []Step) []Step {
	var out []Step
	for _, s := range steps {
		if n := len(out); n > 0 && !s.CycleStart {
			last := &out[n-1]
			if last.Proc == s.Proc && last.Role == s.Role && last.Op == s.Op && last.Label == s.Label && last.Stmt == s.Stmt {
				last.Promela = ""
				last.Values = mergeValues(last.Values, s.Values)
				continue
			}
		}
		s.Values = append([]string(nil), s.Values...)
		out = append(out, s)
	}
	return out
}

func mergeValues(old, new []string) []string {
	for _, kv := range new {
		name := kv[:strings.Index(kv, " = ")+3]
		replaced := false
		for i, o := range old {
			if strings.HasPrefix(o, name) {
				old[i] = kv
				replaced = true
			}
		}
		if !replaced {
			old = append(old, kv)
		}
	}
	return old
}

// Labels returns the paper labels a trail passes through, "Op:label".
func Labels(steps []Step) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range steps {
		if s.Label == "" {
			continue
		}
		k := s.Op + ":" + s.Label
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Mentions reports whether the counterexample names paper label label (in
// any operation): a step of the trail, or where a process is stuck.
func (r Result) Mentions(label string) bool {
	for _, s := range append(append([]Step{}, r.Trail...), r.Stuck...) {
		if s.Label == label {
			return true
		}
	}
	return false
}

// lineInfo is what a model line's marker says.
type lineInfo struct{ op, label, stmt string }

var reMarker = regexp.MustCompile(`/\*@ ([^|]*)\|([^|]*)\|(.*) \*/\s*$`)

// markers maps model lines (1-based) to their IR statements.
func markers(model string) map[int]lineInfo {
	m := map[int]lineInfo{}
	for i, line := range strings.Split(model, "\n") {
		if g := reMarker.FindStringSubmatch(line); g != nil {
			m[i+1] = lineInfo{g[1], g[2], g[3]}
		}
	}
	return m
}

var (
	reStep  = regexp.MustCompile(`^\s*\d+:\s+proc\s+(\d+)\s+\(([^)]*)\)\s+\S+?:(\d+)\s+\(state \d+\)\s*(?:\[(.*)\])?\s*$`)
	reValue = regexp.MustCompile(`^\t\t(?:(\w+)\((\d+)\):)?(\S.*?) = (.*)$`)
)

var reAssign = regexp.MustCompile(`^(\w+) = (.+)$`)

// readValues adds to a step the values it assigned without changing them
// (spin prints only changes): a read of 0 into a local that was 0 is
// still what the reader needs to see.
func readValues(st *Step, values map[string]string) {
	for _, part := range strings.Split(st.Promela, "; ") {
		g := reAssign.FindStringSubmatch(part)
		if g == nil || strings.HasPrefix(g[1], "lg_") || strings.HasPrefix(g[1], "g_") {
			continue
		}
		if _, err := strconv.Atoi(g[2]); err == nil {
			continue // a reset, or a constant: nothing was read
		}
		have := false
		for _, v := range st.Values {
			have = have || strings.HasPrefix(v, g[1]+" = ")
		}
		if have {
			continue
		}
		v, ok := values[fmt.Sprintf("%s(%d):%s", st.Role, st.Proc+1, g[1])]
		if !ok {
			v, ok = values[g[1]]
		}
		if !ok {
			v = "0"
		}
		st.Values = append(st.Values, g[1]+" = "+v)
	}
}

// replay runs the trail through spin's simulator and turns it into steps,
// and the final positions of the processes that did not end validly.
func replay(ctx context.Context, dir, file, model string) (steps, stuck []Step, err error) {
	out, err := run(ctx, dir, "spin", "-t", "-p", "-g", "-l", file)
	if err != nil && !strings.Contains(out, "trail ends") {
		return nil, nil, fmt.Errorf("spin -t: %v", err)
	}
	marks := markers(model)
	steps = parseTrail(out, marks)
	if i := strings.Index(out, "#processes"); i >= 0 {
		stuck = parseFinal(out[i:], marks)
	}
	return steps, stuck, nil
}

var reFinal = regexp.MustCompile(`^\s*\d+:\s+proc\s+(\d+)\s+\(([^)]*)\)\s+\S+?:(\d+)\s+\(state \d+\)(.*)$`)

// parseFinal reads the process positions spin prints after a trail: the
// ones not at a valid end state are where a deadlock holds them.
func parseFinal(out string, marks map[int]lineInfo) []Step {
	var stuck []Step
	for _, line := range strings.Split(out, "\n") {
		g := reFinal.FindStringSubmatch(line)
		if g == nil || strings.Contains(g[4], "valid end state") {
			continue
		}
		role := g[2]
		if i := strings.LastIndex(role, ":"); i > 0 {
			role = role[:i]
		}
		if strings.Contains(role, "init") || strings.Contains(role, "never") || g[1] == "-" {
			continue
		}
		pid, _ := strconv.Atoi(g[1])
		ln, _ := strconv.Atoi(g[3])
		info := marks[ln]
		stuck = append(stuck, Step{Proc: pid - 1, Role: role, Op: info.op, Label: info.label, Stmt: info.stmt, Line: ln})
	}
	return stuck
}

func parseTrail(out string, marks map[int]lineInfo) []Step {
	var steps []Step
	values := map[string]string{} // last known values
	cycle := false
	var cur *Step
	flush := func() {
		if cur != nil {
			readValues(cur, values)
			steps = append(steps, *cur)
			cur = nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "START OF CYCLE"):
			flush()
			cycle = true
			continue
		case strings.HasPrefix(line, "spin: trail ends"), strings.HasPrefix(line, "#processes"):
			flush()
			return steps
		}
		if g := reStep.FindStringSubmatch(line); g != nil {
			pid, _ := strconv.Atoi(g[1])
			role := g[2]
			if i := strings.LastIndex(role, ":"); i > 0 {
				role = role[:i]
			}
			ln, _ := strconv.Atoi(g[3])
			if strings.Contains(role, "init") || strings.HasPrefix(role, "never") || strings.Contains(role, ":never") {
				flush()
				cur = nil
				continue
			}
			text := g[4]
			if cur != nil && cur.Line == ln && cur.Proc == pid-1 && !cycle {
				// Another statement of the same atomic step.
				if text != "" {
					cur.Promela += "; " + text
				}
				continue
			}
			flush()
			info := marks[ln]
			if role == promela.CrasherRole && info.op == "" {
				cur = nil // the crasher's loop, not a step of the run
				continue
			}
			cur = &Step{Proc: pid - 1, Role: role, Op: info.op, Label: info.label, Stmt: info.stmt,
				Promela: text, Line: ln, CycleStart: cycle}
			cycle = false
			continue
		}
		if g := reValue.FindStringSubmatch(line); g != nil && cur != nil {
			key := g[3]
			if g[1] != "" {
				key = g[1] + "(" + g[2] + "):" + g[3]
			}
			if values[key] == g[4] {
				continue
			}
			values[key] = g[4]
			name := g[3]
			if g[1] != "" {
				pid, _ := strconv.Atoi(g[2])
				if pid-1 != cur.Proc {
					name = fmt.Sprintf("p%d.%s", pid-1, name)
				}
			}
			kv := name + " = " + g[4]
			for i, v := range cur.Values {
				if strings.HasPrefix(v, name+" = ") {
					cur.Values[i] = kv
					kv = ""
					break
				}
			}
			if kv != "" {
				cur.Values = append(cur.Values, kv)
			}
		}
	}
	flush()
	return steps
}
