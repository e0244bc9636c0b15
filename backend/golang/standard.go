package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/shape"
)

const semaphorePath = "golang.org/x/sync/semaphore"

// StandardName names the standard lock that stands in for a lock of mode
// m: sync.Mutex, sync.RWMutex, or x/sync's semaphore.Weighted for k.
func StandardName(m mode.Mode) string {
	switch {
	case m.Readers():
		return "sync.RWMutex"
	case m.TakesK():
		return "semaphore.Weighted"
	}
	return "sync.Mutex"
}

// Standard emits the standard lock in the shape of the lock c configures:
// the same type name, constructor, constants, handle or node type and
// methods, each calling the standard lock's. lockgen tune lays it over
// the generated lock, so that "keep the standard lock" is measured on the
// user's own benchmarks like any generated variant. Its tests are the
// stress test and the zero-value test: the standard locks' misuse is
// theirs (sync's a fatal error, not a panic), and they run no controlled
// scheduler.
func Standard(c Config) (lock File, tests []File, err error) {
	g, err := newGen(&c)
	if err != nil {
		return File{}, nil, err
	}
	g.standard = true
	f := jen.NewFile(c.Package)
	f.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))
	g.consts(f)
	g.standardType(f)
	g.standardMethods(f)
	data, err := render(f)
	if err != nil {
		return File{}, nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	lock = File{Name: FileBase(c.Name) + ".go", Data: data}
	if c.ImportPath == "" {
		return lock, nil, nil
	}

	data, err = importing(c.Package, func(t *jen.File) {
		g.testHead(t)
		g.stressTest(t)
		g.zeroValueTest(t)
	}, c.ImportPath)
	if err != nil {
		return File{}, nil, err
	}
	return lock, []File{{Name: FileBase(c.Name) + "_test.go", Data: data}}, nil
}

// standardType declares the lock and, for handles and caller nodes, the
// type the methods hang on.
func (g *gen) standardType(f *jen.File) {
	c := g.c
	std := StandardName(c.Mode)
	var field jen.Code
	switch {
	case c.Mode.TakesK():
		// semaphore.Weighted has no ready zero value: the first use
		// makes it, as a generated lock's first use runs its setup.
		field = jen.Id("sem").Qual("sync/atomic", "Pointer").Types(jen.Qual(semaphorePath, "Weighted"))
	case c.Mode.Readers():
		field = jen.Id("mu").Qual("sync", "RWMutex")
	default:
		field = jen.Id("mu").Qual("sync", "Mutex")
	}
	docLines(f, fmt.Sprintf("%s is %s in the shape of the generated lock it stands in for: the\nsame methods, each calling %s's. The zero value is ready to use.", c.Name, std, std))
	f.Type().Id(c.Name).Struct(field)
	f.Line()
	f.Comment(fmt.Sprintf("New%s returns a new %s.", c.Name, c.Name))
	f.Func().Id("New" + c.Name).Params().Op("*").Id(c.Name).Block(jen.Return(jen.New(jen.Id(c.Name))))
	switch g.api {
	case shape.Handles:
		f.Line()
		f.Comment(fmt.Sprintf("%s is one goroutine's use of %s.", g.handleType(), aName(c.Name)))
		f.Type().Id(g.handleType()).Struct(jen.Id("l").Op("*").Id(c.Name))
		f.Line()
		f.Comment("NewHandle returns a handle for one goroutine.")
		f.Func().Params(jen.Id("l").Op("*").Id(c.Name)).Id("NewHandle").Params().Op("*").Id(g.handleType()).Block(
			jen.Return(jen.Op("&").Id(g.handleType()).Values(jen.Dict{jen.Id("l"): jen.Id("l")})))
	case shape.CallerNodes:
		f.Line()
		f.Comment(fmt.Sprintf("%s is a caller's node; the standard lock keeps nothing in it.", g.nodeType()))
		f.Type().Id(g.nodeType()).Struct()
	}
	if c.Mode.TakesK() {
		f.Line()
		f.Comment("weighted returns the semaphore, made on first use.")
		f.Func().Params(jen.Id("l").Op("*").Id(c.Name)).Id("weighted").Params().Op("*").Qual(semaphorePath, "Weighted").Block(
			jen.If(jen.Id("s").Op(":=").Id("l").Dot("sem").Dot("Load").Call(), jen.Id("s").Op("!=").Nil()).Block(jen.Return(jen.Id("s"))),
			jen.Id("l").Dot("sem").Dot("CompareAndSwap").Call(jen.Nil(), jen.Qual(semaphorePath, "NewWeighted").Call(jen.Id(g.kConst()))),
			jen.Return(jen.Id("l").Dot("sem").Dot("Load").Call()))
	}
}

// standardMethods emits Lock, Unlock and, as the configuration has them,
// TryLock, RLock, RUnlock and TryRLock.
func (g *gen) standardMethods(f *jen.File) {
	c := g.c
	recv := jen.Id("l").Op("*").Id(c.Name)
	lock := jen.Id("l")
	var params []jen.Code
	switch g.api {
	case shape.IDs:
		params = []jen.Code{jen.Id("id").Int()}
	case shape.Handles:
		recv = jen.Id("h").Op("*").Id(g.handleType())
		lock = jen.Id("h").Dot("l")
	case shape.CallerNodes:
		params = []jen.Code{jen.Id("_").Op("*").Id(g.nodeType())}
	}
	type method struct{ name, call string }
	ms := []method{{"Lock", "Lock"}, {"Unlock", "Unlock"}}
	if c.TryLock {
		ms = append(ms, method{"TryLock", "TryLock"})
	}
	if c.Mode.Readers() {
		ms = append(ms, method{"RLock", "RLock"}, method{"RUnlock", "RUnlock"})
		if c.TryLock {
			ms = append(ms, method{"TryRLock", "TryRLock"})
		}
	}
	for _, m := range ms {
		var body []jen.Code
		if g.api == shape.IDs {
			body = append(body, jen.If(jen.Uint().Call(jen.Id("id")).Op(">=").Id(g.procsConst())).Block(
				jen.Panic(jen.Lit(fmt.Sprintf("lockgen: %s.%s(", c.Name, m.name)).Op("+").Qual("strconv", "Itoa").Call(jen.Id("id")).Op("+").Lit("): process id out of range"))))
		}
		var call *jen.Statement
		if c.Mode.TakesK() {
			sem := lock.Clone().Dot("weighted").Call()
			switch m.name {
			case "Lock":
				// Background is never done: the acquire cannot fail.
				call = jen.Id("_").Op("=").Add(sem.Dot("Acquire").Call(jen.Qual("context", "Background").Call(), jen.Lit(1)))
			case "Unlock":
				call = sem.Dot("Release").Call(jen.Lit(1))
			case "TryLock":
				call = sem.Dot("TryAcquire").Call(jen.Lit(1))
			}
		} else {
			call = lock.Clone().Dot("mu").Dot(m.call).Call()
		}
		var ret jen.Code
		if m.name == "TryLock" || m.name == "TryRLock" {
			ret = jen.Bool()
			body = append(body, jen.Return(call))
		} else {
			body = append(body, call)
		}
		f.Line()
		f.Comment(fmt.Sprintf("%s calls %s's.", m.name, StandardName(c.Mode)))
		fn := f.Func().Params(recv).Id(m.name).Params(params...)
		if ret != nil {
			fn.Add(ret)
		}
		fn.Block(body...)
	}
}
