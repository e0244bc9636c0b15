package golang

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"
)

// methods emits the public API around the operations: each method runs
// its operation's fast path inline (fast.go) between the misuse checks.
// The misuse checks use plain fields written inside the critical section:
// the lock itself orders them, so they cost no atomic operation, and the
// race detector reports an Unlock racing with a holder.
func (g *gen) methods(f *jen.File) error {
	type verb struct {
		name, op string // public name, operation
		release  bool
		reader   bool
	}
	// done is how an acquire that succeeds returns: TryLock's true,
	// LockContext's nil.
	done := func(op opInfo) []jen.Code {
		switch {
		case op.try:
			return []jen.Code{jen.Return(jen.True())}
		case op.ctx:
			return []jen.Code{jen.Return(jen.Nil())}
		}
		return nil
	}
	verbs := []verb{{name: "Lock", op: "Acquire"}, {name: "Unlock", op: "Release", release: true}}
	if g.c.TryLock {
		verbs = append(verbs, verb{name: "TryLock", op: "TryAcquire"})
	}
	if g.c.Mode.Readers() {
		verbs = append(verbs, verb{name: "RLock", op: "RAcquire", reader: true}, verb{name: "RUnlock", op: "RRelease", release: true, reader: true})
		if g.c.TryLock {
			verbs = append(verbs, verb{name: "TryRLock", op: "TryRAcquire", reader: true})
		}
	}
	if g.c.Context {
		// LockContext (context.go): the acquire with its abort code, on
		// the same fast path as Lock's.
		verbs = append(verbs, verb{name: "LockContext", op: ctxOp})
	}

	// Receiver, parameters, and the expression for the state pointer.
	var recv jen.Code
	var params []jen.Code
	var stPtr jen.Code
	switch g.api {
	case shape.Locker:
		recv = jen.Id("l").Op("*").Id(g.c.Name)
	case shape.IDs:
		recv = jen.Id("l").Op("*").Id(g.c.Name)
		params = []jen.Code{jen.Id("id").Int()}
		stPtr = jen.Id("l").Dot("proc").Call(jen.Id("id"))
	case shape.Handles:
		recv = jen.Id("h").Op("*").Id(g.handleType())
		stPtr = jen.Op("&").Id("h").Dot("st")
	case shape.CallerNodes:
		recv = jen.Id("l").Op("*").Id(g.c.Name)
		params = []jen.Code{jen.Id("nd").Op("*").Id(g.nodeType())}
		stPtr = jen.Op("&").Id("nd").Dot("st")
	}
	typeName := g.c.Name
	if g.api == shape.Handles {
		typeName = g.handleType()
	}

	if g.api.TakesIDs() {
		f.Line()
		f.Comment("proc returns process id's state, checking the id (small enough to inline).")
		f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id("proc").Params(jen.Id("id").Int()).Op("*").Id(g.stateType()).Block(
			jen.If(jen.Uint().Call(jen.Id("id")).Op(">=").Id(g.procsConst())).Block(jen.Id("badProcess").Call(jen.Lit(g.c.Name), jen.Id("id"), jen.Id(g.procsConst()))),
			jen.Return(jen.Op("&").Id("l").Dot("procs").Index(jen.Id("id")).Dot(g.stateType())))
	}

	for _, v := range verbs {
		op := g.opInfo(v.op)
		fast, conts, err := g.fastOp(op)
		if err != nil {
			return err
		}
		if check := g.releaseCheck(op.name); check != nil {
			// At no extra atomic step: the check reads what the release's
			// own fetch&add or exchange returned.
			fast = append(fast, jen.If(g.expr(check, "misuse")).Block(g.releaseMisusePanic(v.name, v.reader)))
		}
		// The operation inline: its locals, then its fast path, from which
		// a try that fails returns false at once; one that succeeds, like
		// any operation, comes out at its end.
		run := append(g.opLocals(fast), fast...)

		held := "held"
		if v.reader {
			held = "rheld"
		}
		msg := func(what string) jen.Code {
			if g.api.TakesIDs() {
				return jen.Lit(fmt.Sprintf("lockgen: %s.%s(", typeName, v.name)).Op("+").
					Qual("strconv", "Itoa").Call(jen.Id("id")).Op("+").Lit("): " + what)
			}
			return jen.Lit(fmt.Sprintf("lockgen: %s.%s: %s", typeName, v.name, what))
		}

		var body []jen.Code
		// A release that checks its misuse flag first needs no setup check:
		// the flag is set only by an acquire, which ran the setup. A
		// Locker's reader release has no flag, nor has a k-exclusion
		// Locker's release: its check reads registers the setup gives
		// their initial values (the zero value's S is 0, not k).
		flagged := v.release && !(g.api.HolderState() && v.reader) && !g.releaseMisuse()
		if g.api != shape.Handles && !flagged {
			body = append(body, g.setupCheck(jen.Id("l"))...)
		}
		switch {
		case g.api.HolderState() && v.reader:
			// Readers keep no state and, sharing the lock, no misuse flag;
			// the algorithm's own reader count may tell a release without
			// a reader (RReleaseMisuse, checked at the end of fast).
			body = append(body, g.stateVar(run)...)
			body = append(body, run...)
			body = append(body, done(op)...)
		case g.releaseMisuse():
			// No flag: the release's own check (ReleaseMisuse, at the end
			// of fast) tells a release without a holder.
			body = append(body, g.stateVar(run)...)
			body = append(body, run...)
			body = append(body, done(op)...)
		case g.api.HolderState():
			hasState := len(g.stateLocals) > 0
			if v.release {
				body = append(body,
					jen.If(jen.Op("!").Id("l").Dot("held")).Block(jen.Panic(msg("not locked"))),
					jen.Id("l").Dot("held").Op("=").False())
				if hasState {
					body = append(body, jen.Id("st").Op(":=").Id("l").Dot("holder"))
				} else {
					body = append(body, g.stateVar(run)...)
				}
				body = append(body, run...)
				break
			}
			if hasState {
				body = append(body, jen.Var().Id("st").Id(g.stateType()))
			} else {
				body = append(body, g.stateVar(run)...)
			}
			body = append(body, g.passageInit()...)
			body = append(body, run...)
			if hasState {
				body = append(body, jen.Id("l").Dot("holder").Op("=").Id("st"))
			}
			body = append(body, jen.Id("l").Dot("held").Op("=").True())
			body = append(body, done(op)...)
		default: // per-process state: ids, handles, caller nodes
			if g.api == shape.Handles {
				// A handle not made by NewHandle has no lock.
				body = append(body, jen.If(jen.Id("h").Dot("l").Op("==").Nil()).Block(
					jen.Panic(jen.Lit(fmt.Sprintf("lockgen: %s.%s: a handle must come from %s.NewHandle", typeName, v.name, g.c.Name)))))
			}
			if g.api == shape.CallerNodes {
				// A nil node would be dereferenced further down, with
				// the runtime's message instead of the lock's.
				body = append(body, jen.If(jen.Id("nd").Op("==").Nil()).Block(jen.Panic(msg("nil "+g.nodeType()))))
			}
			body = append(body, jen.Id("st").Op(":=").Add(stPtr))
			if g.api == shape.Handles && mentions(run, "l") {
				body = append(body, jen.Id("l").Op(":=").Id("h").Dot("l"))
			}
			if v.release {
				body = append(body,
					jen.If(jen.Op("!").Id("st").Dot(held)).Block(jen.Panic(msg("not held"))),
					jen.Id("st").Dot(held).Op("=").False())
				body = append(body, run...)
				break
			}
			holds := jen.Id("st").Dot("held")
			if g.c.Mode.Readers() {
				holds = holds.Op("||").Id("st").Dot("rheld")
			}
			body = append(body, jen.If(holds).Block(jen.Panic(msg("already holds the lock"))))
			body = append(body, run...)
			body = append(body, jen.Id("st").Dot(held).Op("=").True())
			body = append(body, done(op)...)
		}
		var results []jen.Code
		verbParams := params
		switch {
		case op.try:
			results = []jen.Code{jen.Bool()}
		case op.ctx:
			results = []jen.Code{jen.Error()}
			verbParams = append([]jen.Code{jen.Id("ctx").Qual("context", "Context")}, params...)
		}
		slow := lowerName(v.name) + "Slow"
		body, slowParams, rest, guarded := g.guarded(op, slow, body, conts)
		f.Line()
		f.Comment(g.verbDoc(v.name))
		f.Func().Params(recv).Id(v.name).Params(verbParams...).Params(results...).Block(body...)
		if guarded && rest != nil {
			doc := fmt.Sprintf("%s is %s from its first line, after the inline exchange found the lock taken.", slow, v.name)
			if v.release {
				doc = fmt.Sprintf("%s is the rest of %s after its exchange, which returned w: someone to wake, or misuse.", slow, v.name)
			}
			f.Line()
			f.Comment(doc)
			f.Func().Params(recv).Id(slow).Params(slowParams...).Params(results...).Block(rest...)
		}
		g.contFuncs(f, conts)
	}
	return nil
}

// opLocals declares what code, an operation lowered whole, uses of its
// locals: the id (0 where the lock has none) and the Step locals.
func (g *gen) opLocals(code []jen.Code) []jen.Code {
	var out []jen.Code
	if !g.api.TakesIDs() && mentions(code, "id") {
		out = append(out, jen.Id("id").Op(":=").Lit(0))
	}
	for _, l := range g.stepLocals() {
		if mentions(code, goIdent(l.Name)) {
			out = append(out, declareLocal(goIdent(l.Name), g.localType(l), code)...)
		}
	}
	return out
}

// stateVar declares a Lock()/Unlock() passage's state if code uses it.
func (g *gen) stateVar(code []jen.Code) []jen.Code {
	if !mentions(code, "st") {
		return nil
	}
	return []jen.Code{jen.Var().Id("st").Id(g.stateType())}
}

// declareLocal declares local id of type t for code; if code only assigns
// it (its reads are all out of line, in continuations that do not take it),
// it also marks it used, as Go requires.
func declareLocal(id string, t jen.Code, code []jen.Code) []jen.Code {
	out := []jen.Code{jen.Var().Id(id).Add(t)}
	if !readsLocal(code, id) {
		out = append(out, jen.Id("_").Op("=").Id(id).Comment("read only out of line"))
	}
	return out
}

// readsLocal reports whether code reads local id (mentions it other than
// as the target of an assignment).
func readsLocal(code []jen.Code, id string) bool {
	src := lineComment.ReplaceAllString(fmt.Sprintf("%#v", jen.Block(code...)), "")
	all := regexp.MustCompile(`(^|[^.\w])`+regexp.QuoteMeta(id)+`\b`).FindAllStringIndex(src, -1)
	assigned := regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(id)+`\s*=[^=]`).FindAllStringIndex(src, -1)
	return len(all) > len(assigned)
}

// mentions reports whether code uses identifier id (not as a field, not
// in a comment).
func mentions(code []jen.Code, id string) bool {
	src := lineComment.ReplaceAllString(fmt.Sprintf("%#v", jen.Block(code...)), "")
	return regexp.MustCompile(`(^|[^.\w])` + regexp.QuoteMeta(id) + `\b`).MatchString(src)
}

var lineComment = regexp.MustCompile(`//[^\n]*`)

// opInfo returns an operation of the lock as a statement tree.
func (g *gen) opInfo(name string) opInfo {
	return opInfo{name: name, nodes: g.trees[name], try: name == "TryAcquire" || name == "TryRAcquire", ctx: name == ctxOp}
}

// opCode returns an operation's code.
func (g *gen) opCode(name string) ir.Code {
	for _, op := range g.a.Ops() {
		if op.Name == name {
			return op.Code
		}
	}
	return nil
}

func (g *gen) verbDoc(name string) string {
	if name == "LockContext" {
		return g.contextDoc()
	}
	w := map[string]string{
		"Lock":     "Lock acquires the lock, waiting (%s) until it is free.",
		"Unlock":   "Unlock releases the lock. It panics if the caller does not hold it.",
		"TryLock":  "TryLock acquires the lock if it can do so without waiting, and reports whether it did.",
		"RLock":    "RLock acquires the lock for reading, waiting (%s) while a writer holds or is owed it.",
		"RUnlock":  "RUnlock releases a read hold.",
		"TryRLock": "TryRLock acquires the lock for reading if it can do so without waiting, and reports whether it did.",
	}[name]
	if strings.Contains(w, "%s") {
		w = fmt.Sprintf(w, g.waitDesc())
	}
	if name == "TryLock" && g.c.Entry.TryLockDoc != "" {
		w = g.c.Entry.TryLockDoc
	}
	switch {
	case g.api.TakesIDs():
		w += " id identifies the calling process, 0 <= id < " + g.procsConst() + "; two goroutines must never use the same id at once."
	case g.api == shape.CallerNodes:
		w += " nd is the caller's node; pass the same node to the matching release."
	case g.api.HolderState() && name == "Unlock":
		w += " As with sync.Mutex, a lock is not tied to a goroutine: another goroutine may unlock it."
	case g.api.HolderState() && name == "RUnlock":
		w += " An RUnlock without a matching RLock is not detected."
	}
	return w
}

func (g *gen) waitDesc() string { return g.c.Wait.Describe(g.c.Spin) }

// typeDoc is the lock's doc comment: what it is, where it comes from, what
// it guarantees, the algorithm with the paper's labels, and how it was
// generated.
func (g *gen) typeDoc() string {
	e := g.c.Entry
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s: %s.\n", g.c.Name, g.c.Mode.Describe(g.c.Params.K, string(g.c.Preference)), e.Title)
	if e.Incorrect != "" {
		fmt.Fprintf(&b, "\nWARNING: this algorithm is known to be incorrect: %s It was generated on explicit request (allow_incorrect) as a negative control.\n", e.Incorrect)
	}
	b.WriteString("\nSource:\n")
	for _, r := range e.Refs {
		fmt.Fprintf(&b, "  - %s\n", r)
	}
	p := g.props()
	b.WriteString("\nProperties claimed by the paper:\n")
	fmt.Fprintf(&b, "  - liveness: %s\n  - fairness: %s\n  - exit code: %s\n", p.Liveness, p.Fairness, p.Exit)
	space := p.SpaceChecked("lockgen explain " + e.Name + " says why")
	fmt.Fprintf(&b, "  - RMR complexity: %s (CC), %s (DSM)\n  - space: %s\n", p.RMRCC, p.RMRDSM, space)
	fmt.Fprintf(&b, "  - instructions: %s\n  - identity: %s\n", strings.Join(p.Instructions, ", "), p.Identity)
	if g.c.Mode.TakesK() && p.Crashes != "" {
		fmt.Fprintf(&b, "  - crashes: %s\n", p.Crashes)
	}

	b.WriteString("\nAlgorithm (line labels are the paper's; every shared access is one atomic step):\n\n")
	for _, op := range g.a.Ops() {
		if !g.wants(op.Name) {
			continue
		}
		fmt.Fprintf(&b, "\t%s:\n", opTitle[op.Name])
		for _, line := range ir.Listing(op.Code) {
			fmt.Fprintf(&b, "\t  %s\n", strings.TrimRight(line, " "))
		}
	}
	devs := e.Deviations
	if g.recIDs != nil {
		devs = append(slices.Clip(devs), idDeviation)
	}
	if len(devs) > 0 {
		b.WriteString("\nDeviations from the paper:\n")
		for _, d := range devs {
			fmt.Fprintf(&b, "  - %s\n", d)
		}
	}
	b.WriteString("\nGenerated for this spec:\n\n")
	for _, line := range strings.Split(strings.TrimRight(g.c.SpecEcho, "\n"), "\n") {
		fmt.Fprintf(&b, "\t%s\n", line)
	}
	b.WriteString("\n" + g.usage())
	return strings.TrimRight(b.String(), "\n")
}

var opTitle = map[string]string{
	"Acquire": "acquire", "Release": "release", "TryAcquire": "try-acquire", ctxOp: "LockContext's acquire",
	"RAcquire": "reader acquire", "RRelease": "reader release", "TryRAcquire": "reader try-acquire",
}

func (g *gen) usage() string {
	var u string
	switch g.api {
	case shape.Locker:
		u = fmt.Sprintf("Use New%s; a *%s is a sync.Locker.", g.c.Name, g.c.Name)
		switch g.c.Nodes {
		case nodes.Heap:
			u += " Each passage allocates its queue node (nodes = \"heap\")."
		case nodes.Pool:
			u += " Queue nodes come from a sync.Pool (nodes = \"pool\")."
		}
	case shape.IDs:
		u = fmt.Sprintf("Use New%s; process id (0 <= id < %s) calls Lock(id) and Unlock(id).", g.c.Name, g.procsConst())
	case shape.Handles:
		u = fmt.Sprintf("Use New%s, then one NewHandle per goroutine; a *%s is a sync.Locker.", g.c.Name, g.handleType())
	case shape.CallerNodes:
		u = fmt.Sprintf("Use New%s; callers pass their own %s to Lock and Unlock.", g.c.Name, g.nodeType())
	}
	switch g.api {
	case shape.Handles:
		u += fmt.Sprintf(" The zero %s is ready to use; handles must come from NewHandle.", g.c.Name)
	default:
		u += " The zero value is ready to use, like sync.Mutex's."
	}
	u += fmt.Sprintf(" Waiting: %s.", g.waitDesc())
	for _, note := range append(g.guardNotes(), g.fusionNotes()...) {
		u += " In Go, " + note + "."
	}
	if g.c.Padding > 0 {
		u += fmt.Sprintf(" Hot registers are padded to %d bytes.", g.c.Padding)
	}
	return u
}

// releaseCheck is the misuse test a Locker's release op makes after its
// steps, on what they returned (nil: none): a reader's release, when the
// algorithm can tell (RReleaseMisuse), and a k-exclusion release
// (ReleaseMisuse).
func (g *gen) releaseCheck(op string) ir.Expr {
	switch {
	case !g.api.HolderState():
		return nil
	case op == "RRelease":
		return g.a.RReleaseMisuse
	case op == "Release" && g.releaseMisuse():
		return g.a.ReleaseMisuse
	}
	return nil
}

// releaseMisusePanic is a Locker's panic when its release's own check
// (releaseCheck) finds no holder.
func (g *gen) releaseMisusePanic(verb string, reader bool) jen.Code {
	what := "not locked"
	switch {
	case reader:
		what = "not read-locked (the lock's reader count is now wrong, as after sync.RWMutex's fatal error)"
	case g.c.Params.K > 1:
		what = "not held (the lock's count of free places is now wrong, as after semaphore.Weighted's panic on releasing more than held)"
	}
	return jen.Panic(jen.Lit(fmt.Sprintf("lockgen: %s.%s: %s", g.c.Name, verb, what)))
}

// releaseMisuse reports whether a Locker's release tells misuse from the
// algorithm's registers (Algorithm.ReleaseMisuse; checkShape requires it
// for k-exclusion) rather than from a flag: a k-exclusion lock's holders
// share the lock, and a count of them would cost every passage two atomic
// steps on a word they all write; a mutex's flag costs a plain write each
// way, more than a guarded fast path's budget has left (guard.go).
func (g *gen) releaseMisuse() bool {
	return g.api.HolderState() && g.a.ReleaseMisuse != nil
}

// API is what a lock's generated code exports, as the code that uses it
// calls it: two locks with equal APIs stand in for each other in a
// user's package (lockgen tune lays one over the other).
type API struct {
	Shape   shape.Shape // how a process names itself
	Mode    mode.Mode   // RLock and RUnlock with readers; the K constant with k
	TryLock bool
	Procs   int // the value of the exported Procs constant; 0 when there is none
	K       int // the value of the exported K constant; 0 when there is none
}

// APIOf is the API the lock c configures exports.
func APIOf(c Config) API {
	a := API{Mode: c.Mode.Or(mode.Mutex), TryLock: c.TryLock}
	a.Shape = c.Entry.Shape(c.Nodes)
	if a.Shape.TakesIDs() || c.Params.N > 0 {
		a.Procs = c.Params.N
	}
	if c.Mode.TakesK() {
		a.K = c.Params.K
	}
	return a
}

// String describes the API for a message.
func (a API) String() string {
	s := a.Shape.Name()
	if a.Mode.Readers() {
		s += " with RLock"
	}
	if a.TryLock {
		s += ", TryLock"
	}
	if a.Procs > 0 {
		s += fmt.Sprintf(", %d processes", a.Procs)
	}
	if a.K > 0 {
		s += fmt.Sprintf(", k = %d", a.K)
	}
	return s
}
