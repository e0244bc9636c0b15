package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"
)

// Lock lowers one lock to its Go file.
func Lock(c Config) (File, error) {
	g, err := newGen(&c)
	if err != nil {
		return File{}, err
	}
	f := jen.NewFile(c.Package)
	f.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))

	g.consts(f)
	constDecl := jen.Null() // filled in once the code is lowered
	f.Add(constDecl)
	g.types(f)
	g.constructors(f)
	g.recordFuncs(f)
	if err := g.methods(f); err != nil {
		return File{}, err
	}
	g.declareConsts(constDecl)
	data, err := render(f)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	return File{Name: FileBase(c.Name) + ".go", Data: data}, nil
}

// wants reports whether the configuration uses an operation.
func (g *gen) wants(op string) bool {
	switch op {
	case "TryAcquire":
		return g.c.TryLock
	case "RAcquire", "RRelease":
		return g.c.Mode.Readers()
	case "TryRAcquire":
		return g.c.Mode.Readers() && g.c.TryLock
	}
	return true
}

func (g *gen) consts(f *jen.File) {
	var defs []jen.Code
	switch {
	case g.api.TakesIDs():
		defs = append(defs, jen.Comment(fmt.Sprintf("%s is the number of processes of a %s: ids are 0..%s-1.", g.procsConst(), g.c.Name, g.procsConst())),
			jen.Id(g.procsConst()).Op("=").Lit(g.c.Params.N))
	case g.c.Params.N > 0:
		defs = append(defs, jen.Comment(fmt.Sprintf("%s is how many goroutines may use %s at once: more break it.", g.procsConst(), aName(g.c.Name))),
			jen.Id(g.procsConst()).Op("=").Lit(g.c.Params.N))
	}
	if g.c.Mode.TakesK() {
		defs = append(defs, jen.Comment(fmt.Sprintf("%s is how many processes may hold %s at once.", g.kConst(), aName(g.c.Name))),
			jen.Id(g.kConst()).Op("=").Lit(g.c.Params.K))
	}
	if len(defs) > 0 {
		f.Const().Defs(defs...)
	}
}

// setupCode sets the registers and per-process states that do not start
// at zero (nil if all do).
func (g *gen) setupCode() []jen.Code {
	var out []jen.Code
	for _, s := range g.a.Shared {
		name := g.fieldNames[s.Name]
		if s.Init == nil {
			continue
		}
		n := 1
		if s.IsArray() {
			n = s.Len(g.c.Params)
		}
		for i := 0; i < n; i++ {
			v := s.Init(g.c.Params, i)
			if v == 0 {
				continue
			}
			r := jen.Id("l").Dot(name)
			if s.IsArray() {
				r = r.Index(jen.Lit(i))
				if g.elemStruct(s.Name) {
					r = r.Dot("r")
				}
			}
			out = append(out, r.Dot("init").Call(g.constOf(s.Type, v)))
		}
	}
	if init := g.initState(jen.Id("l").Dot("procs").Index(jen.Id("i")).Dot(g.stateType())); g.api.TakesIDs() && len(init) > 0 {
		out = append(out, jen.For(jen.Id("i").Op(":=").Range().Id("l").Dot("procs")).Block(init...))
	}
	return out
}

// setupCheck is what a method of lock l runs first when the lock has a
// setup: one load of a flag that never changes again.
func (g *gen) setupCheck(l *jen.Statement) []jen.Code {
	if len(g.setupCode()) == 0 {
		return nil
	}
	return []jen.Code{jen.If(jen.Op("!").Add(l.Clone()).Dot("setupDone").Dot("Load").Call()).Block(l.Clone().Dot("setup").Call())}
}

// padField is a blank field of n bytes (nothing when n is 0).
func padField(n int) []jen.Code {
	if n <= 0 {
		return nil
	}
	return []jen.Code{jen.Id("_").Index(jen.Lit(n)).Byte()}
}

func (g *gen) types(f *jen.File) {
	pad := g.c.Padding
	// Records (queue nodes).
	for _, r := range g.a.Records {
		var fields []jen.Code
		used := 0
		for _, fl := range r.Fields {
			sz := regSize(fl.Type)
			used += padBytes(sz, used) + sz
			fields = append(fields, jen.Id(goIdent(fl.Name)).Add(g.regType(fl.Type)).Comment(fieldDoc(fl.Name, fl.Doc)))
			if q, ok := g.fieldQ[r.Name][fl.Name]; ok {
				typ, size := g.queueType("field:" + r.Name + "." + fl.Name)
				used += padBytes(8, used) + size
				fields = append(fields, jen.Id(q).Id(typ).Comment("processes waiting on "+fl.Name))
			}
		}
		if g.recQ[r.Name] {
			typ, size := g.queueType("rec:" + r.Name)
			fields = append(fields, jen.Id("sleepers").Id(typ).Comment("processes waiting on this record"))
			used += size
		}
		fields = append(fields, padField(padBytes(pad, used))...)
		doc := fmt.Sprintf("%s is the algorithm's %s record.", g.recType(r.Name), r.Name)
		if r.Doc != "" {
			doc += " " + r.Doc
		}
		f.Comment(doc)
		f.Type().Id(g.recType(r.Name)).Struct(fields...)
		f.Line()
	}

	// Per-process state.
	var st []jen.Code
	for _, l := range g.stateLocals {
		st = append(st, jen.Id(goIdent(l.Name)).Add(g.localType(l)).Comment(localDoc(l)))
	}
	if !g.api.HolderState() {
		for _, p := range g.a.Procs {
			st = append(st, jen.Id(goIdent(p.Name)).Index(jen.Lit(p.Count)).Id(g.recType(p.Rec)).Comment(fieldDoc(p.Name, p.Doc)))
		}
		if g.waitDepth > 0 {
			st = append(st, jen.Id("waiters").Index(jen.Lit(g.waitDepth)).Id("waiter").Comment("this process's side of its waits"))
		}
		st = append(st, jen.Id("held").Bool().Comment("holds the lock (misuse checks)"))
		if g.c.Mode.Readers() {
			st = append(st, jen.Id("rheld").Bool().Comment("holds the lock as a reader"))
		}
	}
	f.Comment(fmt.Sprintf("%s is what a process keeps between and across its passages.", g.stateType()))
	f.Type().Id(g.stateType()).Struct(st...)
	f.Line()
	if g.api.TakesIDs() {
		f.Comment(fmt.Sprintf("%s is one process's state, padded away from its neighbours.", g.procType()))
		f.Type().Id(g.procType()).Struct(append([]jen.Code{jen.Id(g.stateType())}, padField(pad)...)...)
		f.Line()
	}

	// The lock.
	var lk []jen.Code
	if gd := g.guards["Release"]; gd == nil || g.a.Shared[0].Name != gd.reg {
		// A guarded release's register comes first, at the lock's own
		// address: the field's offset would cost its inlined Unlock 2 more
		// than the inliner's budget has left (guard.go). The padding after
		// it still keeps the lock's other fields off its cache line.
		lk = append(lk, padField(pad)...)
	}
	for _, s := range g.a.Shared {
		name := g.fieldNames[s.Name]
		sz := regSize(s.Type)
		if g.bitRegs[s.Name] {
			// The register and its queue in one word (guard.go).
			lk = append(lk, jen.Id(name).Id("bitReg").Comment(fieldDoc(s.Name, s.Doc)+", and the processes waiting on it"))
			lk = append(lk, padField(padBytes(pad, waitqSize))...)
			continue
		}
		if !s.IsArray() {
			lk = append(lk, jen.Id(name).Add(g.regType(s.Type)).Comment(fieldDoc(s.Name, s.Doc)))
			if q, ok := g.regQ[s.Name]; ok {
				// Beside its register: a writer's look at the queue hits the
				// cache line its write just took (a ticket queue's slot is
				// on a line of its own, which only its one waiter writes).
				typ, size := g.queueType("reg:" + s.Name)
				lk = append(lk, jen.Id(q).Id(typ).Comment("processes waiting on "+s.Name))
				sz += size
			}
			lk = append(lk, padField(padBytes(pad, sz))...)
			continue
		}
		n := s.Len(g.c.Params)
		elem := g.regType(s.Type)
		if g.elemStruct(s.Name) {
			fields := []jen.Code{jen.Id("r").Add(g.regType(s.Type))}
			if g.elemQ[s.Name] {
				// Awaited element by element: each has its own queue, so a
				// write wakes only those waiting on it (local spinning).
				typ, size := g.queueType("elem:" + s.Name)
				fields = append(fields, jen.Id("sleepers").Id(typ))
				sz += size
			}
			fields = append(fields, padField(padBytes(pad, sz))...)
			elem = jen.Struct(fields...)
		}
		lk = append(lk, jen.Id(name).Index(jen.Lit(n)).Add(elem).Comment(fieldDoc(s.Name, s.Doc)))
	}
	if g.lockQ {
		lk = append(lk, jen.Id("sleepers").Id("waitq").Comment("processes waiting on several of the lock's registers"))
		lk = append(lk, padField(padBytes(pad, waitqSize))...)
	}
	if g.c.Wait.CountsSpinners() && len(g.sites) > 0 {
		lk = append(lk, jen.Id("spinners").Id("intReg").Comment("waiters spinning now (the adaptive policy caps them)"))
		lk = append(lk, padField(padBytes(pad, 8))...)
	}
	for _, rec := range g.pooledRecords() {
		lk = append(lk, jen.Id(poolField(rec)).Qual("sync", "Pool").Comment("free "+rec+" records"))
	}
	if len(g.setupCode()) > 0 {
		lk = append(lk, padField(pad)...)
		lk = append(lk, jen.Id("setupDone").Qual("sync/atomic", "Bool").Comment("setup has run (read by every method, written once)"))
		lk = append(lk, jen.Id("setupOnce").Qual("sync", "Once").Comment("runs setup"))
	}
	switch g.api {
	case shape.Locker:
		if len(g.stateLocals) > 0 {
			lk = append(lk, jen.Id("holder").Id(g.stateType()).Comment("the holder's passage state (written inside the critical section)"))
		}
		if !g.releaseMisuse() { // else the release tells misuse from the registers
			lk = append(lk, jen.Id("held").Bool().Comment("locked (misuse checks; written inside the critical section)"))
		}
	case shape.IDs:
		lk = append(lk, jen.Id("procs").Index(jen.Id(g.procsConst())).Id(g.procType()))
	}
	docLines(f, g.typeDoc())
	f.Type().Id(g.c.Name).Struct(append([]jen.Code{noCopyField()}, lk...)...)

	switch g.api {
	case shape.Handles:
		f.Line()
		docLines(f, fmt.Sprintf("%s is one goroutine's access to a %s: it owns that goroutine's queue nodes.\nA handle must not be used by two goroutines at once, nor copied; make one per goroutine with NewHandle.", g.handleType(), g.c.Name))
		f.Type().Id(g.handleType()).Struct(noCopyField(), jen.Id("l").Op("*").Id(g.c.Name), jen.Id("st").Id(g.stateType()))
	case shape.CallerNodes:
		f.Line()
		docLines(f, fmt.Sprintf("%s is a caller-owned queue node of a %s. The zero value is ready to use.\nPass the same node to Lock and the matching Unlock; a node may serve one passage at a time, and must not be copied (the queue points into it).", g.nodeType(), g.c.Name))
		f.Type().Id(g.nodeType()).Struct(noCopyField(), jen.Id("st").Id(g.stateType()))
	}
}

// noCopyField marks a generated type whose copy would break the lock (its
// registers, or a node the queue points into): go vet's copylocks check
// reports a copy, as it does a sync.Mutex's. It takes no space, first in
// the struct: no field moves.
func noCopyField() jen.Code { return jen.Id("_").Id("noCopy").Comment("go vet reports a copy") }

// docLines writes a multi-line doc comment as // lines (jennifer would
// use a block comment).
func docLines(f *jen.File, doc string) {
	for _, line := range strings.Split(doc, "\n") {
		if line == "" {
			f.Comment("")
			continue
		}
		f.Comment(line)
	}
}

func (g *gen) pooledRecords() []string {
	if g.c.Nodes != nodes.Pool {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range g.a.Procs {
		if !seen[p.Rec] {
			seen[p.Rec] = true
			out = append(out, p.Rec)
		}
	}
	return out
}

func fieldDoc(name, doc string) string {
	if doc == "" {
		return name
	}
	return name + ": " + doc
}

func localDoc(l ir.Local) string {
	scope := map[ir.Scope]string{ir.Passage: "from acquire to release", ir.Process: "across passages"}[l.Scope]
	d := l.Name + " (kept " + scope + ")"
	if l.Doc != "" {
		d += ": " + l.Doc
	}
	return d
}

// constructors emits NewX, NewHandle and the record allocators.
func (g *gen) constructors(f *jen.File) {
	var body []jen.Code
	body = append(body, jen.Id("l").Op(":=").Op("&").Id(g.c.Name).Values())
	if g.api.TakesIDs() && g.waitDepth > 0 {
		// Every process's wake-ups made here, so that no wait of a lock
		// made by New allocates (a zero-value lock makes each on its
		// process's first sleep).
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("l").Dot("procs")).Block(
			jen.Id("readyWaiters").Call(jen.Id("l").Dot("procs").Index(jen.Id("i")).Dot("waiters").Index(jen.Op(":")))))
	}
	if init := g.setupCode(); len(init) > 0 {
		body = append(body, jen.Id("l").Dot("setup").Call())
		f.Line()
		docLines(f, fmt.Sprintf("setup gives %s its initial state, once: the zero value of %s is\nready to use, and its first method call sets up what is not zero.", aName(g.c.Name), aName(g.c.Name)))
		f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id("setup").Params().Block(
			jen.Id("l").Dot("setupOnce").Dot("Do").Call(jen.Func().Params().Block(
				append(init, jen.Id("l").Dot("setupDone").Dot("Store").Call(jen.True()))...)))
	}
	body = append(body, jen.Return(jen.Id("l")))
	f.Line()
	f.Comment(fmt.Sprintf("New%s returns an unlocked %s. The zero value is an unlocked %s too.", g.c.Name, g.c.Name, g.c.Name))
	f.Func().Id("New" + g.c.Name).Params().Op("*").Id(g.c.Name).Block(body...)

	if g.api == shape.Handles {
		f.Line()
		docLines(f, fmt.Sprintf("NewHandle returns a handle for one goroutine. Handles are cheap to keep and\nshould be reused: each one owns %s.", g.ownsWhat()))
		f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id("NewHandle").Params().Op("*").Id(g.handleType()).Block(
			append(append(append(g.setupCheck(jen.Id("l")), jen.Id("h").Op(":=").Op("&").Id(g.handleType()).Values(jen.Dict{jen.Id("l"): jen.Id("l")})),
				append(g.initState(jen.Id("h").Dot("st")), g.readyHandle()...)...), jen.Return(jen.Id("h")))...)
	}

	if g.api.HolderState() {
		for _, rec := range g.procRecordTypes() {
			r := g.a.Record(rec)
			typ := g.recType(rec)
			var init []jen.Code
			for _, fl := range r.Fields {
				if g.c.Nodes == nodes.Pool || fl.Init != 0 {
					init = append(init, jen.Id("r").Dot(goIdent(fl.Name)).Dot("init").Call(g.constOf(fl.Type, fl.Init)))
				}
			}
			f.Line()
			if g.c.Nodes == nodes.Pool {
				f.Comment(fmt.Sprintf("get%s takes %s record from the pool and resets it (nobody else references it).", exportName(goIdent(rec)), aName(rec)))
				// No New function: the zero pool works, and a nil Get means
				// a fresh record.
				f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id("get" + exportName(goIdent(rec))).Params().Op("*").Id(typ).Block(
					append(append([]jen.Code{
						jen.List(jen.Id("r"), jen.Id("_")).Op(":=").Id("l").Dot(poolField(rec)).Dot("Get").Call().Assert(jen.Op("*").Id(typ)),
						jen.If(jen.Id("r").Op("==").Nil()).Block(jen.Id("r").Op("=").New(jen.Id(typ))),
					}, init...),
						jen.Return(jen.Id("r")))...)
			} else {
				f.Comment(fmt.Sprintf("new%s allocates a fresh %s record; the garbage collector reclaims it.", exportName(typ), rec))
				f.Func().Id("new" + exportName(typ)).Params().Op("*").Id(typ).Block(
					append(append([]jen.Code{jen.Id("r").Op(":=").New(jen.Id(typ))}, init...), jen.Return(jen.Id("r")))...)
			}
		}
	}
}

// readyHandle makes a new handle's wake-ups, so that its waits do not
// allocate.
func (g *gen) readyHandle() []jen.Code {
	if g.waitDepth == 0 {
		return nil
	}
	return []jen.Code{jen.Id("readyWaiters").Call(jen.Id("h").Dot("st").Dot("waiters").Index(jen.Op(":")))}
}

func (g *gen) ownsWhat() string {
	var parts []string
	for _, p := range g.a.Procs {
		parts = append(parts, fmt.Sprintf("%d %s record(s)", p.Count, p.Rec))
	}
	if len(parts) == 0 {
		return "its passage state"
	}
	return strings.Join(parts, " and ")
}

func (g *gen) procRecordTypes() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range g.a.Procs {
		if !seen[p.Rec] {
			seen[p.Rec] = true
			out = append(out, p.Rec)
		}
	}
	return out
}

// initState sets a process state's initial values: record fields and
// Process-scoped locals.
func (g *gen) initState(st *jen.Statement) []jen.Code {
	var out []jen.Code
	for _, p := range g.a.Procs {
		r := g.a.Record(p.Rec)
		for i := 0; i < p.Count; i++ {
			for _, fl := range r.Fields {
				if fl.Init != 0 {
					out = append(out, st.Clone().Dot(goIdent(p.Name)).Index(jen.Lit(i)).Dot(goIdent(fl.Name)).Dot("init").Call(g.constOf(fl.Type, fl.Init)))
				}
			}
		}
	}
	for _, l := range g.stateLocals {
		if l.Scope != ir.Process {
			continue
		}
		switch {
		case l.InitMine != nil && g.recIDs != nil:
			// Only the id API numbers records, and setup runs this in a loop over process i.
			out = append(out, st.Clone().Dot(goIdent(l.Name)).Op("=").Add(g.recordID(g.a.ProcRecs(l.InitMine.Name).Rec, l.InitMine.Name, jen.Id("i"), l.InitMine.Index, "")))
		case l.InitMine != nil:
			out = append(out, st.Clone().Dot(goIdent(l.Name)).Op("=").Op("&").Add(st.Clone()).Dot(goIdent(l.InitMine.Name)).Index(jen.Lit(int(l.InitMine.Index.(ir.Const).V))))
		case l.Init != nil:
			if v := l.Init(g.c.Params); v != 0 {
				out = append(out, st.Clone().Dot(goIdent(l.Name)).Op("=").Add(g.constOf(l.Type, v)))
			}
		}
	}
	return out
}

// passageInit is what a Lock()/Unlock() passage starts with: Process
// locals degrade to Passage scope there (no process identity survives).
func (g *gen) passageInit() []jen.Code {
	var out []jen.Code
	for _, l := range g.stateLocals {
		if l.Scope != ir.Process {
			continue
		}
		switch {
		case l.InitMine != nil:
			out = append(out, jen.Id("st").Dot(goIdent(l.Name)).Op("=").Add(g.mine(*l.InitMine, "")))
		case l.Init != nil:
			if v := l.Init(g.c.Params); v != 0 {
				out = append(out, jen.Id("st").Dot(goIdent(l.Name)).Op("=").Add(g.constOf(l.Type, v)))
			}
		}
	}
	return out
}

func (g *gen) constOf(t ir.Type, v int64) jen.Code {
	switch t.Kind {
	case ir.Bool:
		return jen.Lit(v != 0)
	case ir.Ref:
		if v != 0 {
			panic("golang: non-nil reference constant")
		}
		if g.recIDs != nil {
			return jen.Lit(0)
		}
		return jen.Nil()
	}
	return jen.Lit(int(v))
}
