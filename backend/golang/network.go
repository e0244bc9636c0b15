package golang

import (
	"fmt"
	"go/format"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/templates/distributed"
)

// The Go lowering of message-passing algorithms (templates/distributed):
// one process's lock over a Transport. The algorithm becomes the lock
// type's state struct, one method per routine and per handler, and the
// await conditions; netrt (copied beside it) supplies the rest.

// NetConfig is everything the backend needs to emit one distributed lock.
type NetConfig struct {
	Name     string // exported type name
	Package  string
	Entry    *distributed.Entry
	Alg      *ir.Algorithm // the definition to lower (Entry's, or a control's)
	SpecPath string
	SpecHash string
	Command  string
	SpecEcho string
}

// NetRuntimeFile is the name of the distributed locks' runtime in a
// generated package.
const NetRuntimeFile = "lockgen_net.go"

// NetRuntime returns netrt.go for package pkg.
func NetRuntime(pkg string) (File, error) { return NetRuntimeControl(pkg, "") }

// NetRuntimeControl is NetRuntime with a negative control planted (see
// RuntimeControl): "resume-later" lets the dispatcher handle the next
// message before the routine a handler enabled has run.
func NetRuntimeControl(pkg, control string) (File, error) {
	src, err := runtimeFS.ReadFile("netrt/netrt.go")
	if err != nil {
		return File{}, err
	}
	if control != "" {
		var n int
		if src, n = plant(src, control); n == 0 {
			return File{}, fmt.Errorf("netrt has no line marked for control %q", control)
		}
	}
	clause := netrtClause.FindIndex(src)
	if clause == nil {
		return File{}, fmt.Errorf("netrt.go: no package clause")
	}
	text := Header{Version: RecordedVersion(), Runtime: "backend/golang/netrt"}.Text() + "\n" +
		string(src[:clause[0]]) + "package " + pkg + string(src[clause[1]:])
	data, err := format.Source([]byte(text))
	if err != nil {
		return File{}, err
	}
	return File{Name: NetRuntimeFile, Data: data}, nil
}

type netGen struct {
	c      NetConfig
	a      *ir.Algorithm
	low    string         // prefix of the lock's unexported names
	awaits map[string]int // await label -> id (from 1)
	params map[string]bool
	err    error
}

// NetworkLock lowers a message-passing lock to its Go file.
func NetworkLock(c NetConfig) (File, error) {
	a := c.Alg
	if a == nil {
		a = c.Entry.Def()
	}
	if err := ir.Check(a); err != nil {
		return File{}, err
	}
	if !a.MessagePassing() {
		return File{}, fmt.Errorf("%s is not a message-passing algorithm", a.Name)
	}
	g := &netGen{c: c, a: a, low: strings.ToLower(c.Name[:1]) + c.Name[1:], awaits: map[string]int{}}
	for _, op := range a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			if _, ok := s.(ir.Await); ok {
				g.awaits[s.Label()] = len(g.awaits) + 1
			}
		})
	}
	f := jen.NewFile(c.Package)
	f.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))
	g.decls(f)
	g.api(f)
	g.routines(f)
	g.handlers(f)
	if g.err != nil {
		return File{}, g.err
	}
	data, err := render(f)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	return File{Name: FileBase(c.Name) + ".go", Data: data}, nil
}

func (g *netGen) readers() bool { return g.a.RAcquire != nil }

func (g *netGen) kind(msg string) string { return g.low + "Msg" + msg }

// constName names a paper constant as the paper spells it (dCREWREADER).
func (g *netGen) constName(name string) string {
	if token.IsIdentifier(name) {
		return g.low + name
	}
	return g.low + exportName(goIdent(name))
}

func (g *netGen) decls(f *jen.File) {
	var kinds []jen.Code
	for i, m := range g.a.Messages {
		kinds = append(kinds, jen.Comment(m.Name+": "+m.Doc), jen.Id(g.kind(m.Name)).Op("=").Lit(int64(i+1)))
	}
	f.Comment("The message kinds of " + g.c.Name + " (the first word of every message).")
	f.Const().Defs(kinds...)
	f.Line()
	var named []jen.Code
	seen := map[string]bool{}
	visit := func(e ir.Expr) {
		ir.WalkExpr(e, func(x ir.Expr) {
			if k, ok := x.(ir.Const); ok && k.Name != "" && !seen[k.Name] {
				seen[k.Name] = true
				named = append(named, jen.Id(g.constName(k.Name)).Op("=").Lit(int(k.V)))
			}
		})
	}
	for _, b := range g.a.Bodies() {
		ir.WalkStmts(b.Code, func(s ir.Stmt) {
			for _, e := range ir.StmtExprs(s) {
				visit(e)
			}
		})
	}
	for _, l := range g.a.Locals {
		if l.InitSelf != nil {
			visit(l.InitSelf)
		}
	}
	if len(named) > 0 {
		f.Comment("The paper's named values.")
		f.Const().Defs(named...)
		f.Line()
	}
	docLines(f, g.doc())
	f.Type().Id(g.c.Name).Struct(
		jen.Id("netProc"),
		jen.Id("s").Id(g.low+"State"),
	)
	f.Line()
	var fields []jen.Code
	for _, l := range g.a.Locals {
		t := jen.Int64()
		if l.Type == ir.TBool {
			t = jen.Bool()
		}
		if l.Len != nil {
			t = jen.Index().Add(t)
		}
		fields = append(fields, jen.Id(l.Name).Add(t).Comment(l.Doc))
	}
	f.Comment(fmt.Sprintf("%sState is one process's state, named as in the paper.", g.low))
	f.Type().Id(g.low + "State").Struct(fields...)
	f.Line()
	// reset: each process's initial state, for the epoch's self and n.
	var init, fill []jen.Code
	for _, l := range g.a.Locals {
		t := jen.Int64()
		if l.Type == ir.TBool {
			t = jen.Bool()
		}
		switch {
		case l.Len != nil:
			// One element per process (ir.Check), each starting at InitSelf.
			init = append(init, jen.Id(l.Name).Op(":").Make(jen.Index().Add(t), jen.Id("l").Dot("n")))
			if l.InitSelf != nil {
				fill = append(fill, jen.For(jen.Id("j").Op(":=").Range().Id("l").Dot("s").Dot(l.Name)).Block(
					jen.Id("l").Dot("s").Dot(l.Name).Index(jen.Id("j")).Op("=").Add(g.expr(l.InitSelf)),
				))
			}
		case l.InitSelf != nil:
			init = append(init, jen.Id(l.Name).Op(":").Add(g.expr(l.InitSelf)))
		}
	}
	f.Comment(fmt.Sprintf("New%s returns process self's lock (0 <= self < n) of the n processes that share it,", g.c.Name))
	f.Comment("sending and receiving over tr. Every process runs one, all with the same n. Over a")
	f.Comment("transport that keeps a group (a Group: lockgen's natstransport), it first joins the group,")
	f.Comment("which refuses another n, another algorithm or an id a live process holds.")
	f.Func().Id("New"+g.c.Name).Params(jen.List(jen.Id("self"), jen.Id("n")).Int(), jen.Id("tr").Id("Transport"), jen.Id("opts").Op("...").Id("Option")).
		Params(jen.Op("*").Id(g.c.Name), jen.Error()).Block(
		jen.Id("l").Op(":=").Op("&").Id(g.c.Name).Values(),
		jen.If(jen.Err().Op(":=").Id("l").Dot("start").Call(jen.Id("self"), jen.Id("n"), jen.Id("tr"), jen.Id("l"), jen.Lit(g.c.Name), jen.Lit(g.c.Entry.Name), jen.Id("opts")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("l"), jen.Nil()),
	)
	f.Comment("reset makes the state the initial one of process self of n (the epoch's index and member")
	f.Comment("count): where a process starts in the paper, for a new epoch as at the start.")
	f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id("reset").Params().Block(
		append([]jen.Code{jen.Id("l").Dot("s").Op("=").Id(g.low + "State").Values(init...)}, fill...)...,
	)
}

func (g *netGen) doc() string {
	e := g.c.Entry
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s, for one process of a distributed system.\n\n", g.c.Name, e.Title)
	for _, r := range e.Refs {
		fmt.Fprintf(&b, "Source: %s.\n", r.String())
	}
	b.WriteString("\nEach process creates its own with New" + g.c.Name + " and a Transport to the others, and runs\n")
	b.WriteString("one passage at a time: a lock is held by its process, not by a goroutine (Lock while the\n")
	b.WriteString("process is in a passage panics; share the lock between goroutines with a sync.Mutex).\n")
	b.WriteString("Lock and RLock block until granted and panic if the lock fails; LockContext and RLockContext\n")
	b.WriteString("return that error instead, or the context's: a request already sent cannot be recalled, so an\n")
	b.WriteString("abandoned passage enters when its turn comes and leaves at once. Fence is the passage's\n")
	b.WriteString("fencing token; Unlock returns the failure that ended a passage; Done and Err report a lock\n")
	b.WriteString("that failed for good; Close leaves.\n\n")
	b.WriteString("Failures (lockgen's docs/distributed.md): over a transport that keeps a group (natstransport),\n")
	b.WriteString("a process that crashes, pauses past its lease or restarts is removed once its lease is over,\n")
	b.WriteString("and the others start the algorithm again from its initial state in a new epoch of the members\n")
	b.WriteString("left, indexed by id. A request in flight then returns ErrEpochChanged (Lock, and\n")
	b.WriteString("RetryAcrossEpochs, ask again); a passage that holds the lock keeps it until Unlock, and the\n")
	b.WriteString("new epoch opens only after it. A later epoch's fencing tokens are above an earlier one's.\n")
	b.WriteString("Over the in-process transport nothing fails: one epoch of all n processes.\n")
	b.WriteString("In a new epoch " + e.Restart + ".\n\n")
	if e.NoTryLock == "" {
		b.WriteString("TryLock (and TryRLock) enters only when the acquire needs no message and no wait.\n\n")
	} else {
		fmt.Fprintf(&b, "There is no TryLock: %s.\n\n", e.NoTryLock)
	}
	p := e.Props
	fmt.Fprintf(&b, "Claimed: %s; %s; %s; %s.\n", p.Safety, p.Liveness, p.Fairness, p.Messages)
	if p.Delay != "" {
		fmt.Fprintf(&b, "Delay between entries: %s.\n", p.Delay)
	}
	fmt.Fprintf(&b, "Channels: %s.\n", p.Channels)
	fmt.Fprintf(&b, "Steps: %s.\n", p.Steps)
	b.WriteString("\nThe algorithm, with the paper's labels:\n\n")
	for _, body := range g.a.Bodies() {
		name := body.Name
		if r := e.Routines[body.Name]; r != "" {
			name = r
		}
		fmt.Fprintf(&b, "\t%s:\n", name)
		for _, line := range ir.Listing(body.Code) {
			fmt.Fprintf(&b, "\t  %s\n", strings.TrimRight(line, " "))
		}
	}
	b.WriteString("\nDeviations from the paper:\n")
	for _, d := range e.Deviations {
		fmt.Fprintf(&b, "  - %s\n", d)
	}
	b.WriteString("  - Fencing tokens are this lowering's addition: every message carries its sender's token\n")
	b.WriteString("    clock, a receiver keeps the largest it has seen, and a writer's entry increments it.\n")
	b.WriteString("  - Epochs are this lowering's addition: the paper's processes never fail; here the algorithm\n")
	b.WriteString("    runs among an epoch's members and starts again in the next (see Failures above).\n")
	if g.c.SpecEcho != "" {
		b.WriteString("\nGenerated from:\n\n")
		for _, line := range strings.Split(strings.TrimRight(g.c.SpecEcho, "\n"), "\n") {
			b.WriteString("\t" + line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (g *netGen) api(f *jen.File) {
	T := g.c.Name
	recv := jen.Id("l").Op("*").Id(T)
	ctx := jen.Id("ctx").Qual("context", "Context")
	pass := func(lock, ctxLock, try, unlock string, write bool, what string) {
		f.Comment(fmt.Sprintf("%s takes the lock %s, asking again in the next epoch if the group changes", lock, what))
		f.Comment(fmt.Sprintf("meanwhile; it panics if the lock has failed or the process is in a passage (see %s).", ctxLock))
		f.Func().Params(recv.Clone()).Id(lock).Params().Block(
			jen.If(jen.Err().Op(":=").Id("l").Dot("enter").Call(jen.Qual("context", "Background").Call(), jen.Lit(write), jen.True(), jen.Lit(T+"."+lock)), jen.Err().Op("!=").Nil()).Block(
				jen.Panic(jen.Lit("lockgen: " + T + "." + lock + ": ").Op("+").Err().Dot("Error").Call()),
			),
		)
		f.Comment(fmt.Sprintf("%s takes the lock %s, or returns ctx's error, the lock's failure,", ctxLock, what))
		f.Comment("ErrEpochChanged (the group changed while the request was in flight; see RetryAcrossEpochs)")
		f.Comment("or ErrInPassage (the process is in a passage already).")
		f.Func().Params(recv.Clone()).Id(ctxLock).Params(ctx.Clone()).Error().Block(
			jen.Return(jen.Id("l").Dot("enter").Call(jen.Id("ctx"), jen.Lit(write), jen.False(), jen.Lit(T+"."+ctxLock))),
		)
		if g.c.Entry.NoTryLock == "" {
			f.Comment(fmt.Sprintf("%s takes the lock %s if that needs no message and no wait.", try, what))
			f.Func().Params(recv.Clone()).Id(try).Params().Bool().Block(
				jen.Return(jen.Id("l").Dot("tryEnter").Call(jen.Lit(write), jen.Id("l").Dot("save"), jen.Lit(T+"."+try))),
			)
		}
		f.Comment(fmt.Sprintf("%s releases the lock taken by %s; it panics if the process does not hold it so. It", unlock, lock))
		f.Comment("returns the lock's failure if the lock failed during the passage (its lease ran out, it was")
		f.Comment("removed from its group, its transport failed): the passage may not have been alone since.")
		f.Func().Params(recv.Clone()).Id(unlock).Params().Error().Block(
			jen.Return(jen.Id("l").Dot("leave").Call(jen.Lit(write), jen.Lit(T+"."+unlock))),
		)
	}
	pass("Lock", "LockContext", "TryLock", "Unlock", true, "for writing (alone)")
	if g.readers() {
		pass("RLock", "RLockContext", "TryRLock", "RUnlock", false, "for reading (shared with readers)")
	}
	f.Comment("Close leaves: the lock fails with ErrLockClosed and, over a transport that keeps a group, the")
	f.Comment("process leaves it and the others go on without it. It returns an error while the process is")
	f.Comment("in a passage (Unlock first).")
	f.Func().Params(recv.Clone()).Id("Close").Params().Error().Block(
		jen.Return(jen.Id("l").Dot("close").Call(jen.Lit(T + ".Close"))),
	)
	var clones []jen.Code
	for _, l := range g.a.Locals {
		if l.Len != nil {
			clones = append(clones, jen.Id("s").Dot(l.Name).Op("=").Qual("slices", "Clone").Call(jen.Id("s").Dot(l.Name)))
		}
	}
	if g.c.Entry.NoTryLock != "" {
		return
	}
	f.Comment("save snapshots the state for a TryLock that may give up.")
	body := append([]jen.Code{jen.Id("s").Op(":=").Id("l").Dot("s")}, clones...)
	f.Func().Params(recv.Clone()).Id("save").Params().Func().Params().Block(
		append(body, jen.Return(jen.Func().Params().Block(jen.Id("l").Dot("s").Op("=").Id("s"))))...,
	)
}

func (g *netGen) opName(op string) string { return "op" + op }

func (g *netGen) routines(f *jen.File) {
	recv := func() *jen.Statement { return jen.Id("l").Op("*").Id(g.c.Name) }
	pick := func(write, read string) []jen.Code {
		if !g.readers() {
			return []jen.Code{jen.Return(jen.Id("l").Dot(g.opName(write)).Call())}
		}
		return []jen.Code{
			jen.If(jen.Id("write")).Block(jen.Return(jen.Id("l").Dot(g.opName(write)).Call())),
			jen.Return(jen.Id("l").Dot(g.opName(read)).Call()),
		}
	}
	f.Comment("acquire runs the writer's or the reader's acquire routine.")
	f.Func().Params(recv()).Id("acquire").Params(jen.Id("write").Bool()).Error().Block(pick("Acquire", "RAcquire")...)
	f.Comment("release runs the writer's or the reader's release routine.")
	f.Func().Params(recv()).Id("release").Params(jen.Id("write").Bool()).Error().Block(pick("Release", "RRelease")...)
	waits := func(c ir.Code) bool {
		w := false
		ir.WalkStmts(c, func(s ir.Stmt) { _, a := s.(ir.Await); w = w || a })
		return w
	}
	rw := []jen.Code{jen.Return(jen.Lit(waits(g.a.Release)))}
	if g.readers() {
		rw = []jen.Code{
			jen.If(jen.Id("write")).Block(jen.Return(jen.Lit(waits(g.a.Release)))),
			jen.Return(jen.Lit(waits(g.a.RRelease))),
		}
	}
	f.Comment("releaseWaits reports whether a release routine has an await.")
	f.Func().Params(recv()).Id("releaseWaits").Params(jen.Id("write").Bool()).Bool().Block(rw...)
	if g.a.Start == nil {
		f.Comment("begin runs the algorithm's start: it has none (the network starts empty).")
	} else {
		f.Comment("begin runs the algorithm's start: the messages the network starts with.")
	}
	f.Func().Params(recv()).Id("begin").Params().Block(g.code(g.a.Start)...)
	f.Line()
	for _, op := range g.a.Ops() {
		if r := g.c.Entry.Routines[op.Name]; r != "" {
			f.Comment(fmt.Sprintf("%s is %s.", g.opName(op.Name), r))
		}
		body := g.code(op.Code)
		f.Func().Params(recv()).Id(g.opName(op.Name)).Params().Error().Block(append(body, jen.Return(jen.Nil()))...)
	}
	// The await conditions, which the dispatcher reads too.
	var cases []jen.Code
	for _, op := range g.a.Ops() {
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			if aw, ok := s.(ir.Await); ok {
				cases = append(cases, jen.Case(jen.Lit(g.awaits[aw.Label()])).Block(
					jen.Return(g.expr(aw.Cond)),
				).Comment("("+aw.Label()+") "+ir.FormatHead(aw)))
			}
		})
	}
	f.Comment("enabled reports whether an await's condition holds.")
	f.Func().Params(recv()).Id("enabled").Params(jen.Id("id").Int()).Bool().Block(
		jen.Switch(jen.Id("id")).Block(cases...),
		jen.Return(jen.False()),
	)
}

func (g *netGen) handlers(f *jen.File) {
	recv := func() *jen.Statement { return jen.Id("l").Op("*").Id(g.c.Name) }
	var cases []jen.Code
	for _, m := range g.a.Messages {
		var args []jen.Code
		for i, p := range m.Params {
			off := msgOffset(&m, i)
			if p.Len != nil {
				// An array parameter: n words (ir.Message).
				args = append(args, jen.Id("args").Index(off.Clone().Op(":").Add(msgOffset(&m, i)).Op("+").Id("l").Dot("n")))
				continue
			}
			a := jen.Id("args").Index(off)
			if p.Type == ir.TBool {
				a = a.Op("!=").Lit(0)
			}
			args = append(args, a)
		}
		cases = append(cases, jen.Case(jen.Id(g.kind(m.Name))).Block(
			jen.If(jen.Len(jen.Id("args")).Op("!=").Add(msgOffset(&m, len(m.Params)))).Block(
				jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(m.Name+" with %d words, want %d"), jen.Len(jen.Id("args")), msgOffset(&m, len(m.Params)))),
			),
			jen.Id("l").Dot("on"+m.Name).Call(args...),
		))
	}
	f.Comment("handle runs the handler of one message.")
	f.Func().Params(recv()).Id("handle").Params(jen.Id("kind").Int64(), jen.Id("args").Index().Int64()).Error().Block(
		jen.Switch(jen.Id("kind")).Block(append(cases, jen.Default().Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("unknown message kind %d"), jen.Id("kind"))),
		))...),
		jen.Return(jen.Nil()),
	)
	for _, h := range g.a.Handlers {
		m := g.a.Message(h.Msg)
		var params []jen.Code
		g.params = map[string]bool{}
		for _, p := range m.Params {
			t := jen.Int64()
			if p.Type == ir.TBool {
				t = jen.Bool()
			}
			if p.Len != nil {
				t = jen.Index().Int64()
			}
			params = append(params, jen.Id(p.Name).Add(t))
			g.params[p.Name] = true
		}
		f.Comment(fmt.Sprintf("on%s handles a %s message: %s.", h.Msg, h.Msg, m.Doc))
		f.Func().Params(recv()).Id("on" + h.Msg).Params(params...).Block(g.code(h.Code)...)
		g.params = nil
	}
}

// msgOffset is where parameter i of m starts among its words, as Go: a
// constant, or one that counts the lock's n per array before it.
func msgOffset(m *ir.Message, i int) *jen.Statement {
	scalars, arrays := 0, 0
	for _, p := range m.Params[:i] {
		if p.Len != nil {
			arrays++
		} else {
			scalars++
		}
	}
	switch {
	case arrays == 0:
		return jen.Lit(scalars)
	case scalars == 0 && arrays == 1:
		return jen.Id("l").Dot("n")
	case scalars == 0:
		return jen.Lit(arrays).Op("*").Id("l").Dot("n")
	case arrays == 1:
		return jen.Lit(scalars).Op("+").Id("l").Dot("n")
	}
	return jen.Lit(scalars).Op("+").Lit(arrays).Op("*").Id("l").Dot("n")
}
