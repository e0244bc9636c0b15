package golang

import (
	"fmt"

	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"

	"github.com/dave/jennifer/jen"
)

// giveUpTest emits Test<Name>LockContextGivesUp (context = true, mutual
// exclusion: a k-exclusion lock need not let k processes in at once, as
// the filter lock's levels do not, so nothing guarantees that a k+1st
// waits at all): with the lock held, another process's
// LockContext must return context.DeadlineExceeded once its deadline
// passes; then, the holders gone, that process's next LockContext must
// work and every process must pass in turn, which hangs if the attempt
// that gave up left anything behind (a flag up, a node in the queue, a
// sleeper counted). Stress and Explore give up at random points besides
// (verify's AcquireContext); this is the plain case a user meets first.
func (g *gen) giveUpTest(f *jen.File) {
	c := g.c
	if !c.Context || c.Mode.TakesK() {
		return
	}
	const k = 1
	t, l, ctx := jen.Id("t"), jen.Id("l"), jen.Id("ctx")
	body := []jen.Code{
		jen.If(jen.Qual(verifyPath, "CheckBuild")).Block(
			t.Clone().Dot("Skip").Call(jen.Lit("the lockgen_check build gives every wait a waiter of its own"))),
		l.Clone().Op(":=").Add(g.pkg("New" + c.Name)).Call(),
	}
	body = append(body, g.contextCallers()...)
	done := jen.Id("done")
	within := func(what string, then ...jen.Code) jen.Code {
		return jen.Select().Block(
			jen.Case(jen.Err().Op(":=").Op("<-").Add(done)).Block(then...),
			jen.Case(jen.Op("<-").Qual("time", "After").Call(jen.Lit(10).Op("*").Qual("time", "Second"))).Block(t.Clone().Dot("Fatal").Call(jen.Lit(what))))
	}
	body = append(body,
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Lit(k), jen.Id("i").Op("++")).Block(jen.Id("lock").Call(jen.Id("i"))),
		jen.List(ctx, jen.Id("cancel")).Op(":=").Qual("context", "WithTimeout").Call(jen.Qual("context", "Background").Call(), jen.Lit(20).Op("*").Qual("time", "Millisecond")),
		jen.Defer().Id("cancel").Call(),
		done.Clone().Op(":=").Make(jen.Chan().Error(), jen.Lit(1)),
		jen.Go().Func().Params().Block(done.Clone().Op("<-").Id("lockCtx").Call(ctx, jen.Lit(k))).Call(),
		within("LockContext on a held lock did not give up when its context was done",
			jen.If(jen.Err().Op("!=").Qual("context", "DeadlineExceeded")).Block(
				t.Clone().Dot("Fatalf").Call(jen.Lit("LockContext on a held lock returned %v, want context.DeadlineExceeded"), jen.Err()))),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Lit(k), jen.Id("i").Op("++")).Block(jen.Id("unlock").Call(jen.Id("i"))),
		jen.Go().Func().Params().Block(
			jen.If(jen.Err().Op(":=").Id("lockCtx").Call(jen.Qual("context", "Background").Call(), jen.Lit(k)), jen.Err().Op("!=").Nil()).Block(
				done.Clone().Op("<-").Err(), jen.Return()),
			jen.Id("unlock").Call(jen.Lit(k)),
			jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<=").Lit(k), jen.Id("i").Op("++")).Block(jen.Id("lock").Call(jen.Id("i")), jen.Id("unlock").Call(jen.Id("i"))),
			done.Clone().Op("<-").Nil(),
		).Call(),
		within("after a LockContext gave up, the lock hangs: the attempt left something behind",
			jen.If(jen.Err().Op("!=").Nil()).Block(t.Clone().Dot("Fatalf").Call(jen.Lit("the next LockContext of the process that gave up: %v"), jen.Err()))),
	)
	f.Line()
	docLines(f, fmt.Sprintf("Test%sLockContextGivesUp: a LockContext on a held lock returns the context's\nerror once its deadline passes, and leaves nothing behind: the same process's\nnext LockContext works, and every process passes in turn.", c.Name))
	f.Func().Id("Test" + c.Name + "LockContextGivesUp").Params(t.Clone().Op("*").Qual("testing", "T")).Block(body...)
	g.allocsTest(f)
}

// contextCallers declares, for a test with the lock in l, the closures
// lock(p), unlock(p) and lockCtx(ctx, p) by which process p (0 or 1)
// uses it, whatever its shape.
func (g *gen) contextCallers() []jen.Code {
	const procs = 2
	l, p, ctx := jen.Id("l"), jen.Id("p"), jen.Id("ctx")
	var setup []jen.Code
	var lock, unlock, lockCtx jen.Code
	switch g.api {
	case shape.Locker:
		lock, unlock = l.Clone().Dot("Lock").Call(), l.Clone().Dot("Unlock").Call()
		lockCtx = jen.Return(l.Clone().Dot("LockContext").Call(ctx))
	case shape.IDs:
		lock, unlock = l.Clone().Dot("Lock").Call(p), l.Clone().Dot("Unlock").Call(p)
		lockCtx = jen.Return(l.Clone().Dot("LockContext").Call(ctx, p))
	case shape.Handles:
		setup = append(setup, jen.Var().Id("hs").Index(jen.Lit(procs)).Op("*").Add(g.pkg(g.handleType())),
			jen.For(jen.Id("i").Op(":=").Range().Id("hs")).Block(jen.Id("hs").Index(jen.Id("i")).Op("=").Add(l).Dot("NewHandle").Call()))
		h := jen.Id("hs").Index(p)
		lock, unlock = h.Clone().Dot("Lock").Call(), h.Clone().Dot("Unlock").Call()
		lockCtx = jen.Return(h.Clone().Dot("LockContext").Call(ctx))
	case shape.CallerNodes:
		setup = append(setup, jen.Var().Id("ns").Index(jen.Lit(procs)).Add(g.pkg(g.nodeType())))
		n := jen.Op("&").Id("ns").Index(p)
		lock, unlock = l.Clone().Dot("Lock").Call(n), l.Clone().Dot("Unlock").Call(n.Clone())
		lockCtx = jen.Return(l.Clone().Dot("LockContext").Call(ctx, n.Clone()))
	}
	byProcess := func(name string, params, results []jen.Code, body jen.Code) jen.Code {
		return jen.Id(name).Op(":=").Func().Params(append(params, p.Clone().Int())...).Params(results...).Block(body)
	}
	return append(setup,
		byProcess("lock", nil, nil, lock), byProcess("unlock", nil, nil, unlock),
		byProcess("lockCtx", []jen.Code{ctx.Clone().Qual("context", "Context")}, []jen.Code{jen.Error()}, lockCtx))
}

// allocsTest emits Test<Name>LockContextAllocs (issue 48's target: no
// allocation per passage, aborted passages included): an uncontended
// LockContext and Unlock, and a LockContext that gives up at once (its
// context already cancelled) while another process holds the lock,
// allocate nothing in the steady state. Not for nodes = "heap", whose
// passages allocate their node by design.
func (g *gen) allocsTest(f *jen.File) {
	c := g.c
	if c.Nodes == nodes.Heap {
		return
	}
	t, l, bg := jen.Id("t"), jen.Id("l"), jen.Qual("context", "Background").Call()
	allocs := func(what string, run ...jen.Code) jen.Code {
		return jen.If(jen.Id("n").Op(":=").Qual("testing", "AllocsPerRun").Call(jen.Lit(100), jen.Func().Params().Block(run...)), jen.Id("n").Op("!=").Lit(0)).Block(
			t.Clone().Dot("Errorf").Call(jen.Lit(what+" allocates %v times, want 0"), jen.Id("n")))
	}
	body := []jen.Code{
		jen.If(jen.Qual(verifyPath, "CheckBuild")).Block(
			t.Clone().Dot("Skip").Call(jen.Lit("the lockgen_check build gives every wait a waiter of its own"))),
		l.Clone().Op(":=").Add(g.pkg("New" + c.Name)).Call(),
	}
	body = append(body, g.contextCallers()...)
	body = append(body,
		allocs("an uncontended LockContext and Unlock",
			jen.If(jen.Err().Op(":=").Id("lockCtx").Call(bg, jen.Lit(0)), jen.Err().Op("!=").Nil()).Block(
				t.Clone().Dot("Fatalf").Call(jen.Lit("uncontended LockContext: %v"), jen.Err())),
			jen.Id("unlock").Call(jen.Lit(0))),
		jen.List(jen.Id("cancelled"), jen.Id("cancel")).Op(":=").Qual("context", "WithCancel").Call(bg),
		jen.Id("cancel").Call(),
		jen.Id("lock").Call(jen.Lit(0)),
		allocs("a LockContext that gives up",
			jen.If(jen.Err().Op(":=").Id("lockCtx").Call(jen.Id("cancelled"), jen.Lit(1)), jen.Err().Op("!=").Qual("context", "Canceled")).Block(
				t.Clone().Dot("Fatalf").Call(jen.Lit("LockContext on a held lock with a cancelled context: %v, want context.Canceled"), jen.Err()))),
		jen.Id("unlock").Call(jen.Lit(0)),
	)
	f.Line()
	docLines(f, fmt.Sprintf("Test%sLockContextAllocs: an uncontended LockContext and Unlock allocate\nnothing, nor does a LockContext that gives up (its context cancelled) while\nanother process holds the lock.", c.Name))
	f.Func().Id("Test" + c.Name + "LockContextAllocs").Params(t.Clone().Op("*").Qual("testing", "T")).Block(body...)
}
