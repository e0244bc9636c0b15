package golang

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/shape"
	"github.com/lockgen/lockgen/templates"
)

const verifyPath = "github.com/lockgen/lockgen/verify"

// Tests returns a lock's test files: the stress and misuse tests (every
// build) and the controlled-scheduler exploration (build tag
// lockgen_check). Both drive the lock through verify.
func Tests(c Config) ([]File, error) {
	g, err := newGen(&c)
	if err != nil {
		return nil, err
	}
	if c.ImportPath == "" {
		return nil, fmt.Errorf("%s: the generated package's import path is unknown (is the output inside a Go module?)", c.Name)
	}
	base := FileBase(c.Name)

	main, err := importing(c.Package, func(f *jen.File) {
		g.testHead(f)
		if c.Entry.NegativeControl() {
			// Stress could only pass by luck, or fail by luck: the controlled
			// scheduler's test is the check that must always fail.
			docLines(f, fmt.Sprintf("%s is a negative control (%s): it is not stress-tested; the\nlockgen_check build's Test%sExploreFindsViolation must break it.", c.Name, negativeReason(c.Entry), c.Name))
		} else {
			g.stressTest(f)
		}
		g.misuseTests(f)
		g.zeroValueTest(f)
		g.giveUpTest(f)
	}, c.ImportPath)
	if err != nil {
		return nil, err
	}

	x := jen.NewFile(c.Package + "_test")
	x.HeaderComment("//go:build lockgen_check")
	x.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))
	x.ImportName(verifyPath, "verify")
	if c.Entry.NegativeControl() {
		docLines(x, fmt.Sprintf("Test%sExploreFindsViolation requires the controlled scheduler to break\nthe lock (%s): a checker that stops catching it fails here.", c.Name, negativeReason(c.Entry)))
		layerTest(x, "Test"+c.Name+"ExploreFindsViolation", jen.Qual(verifyPath, "ExploreFinds"), jen.Id(g.subjectName()).Call(), jen.Qual(verifyPath, "ExploreMutualExclusion"))
	} else {
		docLines(x, fmt.Sprintf("Test%sExplore runs the lock under the controlled scheduler: random and PCT\nschedules, and bounded exhaustive search on a tiny configuration. It needs the\ninstrumented registers: go test -tags lockgen_check.", c.Name))
		layerTest(x, "Test"+c.Name+"Explore", jen.Qual(verifyPath, "Explore"), jen.Id(g.subjectName()).Call())
	}
	check, err := render(x)
	if err != nil {
		return nil, err
	}
	return []File{{Name: base + "_test.go", Data: main}, {Name: base + "_check_test.go", Data: check}}, nil
}

// testHead starts a lock's test file (package <pkg>_test, the lock's
// package imported under the name importing chose): the header and the
// subject function.
func (g *gen) testHead(f *jen.File) {
	c := g.c
	f.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))
	f.ImportName(verifyPath, "verify")
	g.subjectFunc(f)
	f.Line()
}

// stressTest emits Test<Name>Stress.
func (g *gen) stressTest(f *jen.File) {
	docLines(f, fmt.Sprintf("Test%sStress checks mutual exclusion, progress and the critical-section\ncounter under real contention; run it with -race.", g.c.Name))
	layerTest(f, "Test"+g.c.Name+"Stress", jen.Qual(verifyPath, "Stress"), jen.Id(g.subjectName()).Call())
}

func (g *gen) subjectName() string { return SubjectFunc(g.c.Name) }

// SubjectFunc names the function of a lock's generated tests that returns
// its verify.Subject (drivers such as lockgen verify call it).
func SubjectFunc(lockName string) string { return lowerName(lockName) + "Subject" }

func negativeReason(e *templates.Entry) string {
	if e.Incorrect != "" {
		return "known to be incorrect"
	}
	return "safe only under timing Go cannot promise"
}

func (g *gen) pkg(name string) *jen.Statement { return jen.Qual(g.c.ImportPath, name) }

// importing renders an external test file of package pkg (at importPath)
// that build writes. The file imports the package under its own name,
// unless the file uses that name for something else (a local such as t,
// l or done, a predeclared identifier such as string, another import):
// then under the first of pkg+"pkg", pkg+"pkg2", ... it does not use.
// Which names the file uses is read off the file itself, rendered once
// with the package under a name no generated code takes.
func importing(pkg string, build func(*jen.File), importPath string) ([]byte, error) {
	const probe = "lockgenImportProbe"
	renderAs := func(alias string) ([]byte, error) {
		f := jen.NewFile(pkg + "_test")
		if alias == pkg {
			f.ImportName(importPath, pkg)
		} else {
			f.ImportAlias(importPath, alias)
		}
		build(f)
		return render(f)
	}
	src, err := renderAs(probe)
	if err != nil {
		return nil, err
	}
	used := identifiers(src)
	alias := pkg
	for i := 1; used[alias]; i++ {
		alias = pkg + "pkg"
		if i > 1 {
			alias += strconv.Itoa(i)
		}
	}
	return renderAs(alias)
}

// identifiers is the set of identifiers src spells.
func identifiers(src []byte) map[string]bool {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	out := map[string]bool{}
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT {
			out[lit] = true
		}
	}
}

// subjectFunc emits the verify.Subject describing the lock: its shape and
// what it promises (k holders, FIFO).
func (g *gen) subjectFunc(f *jen.File) {
	c := g.c
	name := jen.Lit(c.Name)
	newLock := g.pkg("New" + c.Name)
	locker := jen.Qual("sync", "Locker")
	var subj *jen.Statement
	switch {
	case c.Mode.Readers() && g.api.HolderState():
		subj = jen.Qual(verifyPath, "RWLocker").Call(name, jen.Func().Params().Qual(verifyPath, "RWLock").Block(jen.Return(newLock.Clone().Call())))
	case g.api.HolderState():
		subj = jen.Qual(verifyPath, "Locker").Call(name, jen.Func().Params().Add(locker).Block(jen.Return(newLock.Clone().Call())))
	case g.api.TakesIDs():
		subj = jen.Qual(verifyPath, "IDLocker").Call(name, g.pkg(g.procsConst()), jen.Func().Params().Qual(verifyPath, "IDLock").Block(jen.Return(newLock.Clone().Call())))
	case g.api == shape.Handles:
		subj = jen.Qual(verifyPath, "PerProcess").Call(name, jen.Func().Params().Func().Params(jen.Int()).Add(locker).Block(
			jen.Id("l").Op(":=").Add(newLock.Clone().Call()),
			jen.Return(jen.Func().Params(jen.Int()).Add(locker).Block(jen.Return(jen.Id("l").Dot("NewHandle").Call())))))
	case g.api == shape.CallerNodes:
		subj = jen.Qual(verifyPath, "PerProcess").Call(name, jen.Func().Params().Func().Params(jen.Int()).Add(locker).Block(
			jen.Id("l").Op(":=").Add(newLock.Clone().Call()),
			jen.Return(jen.Func().Params(jen.Int()).Add(locker).Block(
				jen.Return(jen.Op("&").Id(g.low+"NodeLocker").Values(jen.Dict{jen.Id("l"): jen.Id("l")}))))))
		g.nodeLocker(f)
	}
	if c.Mode.TakesK() {
		subj = subj.Dot("WithK").Call(g.pkg(g.kConst()))
	}
	if !g.api.TakesIDs() && c.Params.N > 0 {
		// procs only sizes the lock: no more goroutines than that may use it.
		subj = subj.Dot("WithProcs").Call(g.pkg(g.procsConst()))
	}
	if g.props().FIFOClaim() {
		subj = subj.Dot("WithFIFO").Call()
	}
	if c.Mode.Crashes(c.Params.K) > 0 && g.props().CrashTolerant {
		// The parking policies' sleeps are not crash tolerant (a waiter
		// that stops while counted awake is trusted to see a write): with
		// them, the crashes are only those Go can produce, inside the
		// critical section.
		subj = subj.Dot("WithCrashTolerance").Call(g.pkg(g.kConst()).Op("-").Lit(1), jen.Lit(!c.Wait.Parks()))
	}
	if p := g.props(); p.FIFESteps != nil {
		subj = subj.Dot("WithFIFE").Call(jen.Lit(p.FIFESteps(c.Params.N)))
	}
	if g.props().WriterPriority {
		subj = subj.Dot("WithWriterPriority").Call()
	}
	if p := g.props(); p.Overtakes != nil {
		subj = subj.Dot("WithBoundedWaiting").Call(jen.Lit(p.Overtakes(c.Params.N)), jen.Lit(p.OvertakesAcquireOnly))
	}
	f.Comment(fmt.Sprintf("%s describes %s to verify.", g.subjectName(), aName(c.Name)))
	f.Func().Id(g.subjectName()).Params().Qual(verifyPath, "Subject").Block(jen.Return(subj))
}

// nodeLocker adapts a lock taking caller-owned nodes to sync.Locker: one
// node per process, as a caller would keep it.
func (g *gen) nodeLocker(f *jen.File) {
	t := g.low + "NodeLocker"
	f.Comment(fmt.Sprintf("%s is one process's use of %s with its own node.", t, aName(g.c.Name)))
	f.Type().Id(t).Struct(jen.Id("l").Op("*").Add(g.pkg(g.c.Name)), jen.Id("n").Add(g.pkg(g.nodeType())))
	f.Func().Params(jen.Id("p").Op("*").Id(t)).Id("Lock").Params().Block(jen.Id("p").Dot("l").Dot("Lock").Call(jen.Op("&").Id("p").Dot("n")))
	f.Func().Params(jen.Id("p").Op("*").Id(t)).Id("Unlock").Params().Block(jen.Id("p").Dot("l").Dot("Unlock").Call(jen.Op("&").Id("p").Dot("n")))
	if g.c.TryLock {
		f.Func().Params(jen.Id("p").Op("*").Id(t)).Id("TryLock").Params().Bool().Block(jen.Return(jen.Id("p").Dot("l").Dot("TryLock").Call(jen.Op("&").Id("p").Dot("n"))))
	}
	if g.c.Context {
		f.Func().Params(jen.Id("p").Op("*").Id(t)).Id("LockContext").Params(jen.Id("ctx").Qual("context", "Context")).Error().Block(
			jen.Return(jen.Id("p").Dot("l").Dot("LockContext").Call(jen.Id("ctx"), jen.Op("&").Id("p").Dot("n"))))
	}
	f.Line()
}

// misuseTests checks the panics the contract promises.
func (g *gen) misuseTests(f *jen.File) {
	c := g.c
	newLock := g.pkg("New" + c.Name).Call()
	type misuse struct {
		what string
		do   []jen.Code
	}
	// A passage with nothing inside, before the release made once too
	// often: staticcheck reports an empty critical section (SA2001) at
	// its release, which here is the point.
	emptyPassage := jen.Comment("//lint:ignore SA2001 the passage is empty on purpose: the test is of the release after it")
	var cases []misuse
	switch g.api {
	case shape.Locker:
		cases = append(cases, misuse{"Unlock of an unlocked lock", []jen.Code{newLock.Clone().Dot("Unlock").Call()}},
			// The zero value's first call may be the Unlock: the misuse
			// check comes before the setup a Lock would run.
			misuse{"Unlock of a zero-value lock", []jen.Code{jen.Var().Id("l").Add(g.pkg(c.Name)), jen.Id("l").Dot("Unlock").Call()}})
		if c.Params.K > 1 {
			// A k-exclusion lock admits k holders: only a release beyond
			// them all is caught.
			cases = append(cases, misuse{"Unlock once too often", []jen.Code{jen.Id("l").Op(":=").Add(newLock.Clone()), jen.Id("l").Dot("Lock").Call(), emptyPassage.Clone(), jen.Id("l").Dot("Unlock").Call(), jen.Id("l").Dot("Unlock").Call()}})
		}
		if c.Mode.Readers() {
			cases = append(cases, misuse{"Unlock of a read-locked lock", []jen.Code{jen.Id("l").Op(":=").Add(newLock.Clone()), jen.Id("l").Dot("RLock").Call(), jen.Id("l").Dot("Unlock").Call()}})
		}
		if c.Mode.Readers() && g.a.RReleaseMisuse != nil {
			cases = append(cases,
				misuse{"RUnlock of an unlocked lock", []jen.Code{newLock.Clone().Dot("RUnlock").Call()}},
				misuse{"RUnlock once too often", []jen.Code{jen.Id("l").Op(":=").Add(newLock.Clone()), jen.Id("l").Dot("RLock").Call(), emptyPassage.Clone(), jen.Id("l").Dot("RUnlock").Call(), jen.Id("l").Dot("RUnlock").Call()}})
		}
	case shape.IDs:
		cases = append(cases,
			misuse{"Unlock of an unlocked lock", []jen.Code{newLock.Clone().Dot("Unlock").Call(jen.Lit(0))}},
			misuse{"Unlock of a zero-value lock", []jen.Code{jen.Var().Id("l").Add(g.pkg(c.Name)), jen.Id("l").Dot("Unlock").Call(jen.Lit(0))}},
			misuse{"a negative id", []jen.Code{newLock.Clone().Dot("Lock").Call(jen.Lit(-1))}},
			misuse{"an id out of range", []jen.Code{newLock.Clone().Dot("Lock").Call(g.pkg(g.procsConst()))}},
			misuse{"Lock twice by one id", []jen.Code{jen.Id("l").Op(":=").Add(newLock.Clone()), jen.Id("l").Dot("Lock").Call(jen.Lit(0)), jen.Id("l").Dot("Lock").Call(jen.Lit(0))}})
	case shape.Handles:
		cases = append(cases,
			misuse{"Unlock of an unlocked handle", []jen.Code{newLock.Clone().Dot("NewHandle").Call().Dot("Unlock").Call()}},
			misuse{"Lock twice through one handle", []jen.Code{jen.Id("h").Op(":=").Add(newLock.Clone()).Dot("NewHandle").Call(), jen.Id("h").Dot("Lock").Call(), jen.Id("h").Dot("Lock").Call()}},
			misuse{"a handle not made by NewHandle", []jen.Code{jen.Var().Id("h").Add(g.pkg(g.handleType())), jen.Id("h").Dot("Lock").Call()}})
	case shape.CallerNodes:
		cases = append(cases, misuse{"Unlock with an unused node", []jen.Code{newLock.Clone().Dot("Unlock").Call(jen.New(g.pkg(g.nodeType())))}},
			misuse{"Lock with a nil node", []jen.Code{newLock.Clone().Dot("Lock").Call(jen.Nil())}},
			misuse{"Unlock with a nil node", []jen.Code{newLock.Clone().Dot("Unlock").Call(jen.Nil())}})
		if c.TryLock {
			cases = append(cases, misuse{"TryLock with a nil node", []jen.Code{newLock.Clone().Dot("TryLock").Call(jen.Nil())}})
		}
	}
	var body []jen.Code
	for _, m := range cases {
		body = append(body, jen.Id(g.low+"MustPanic").Call(jen.Id("t"), jen.Lit(m.what), jen.Func().Params().Block(m.do...)))
	}
	f.Line()
	f.Comment(fmt.Sprintf("Test%sMisuse checks that misuse panics with a clear message.", c.Name))
	f.Func().Id("Test" + c.Name + "Misuse").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
	f.Line()
	f.Comment(fmt.Sprintf("%sMustPanic runs f and fails unless it panics with a lockgen message.", g.low))
	f.Func().Id(g.low+"MustPanic").Params(jen.Id("t").Op("*").Qual("testing", "T"), jen.Id("what").String(), jen.Id("f").Func().Params()).Block(
		jen.Id("t").Dot("Helper").Call(),
		jen.Defer().Func().Params().Block(
			jen.Id("r").Op(":=").Recover(),
			jen.List(jen.Id("msg"), jen.Id("_")).Op(":=").Id("r").Assert(jen.String()),
			jen.If(jen.Op("!").Qual("strings", "HasPrefix").Call(jen.Id("msg"), jen.Lit("lockgen: "))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("%s: want a lockgen panic, got %v"), jen.Id("what"), jen.Id("r")))).Call(),
		jen.Id("f").Call())
}

// zeroValueTest declares the lock as a Go user would (var l pkg.X) and
// makes two passages through it, each by two processes where the lock
// has ids, under a watchdog: a zero value that is not ready hangs or
// panics here, and each passage counts itself inside.
func (g *gen) zeroValueTest(f *jen.File) {
	c := g.c
	var use []jen.Code
	use = append(use, jen.Var().Id("l").Add(g.pkg(c.Name)))
	passages := 0
	pass := func(lock, unlock *jen.Statement) {
		use = append(use, lock, jen.Id("passages").Op("++"), unlock)
		passages++
	}
	for i := 0; i < 2; i++ {
		switch g.api {
		case shape.Locker:
			pass(jen.Id("l").Dot("Lock").Call(), jen.Id("l").Dot("Unlock").Call())
		case shape.IDs:
			pass(jen.Id("l").Dot("Lock").Call(jen.Lit(i)), jen.Id("l").Dot("Unlock").Call(jen.Lit(i)))
		case shape.Handles:
			if i == 0 {
				use = append(use, jen.Id("h").Op(":=").Id("l").Dot("NewHandle").Call())
			}
			pass(jen.Id("h").Dot("Lock").Call(), jen.Id("h").Dot("Unlock").Call())
		case shape.CallerNodes:
			if i == 0 {
				use = append(use, jen.Var().Id("n").Add(g.pkg(g.nodeType())))
			}
			pass(jen.Id("l").Dot("Lock").Call(jen.Op("&").Id("n")), jen.Id("l").Dot("Unlock").Call(jen.Op("&").Id("n")))
		}
		if c.Mode.Readers() && g.api.HolderState() {
			pass(jen.Id("l").Dot("RLock").Call(), jen.Id("l").Dot("RUnlock").Call())
		}
	}
	if c.Context {
		// A passage through LockContext, as a first use could be.
		var lockCtx, unlock *jen.Statement
		bg := jen.Qual("context", "Background").Call()
		switch g.api {
		case shape.Locker:
			lockCtx, unlock = jen.Id("l").Dot("LockContext").Call(bg), jen.Id("l").Dot("Unlock").Call()
		case shape.IDs:
			lockCtx, unlock = jen.Id("l").Dot("LockContext").Call(bg, jen.Lit(0)), jen.Id("l").Dot("Unlock").Call(jen.Lit(0))
		case shape.Handles:
			lockCtx, unlock = jen.Id("h").Dot("LockContext").Call(bg), jen.Id("h").Dot("Unlock").Call()
		case shape.CallerNodes:
			lockCtx, unlock = jen.Id("l").Dot("LockContext").Call(bg, jen.Op("&").Id("n")), jen.Id("l").Dot("Unlock").Call(jen.Op("&").Id("n"))
		}
		pass(jen.If(jen.Err().Op(":=").Add(lockCtx), jen.Err().Op("!=").Nil()).Block(
			jen.Id("t").Dot("Errorf").Call(jen.Lit("LockContext with a context never done: %v"), jen.Err()), jen.Return()), unlock)
	}
	f.Line()
	docLines(f, fmt.Sprintf("Test%sZeroValue uses %s declared as a variable, without New%s,\nas sync.Mutex is used.", c.Name, aName(c.Name), c.Name))
	f.Func().Id("Test"+c.Name+"ZeroValue").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("done").Op(":=").Make(jen.Chan().Struct()),
		jen.Id("passages").Op(":=").Lit(0),
		jen.Go().Func().Params().Block(append([]jen.Code{jen.Defer().Close(jen.Id("done"))}, use...)...).Call(),
		jen.Select().Block(
			jen.Case(jen.Op("<-").Id("done")),
			jen.Case(jen.Op("<-").Qual("time", "After").Call(jen.Lit(10).Op("*").Qual("time", "Second"))).Block(
				jen.Id("t").Dot("Fatal").Call(jen.Lit("the zero value hangs: it is not ready to use"))),
		),
		jen.If(jen.Id("passages").Op("!=").Lit(passages)).Block(
			jen.Id("t").Dot("Errorf").Call(jen.Lit(fmt.Sprintf("%%d passages entered the critical section, want %d", passages)), jen.Id("passages"))),
	)
}
