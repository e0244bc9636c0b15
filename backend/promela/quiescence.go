package promela

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// The Quiescence check: starvation as a reachable state.
//
// With bounded passages, and loops that write no shared register, every
// infinite run ends with shared memory constant: the only unbounded loops
// are waits, and they only read. From then on each waiting process repeats
// a deterministic iteration over the same memory, so its locals settle or
// cycle. A process starves exactly when the model reaches a state where
// every process is idle (in its remainder section, free to stay there;
// done; or crashed) or stuck: at a wait's head with the same locals as at
// its previous pass, with no shared write in between. From such a state no
// process ever writes again, so nobody leaves its wait, under any
// schedule. The ghosts below find such a state; pan searches for it as a
// safety property, without the weak-fairness product that makes the LTL
// claim expensive (Zehavi at n = 3: about 15 transitions per stored state
// under weak fairness, 1.5 here).
//
// A stuck process is only recognised when its locals settle (are the same
// at two consecutive passes). Locals that keep changing with memory
// unchanged would hide a starvation, so that is asserted too: more than
// SettleName (n + 1) consecutive changes with no write is a premise
// failure, which the driver reports as no verdict, never as a pass.

// SettleName is the bound the quiescence check's premise assertion
// compares with: a wait whose locals change on more consecutive passes
// with no shared write makes the check inconclusive.
const SettleName = "lg_settle"

// QuiescenceBlocker says why the Quiescence check does not apply to a
// (a loop of some operation writes a shared register: a process spinning
// in it never leaves memory constant), or "" if it applies.
func QuiescenceBlocker(a *ir.Algorithm) string {
	why := ""
	for _, op := range a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			if why != "" {
				return
			}
			var body ir.Code
			switch s := s.(type) {
			case ir.While:
				body = s.Body
			case ir.Repeat:
				body = s.Body
			default:
				return
			}
			ir.WalkStmts(body, func(w ir.Stmt) {
				switch w.(type) {
				case ir.Write, ir.Swap, ir.CAS, ir.FetchAdd:
					if why == "" {
						why = fmt.Sprintf("%s line %s: the loop writes a shared register (line %s), so a process spinning in it never leaves memory unchanged", op.Name, s.Label(), w.Label())
					}
				}
			})
		})
	}
	return why
}

// quietGhosts declares the check's ghost variables.
func (l *lower) quietGhosts() {
	idle := l.allMask()
	if l.o.NoHalt {
		idle = 0
	}
	l.raw(fmt.Sprintf("hidden byte %s = %d;\t/* consecutive changes of a wait's locals with no write: more and the check cannot conclude */", SettleName, l.n+1))
	l.raw("byte g_clean;\t/* processes that saw no shared write since their last wait pass (bit i) */")
	l.raw("byte g_stuck;\t/* processes whose wait pass repeated the previous one, no write since (bit i) */")
	l.raw(fmt.Sprintf("byte g_idle = %d;\t/* processes in the remainder section (free to stay), done or crashed (bit i) */", idle))
	l.raw(fmt.Sprintf("byte g_moves[%d];\t/* consecutive passes of process i's wait that changed its locals with no write */", l.n))
}

func (l *lower) allMask() int { return 1<<l.n - 1 }

// quietWrite is the ghost update of a step that writes shared memory:
// every wait may now see something new.
func (l *lower) quietWrite() string {
	if l.o.Checks&Quiescence == 0 {
		return ""
	}
	return "g_clean = 0; g_stuck = 0"
}

// quietPass is the ghost step at each pass of a wait's head (a loop's
// iteration, a failed await): is this pass a repeat of the previous one?
// The assertion fails when every process is idle or stuck.
func (l *lower) quietPass() string {
	if l.o.Checks&Quiescence == 0 {
		return ""
	}
	const me = "(1 << lg_me)"
	var same, snap []string
	for _, v := range l.snapVars() {
		same = append(same, fmt.Sprintf("%s == %s", snapName(v), v))
		snap = append(snap, fmt.Sprintf("%s = %s", snapName(v), v))
	}
	eq := "true"
	if len(same) > 0 {
		eq = strings.Join(same, " && ")
	}
	test := strings.Join([]string{
		"if",
		fmt.Sprintf(":: (g_clean & %s) && (%s) -> g_stuck = g_stuck | %s; g_moves[lg_me] = 0", me, eq, me),
		fmt.Sprintf(":: (g_clean & %s) && !(%s) -> g_moves[lg_me]++; assert(g_moves[lg_me] <= %s)", me, eq, SettleName),
		":: else -> g_moves[lg_me] = 0",
		"fi"}, " ")
	parts := append([]string{test, fmt.Sprintf("g_clean = g_clean | %s", me)}, snap...)
	parts = append(parts, fmt.Sprintf("assert(!((g_stuck & %s) && (g_stuck | g_idle) == %d))", me, l.allMask()))
	return strings.Join(parts, "; ")
}

// quietLeave is the ghost work of a process leaving a wait, or entering
// the critical section (a jump out of a wait has no exit step): its next
// pass starts afresh.
func (l *lower) quietLeave() string {
	if l.o.Checks&Quiescence == 0 {
		return ""
	}
	parts := []string{"g_clean = g_clean & ~(1 << lg_me)", "g_stuck = g_stuck & ~(1 << lg_me)", "g_moves[lg_me] = 0"}
	for _, v := range l.snapVars() {
		parts = append(parts, snapName(v)+" = 0")
	}
	return strings.Join(parts, "; ")
}

// quietIdle is the ghost work of a process back in its remainder
// section: idle, as it may stay there (with Options.NoHalt only once its
// passages are done).
func (l *lower) quietIdle() string {
	if l.o.Checks&Quiescence == 0 {
		return ""
	}
	if l.o.NoHalt {
		return fmt.Sprintf("if :: (lg_pass >= %d) -> g_idle = g_idle | (1 << lg_me) :: else fi", l.o.Passages)
	}
	return "g_idle = g_idle | (1 << lg_me)"
}

// snapVars are the Promela locals (array elements spelled out) that the
// loops of the current role assign: the state a wait's pass compares with
// the previous pass. Loop variables are left out: their loops zero them.
func (l *lower) snapVars() []string {
	names := map[string]bool{}
	for _, code := range []ir.Code{l.role.acquire, l.role.release, l.role.try} {
		ir.WalkStmts(code, func(s ir.Stmt) {
			switch s := s.(type) {
			case ir.While:
				assigned(s.Body, names)
			case ir.Repeat:
				assigned(s.Body, names)
			}
		})
	}
	var out []string
	for n := range names {
		v := l.a.LocalVar(n)
		if v == nil {
			continue
		}
		if v.Len == nil {
			out = append(out, l.local[n])
			continue
		}
		for i := 0; i < v.Len(l.pp()); i++ {
			out = append(out, fmt.Sprintf("%s[%d]", l.local[n], i))
		}
	}
	sort.Strings(out)
	return out
}

// snapDecls declares the snapshot locals of the current role.
func (l *lower) snapDecls() {
	if l.o.Checks&Quiescence == 0 {
		return
	}
	done := map[string]bool{}
	for _, v := range l.snapVars() {
		base, _, _ := strings.Cut(v, "[")
		if done[base] {
			continue
		}
		done[base] = true
		for _, lv := range l.a.Locals {
			if l.local[lv.Name] != base {
				continue
			}
			arr := ""
			if lv.Len != nil {
				arr = fmt.Sprintf("[%d]", lv.Len(l.pp()))
			}
			l.raw(fmt.Sprintf("\t%s %s%s;\t/* ghost: %s at the previous wait pass */", l.ptype(lv.Type), snapName(base), arr, base))
		}
	}
}

// snapName is the snapshot of a Promela local (or of one element).
func snapName(v string) string { return "lg_snap_" + v }
