package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Network lowers a message-passing algorithm (ir.Algorithm with Messages)
// to a Promela model. Each process is two Promela processes: Proc runs the
// request and release routines (Requests passages, each a reader's or a
// writer's as SPIN chooses), Handler receives the process's messages and
// runs their handlers. A handler run is one atomic step; so is a routine's
// code between its awaits. Messages travel in one inbox per process; the
// receiver takes the oldest message of any one sender (FIFO channels) or
// any message at all (NetOptions.Reorder).
//
// The model asserts the lock's invariant on every entry (reader/writer
// exclusion; one holder for a mutex); a routine blocked for ever is an
// invalid end state; the LTL claim "starvation" (NetOptions.Liveness) says
// every process finishes all its passages (under weak fairness: nothing
// starves, no request wanders for ever).
type NetOptions struct {
	N        int
	Requests int // passages per process
	// Reorder lets a process receive its messages in any order; otherwise
	// the messages from one sender arrive in the order they were sent.
	Reorder bool
	// ResumeLater lets a process handle more messages between the handler
	// that enables its waiting routine and the routine's next step. By
	// default the routine resumes first (see distributed.Properties.Steps).
	ResumeLater bool
	// Capacity bounds the messages in flight to one process (an assertion
	// says when a model needs more); 0 means n per message type, at
	// least 2n.
	Capacity int
	// WritersOnly lets SPIN choose only the writer's passages
	// (Acquire/Release); by default it chooses a reader's or a writer's.
	WritersOnly bool
	// Liveness adds the LTL claim "starvation" (a model with a claim has
	// its invalid end states unchecked, so safety searches leave it out).
	Liveness bool
	// FCFS adds the FCFS assertions (the algorithm's Joins say where a
	// request joins its order): no process enters while a conflicting
	// request (a writer's, or any in a mutex) that joined before it still
	// waits.
	FCFS bool
	// Stabilize, when set, makes the model check self-stabilization (see
	// Stabilize).
	Stabilize *Stabilize
}

// Stabilize describes a self-stabilization check: the locals Arbitrary
// start anywhere in 0..Values−1 in every process (before the start
// runs), and the LTL claim "stabilization" says that eventually and for
// ever exactly one token exists: a process where Privileged holds, or a
// message in flight. Run it with no passages (Requests = 0): before it
// converges the lock may admit two processes, which is what the claim
// is about.
type Stabilize struct {
	Arbitrary  []string
	Values     int
	Privileged ir.Expr
}

// Network returns the model text.
func Network(a *ir.Algorithm, o NetOptions) (string, error) {
	if !a.MessagePassing() {
		return "", fmt.Errorf("%s is not a message-passing algorithm", a.Name)
	}
	if err := ir.Check(a); err != nil {
		return "", err
	}
	if o.N < 2 || o.N > 8 || o.Requests < 1 && o.Stabilize == nil || o.Requests < 0 {
		return "", fmt.Errorf("network model: n = %d, %d requests (n in 2..8, at least one request unless it checks stabilization)", o.N, o.Requests)
	}
	if st := o.Stabilize; st != nil {
		if st.Values < 1 || st.Privileged == nil {
			return "", fmt.Errorf("network model: a stabilization check needs values and a privilege")
		}
		for _, name := range st.Arbitrary {
			if l := a.LocalVar(name); l == nil || l.Len != nil {
				return "", fmt.Errorf("network model: %q is not a scalar local of %s", name, a.Name)
			}
		}
	}
	if o.Capacity == 0 {
		o.Capacity = max(2, len(a.Messages)) * o.N
	}
	if o.FCFS && len(a.Joins) == 0 {
		return "", fmt.Errorf("%s: FCFS asked, but the algorithm marks no Joins", a.Name)
	}
	rw := a.RAcquire != nil && !o.WritersOnly
	w := &netWriter{a: a, o: o, par: ir.Params{N: o.N, K: 1}}
	return w.model(rw)
}

type netWriter struct {
	a     *ir.Algorithm
	o     NetOptions
	par   ir.Params
	b     strings.Builder
	ind   int
	op    string            // the routine or handler being written, for markers
	waits []ir.Await        // every await of the routines, numbered from 1
	args  int               // argument words in a message slot (at least 1)
	env   map[string]string // handler parameters → Promela locals
	// arrays are the handler's array parameters (ir.Message.Params with
	// Len): Promela arrays of N indexed directly.
	arrays map[string]bool
	// self, when set, is the process that expressions read the state of
	// (exprAt); otherwise the running process, self.
	self string
	err  error
}

func (w *netWriter) line(s string) {
	w.b.WriteString(strings.Repeat("\t", w.ind) + s + "\n")
}

// stmtLine writes a statement's line with the marker the SPIN driver maps
// trail steps to paper lines with.
func (w *netWriter) stmtLine(s string, st ir.Stmt, text string) {
	w.line(s + "\t/*@ " + marker(w.op, st.Label(), text) + " */")
}

// netNames are the names the network model declares itself.
var netNames = map[string]bool{"N": true, "CAP": true, "Slot": true, "Inbox": true, "inbox": true,
	"Handler": true, "self": true, "passages": true}

// pvar is a definition's name as a Promela identifier: a Promela keyword
// or a name of the model's own (reserved, netNames) gets a trailing _.
func pvar(name string) string {
	id := ident(name)
	if reserved[id] || netNames[id] || strings.HasPrefix(id, "g_") || strings.HasPrefix(id, "lg_") {
		return id + "_"
	}
	return id
}

func (w *netWriter) ptype(t ir.Type) string {
	if t.Kind == ir.Bool {
		return "bool"
	}
	return "short"
}

func (w *netWriter) model(rw bool) (string, error) {
	a, o := w.a, w.o
	order := "FIFO channels (one sender's messages arrive in order)"
	if o.Reorder {
		order = "channels that reorder messages"
	}
	resume := "a routine resumes before its process handles another message"
	if o.ResumeLater {
		resume = "a process may handle messages before its enabled routine resumes"
	}
	w.line(fmt.Sprintf("/* lockgen model of %s (message passing): n = %d, %d passages per process, %s; %s. */", a.Name, o.N, o.Requests, order, resume))
	w.line("/* Generated from the algorithm's IR definition: do not edit. */")
	w.line(fmt.Sprintf("#define N %d", o.N))
	w.line(fmt.Sprintf("#define CAP %d", o.Capacity))
	var names []string
	w.args = 1
	for _, m := range a.Messages {
		names = append(names, "m_"+ident(m.Name))
		w.args = max(w.args, m.Width(w.par))
	}
	w.line("mtype = { " + strings.Join(names, ", ") + " };")
	w.line(fmt.Sprintf("typedef Slot { mtype kind; byte from; short arg[%d] };", w.args))
	w.line("typedef Inbox { Slot s[CAP]; byte n };")
	w.line("Inbox inbox[N];")
	w.line("")
	w.line("/* each process's state */")
	for _, l := range a.Locals {
		if l.Scope != ir.Process {
			continue
		}
		if l.Len != nil {
			w.line(fmt.Sprintf("%s %s[N*N];\t/* %s (process p's element j at p*N + j) */", w.ptype(l.Type), pvar(l.Name), l.Doc))
			continue
		}
		w.line(fmt.Sprintf("%s %s[N];\t/* %s */", w.ptype(l.Type), pvar(l.Name), l.Doc))
	}
	w.line("")
	w.line("/* ghost state for the checks */")
	w.line("byte g_readers;\t/* readers in the critical section */")
	w.line("byte g_writers;\t/* writers in the critical section */")
	w.line("byte g_done;\t/* processes that finished all their passages */")
	w.line("byte g_wait[N];\t/* the await a process's routine stands at (0: none) */")
	w.line("bool g_resume[N];\t/* a handler enabled it: the routine goes first */")
	if o.FCFS {
		w.line("bool g_inlist[N];\t/* FCFS: the process's request is in the order (until its release ends) */")
		w.line("bool g_entered[N];\t/* FCFS: ... and has entered */")
		w.line("short g_key[N];\t/* FCFS: its place in the order */")
		w.line("short g_after[N];\t/* FCFS: the request queued right behind it, in the list or in its segment */")
		w.line("bool g_writer[N];\t/* FCFS: its request is a writer's */")
		w.line("short g_joins;\t/* FCFS: places given so far */")
		w.line("short lg_c;\t/* FCFS: walks a segment as it joins */")
	}
	w.line("")
	if o.Liveness {
		w.line(fmt.Sprintf("ltl %s { <> (g_done == N) }", ClaimStarvation))
		w.line("")
	}
	if st := o.Stabilize; st != nil {
		var tokens []string
		for p := 0; p < o.N; p++ {
			tokens = append(tokens, fmt.Sprintf("inbox[%d].n", p), w.exprAt(st.Privileged, p))
		}
		w.line(fmt.Sprintf("ltl %s { <> [] (%s == 1) }", ClaimStabilization, strings.Join(tokens, " + ")))
		w.line("")
	}
	for _, c := range a.Ops() {
		ir.WalkStmts(c.Code, func(s ir.Stmt) {
			if aw, ok := s.(ir.Await); ok {
				w.waits = append(w.waits, aw)
			}
		})
	}
	w.handler()
	w.proc(rw)
	w.init()
	return w.b.String(), w.err
}

func (w *netWriter) handler() {
	a, o := w.a, w.o
	w.line("proctype Handler(byte self) {")
	w.ind++
	w.env = map[string]string{}
	var resets []string // the parameters, cleared after each message
	w.arrays = map[string]bool{}
	for _, m := range a.Messages {
		for _, p := range m.Params {
			if _, declared := w.env[p.Name]; !declared && p.Len != nil {
				w.line(fmt.Sprintf("%s %s[N];\t/* a parameter of %s */", w.ptype(p.Type), pvar(p.Name), m.Name))
				for k := range o.N {
					resets = append(resets, fmt.Sprintf("%s[%d] = 0", pvar(p.Name), k))
				}
				w.arrays[p.Name] = true
			} else if !declared {
				w.line(fmt.Sprintf("%s %s;\t/* a parameter of %s */", w.ptype(p.Type), pvar(p.Name), m.Name))
				resets = append(resets, pvar(p.Name)+" = 0")
			}
			w.env[p.Name] = pvar(p.Name)
		}
	}
	w.loopVars()
	w.line("mtype lg_kind; byte lg_j; byte lg_k;")
	w.line("short lg_to;")
	w.ind--
	w.line("end:")
	w.ind++
	w.line("do")
	w.line(":: atomic { (inbox[self].n > 0 && !g_resume[self]) ->")
	w.ind++
	w.line("if")
	for j := 0; j < o.Capacity; j++ {
		cond := fmt.Sprintf("inbox[self].n > %d", j)
		if !o.Reorder {
			for i := 0; i < j; i++ {
				cond += fmt.Sprintf(" && inbox[self].s[%d].from != inbox[self].s[%d].from", i, j)
			}
		}
		w.line(fmt.Sprintf(":: %s -> lg_j = %d", cond, j))
	}
	w.line("fi;")
	w.line("lg_kind = inbox[self].s[lg_j].kind;")
	w.line("if")
	for _, m := range a.Messages {
		var sets []string
		for i, p := range m.Params {
			off := m.Offset(i, w.par)
			if p.Len == nil {
				sets = append(sets, fmt.Sprintf("%s = inbox[self].s[lg_j].arg[%d]", pvar(p.Name), off))
				continue
			}
			for k := range o.N {
				sets = append(sets, fmt.Sprintf("%s[%d] = inbox[self].s[lg_j].arg[%d]", pvar(p.Name), k, off+k))
			}
		}
		w.line(fmt.Sprintf(":: lg_kind == m_%s -> %s", ident(m.Name), strings.Join(append(sets, "skip"), "; ")))
	}
	w.line("fi;")
	w.line("/* take the message out, keeping the inbox in arrival order */")
	w.line("lg_k = lg_j;")
	w.line("do")
	w.line(":: lg_k + 1 < inbox[self].n -> inbox[self].s[lg_k].kind = inbox[self].s[lg_k+1].kind; inbox[self].s[lg_k].from = inbox[self].s[lg_k+1].from;")
	var shift []string
	for i := range w.args {
		shift = append(shift, fmt.Sprintf("inbox[self].s[lg_k].arg[%d] = inbox[self].s[lg_k+1].arg[%d]", i, i))
	}
	w.line("\t" + strings.Join(shift, "; ") + "; lg_k++")
	w.line(":: else -> break")
	w.line("od;")
	w.line("inbox[self].n--;")
	clear := []string{"inbox[self].s[lg_k].kind = 0", "inbox[self].s[lg_k].from = 0"}
	for i := range w.args {
		clear = append(clear, fmt.Sprintf("inbox[self].s[lg_k].arg[%d] = 0", i))
	}
	w.line(strings.Join(clear, "; ") + ";")
	w.line("if")
	for _, h := range a.Handlers {
		w.op = "on " + h.Msg
		w.line(fmt.Sprintf(":: lg_kind == m_%s ->", ident(h.Msg)))
		w.ind++
		w.code(h.Code)
		w.line("skip")
		w.ind--
	}
	w.line("fi;")
	if !o.ResumeLater && len(w.waits) > 0 {
		var enabled []string
		for i, aw := range w.waits {
			enabled = append(enabled, fmt.Sprintf("(g_wait[self] == %d && (%s))", i+1, w.expr(aw.Cond)))
		}
		w.line("g_resume[self] = " + strings.Join(enabled, " || ") + ";")
	}
	w.line(strings.Join(append(resets, "lg_kind = 0", "lg_j = 0", "lg_k = 0", "lg_to = 0"), "; "))
	w.ind--
	w.line("}")
	w.line("od")
	w.ind--
	w.line("}")
	w.line("")
	w.env = nil
}

func (w *netWriter) proc(rw bool) {
	a, o := w.a, w.o
	w.line("proctype Proc(byte self) {")
	w.ind++
	w.loopVars()
	w.line("byte passages;")
	w.line("short lg_to;")
	w.line("do")
	w.line(fmt.Sprintf(":: passages < %d ->", o.Requests))
	w.ind++
	w.line("passages++;")
	w.line("if")
	passage := func(acq, rel ir.Code, acqName, relName, enter, leave string) {
		w.line(":: true ->")
		w.ind++
		w.op = acqName
		w.line("atomic {")
		w.ind++
		if o.FCFS {
			w.line(fmt.Sprintf("g_writer[self] = %v;", acqName == "Acquire"))
		}
		w.code(acq)
		w.line(enter)
		w.ind--
		w.line("}")
		w.op = relName
		w.line("atomic {")
		w.ind++
		w.line(leave)
		w.code(rel)
		if o.FCFS {
			w.line("g_inlist[self] = false; g_entered[self] = false; g_after[self] = -1;\t/* FCFS: leaves the order */")
		}
		w.line("skip")
		w.ind--
		w.line("}")
		w.ind--
	}
	fcfs := func(writer bool) string {
		if !o.FCFS {
			return ""
		}
		conds := []string{"g_inlist[self]"}
		for q := 0; q < o.N; q++ {
			conflict := fmt.Sprintf("g_writer[%d]", q)
			if writer || !rw {
				conflict = "true"
			}
			conds = append(conds, fmt.Sprintf("!(%d != self && g_inlist[%d] && !g_entered[%d] && g_key[%d] < g_key[self] && %s)", q, q, q, q, conflict))
		}
		return "; assert(" + strings.Join(conds, " && ") + "); g_entered[self] = true"
	}
	if rw {
		passage(a.RAcquire, a.RRelease, "RAcquire", "RRelease",
			"assert(g_writers == 0); g_readers++"+fcfs(false), "g_readers--;")
	}
	passage(a.Acquire, a.Release, "Acquire", "Release",
		"assert(g_writers == 0 && g_readers == 0); g_writers++"+fcfs(true), "g_writers--;")
	w.line("fi")
	w.ind--
	w.line(fmt.Sprintf(":: passages == %d -> break", o.Requests))
	w.line("od;")
	w.line("g_done++")
	w.ind--
	w.line("}")
	w.line("")
}

func (w *netWriter) init() {
	w.line("init {")
	w.ind++
	if w.a.Start != nil {
		// The start's sends leave from each process in turn, before any
		// process runs: the messages the network starts with.
		w.line("byte self;")
		w.line("short lg_to;")
		w.loopVars()
	}
	w.line("atomic {")
	w.ind++
	for _, l := range w.a.Locals {
		if l.Scope != ir.Process {
			continue
		}
		for p := 0; p < w.o.N; p++ {
			v, err := l.InitialValue(w.par, p)
			if err != nil {
				w.err = err
			}
			switch {
			case v == 0:
			case l.Len != nil:
				for j := 0; j < w.o.N; j++ {
					w.line(fmt.Sprintf("%s[%d] = %d;", pvar(l.Name), p*w.o.N+j, v))
				}
			default:
				w.line(fmt.Sprintf("%s[%d] = %d;", pvar(l.Name), p, v))
			}
		}
	}
	if w.o.FCFS {
		for p := 0; p < w.o.N; p++ {
			w.line(fmt.Sprintf("g_after[%d] = -1;", p))
		}
	}
	if st := w.o.Stabilize; st != nil {
		// Anywhere: every value of every arbitrary local.
		for p := 0; p < w.o.N; p++ {
			for _, name := range st.Arbitrary {
				var alts []string
				for v := 0; v < st.Values; v++ {
					alts = append(alts, fmt.Sprintf(":: %s[%d] = %d", pvar(name), p, v))
				}
				w.line("if " + strings.Join(alts, " ") + " fi;")
			}
		}
	}
	if w.a.Start != nil {
		w.op = "start"
		for p := 0; p < w.o.N; p++ {
			w.line(fmt.Sprintf("self = %d;", p))
			w.code(w.a.Start)
		}
	}
	for p := 0; p < w.o.N; p++ {
		w.line(fmt.Sprintf("run Handler(%d); run Proc(%d);", p, p))
	}
	w.ind--
	w.line("}")
	w.ind--
	w.line("}")
}
