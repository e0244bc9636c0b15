package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// NetworkTests returns the tests of a distributed lock: netstress over
// the in-process transport (exclusion, fencing tokens, progress, readers
// sharing) and the behaviour a user relies on (cancellation, TryLock,
// misuse, a lost transport).
func NetworkTests(c NetConfig) (File, error) {
	a := c.Alg
	if a == nil {
		a = c.Entry.Def()
	}
	f := jen.NewFile(c.Package)
	f.HeaderComment(specHeader(c.SpecPath, c.SpecHash, c.Command))
	const ns = "github.com/lockgen/lockgen/verify/netstress"
	subject := "new" + c.Name + "Subject"
	f.Func().Id(subject).Params().Qual(ns, "Subject").Block(
		jen.Return(jen.Qual(ns, "Subject").Values(jen.Dict{
			jen.Id("New"): jen.Func().Params(jen.List(jen.Id("self"), jen.Id("n")).Int(), jen.Id("tr").Qual(ns, "Transport")).
				Params(jen.Qual(ns, "Lock"), jen.Error()).Block(
				jen.Return(jen.Id("New"+c.Name).Call(jen.Id("self"), jen.Id("n"), jen.Id("tr"))),
			),
			jen.Id("Zero"): jen.Func().Params().Qual(ns, "Lock").Block(jen.Return(jen.New(jen.Id(c.Name)))),
		})),
	)
	t := jen.Id("t").Op("*").Qual("testing", "T")
	body := []jen.Code{jen.Id("r").Op(":=").Qual(ns, "Run").Call(jen.Id("t"), jen.Id(subject).Call())}
	if a.RAcquire != nil {
		body = append(body, jen.If(jen.Id("r").Dot("MaxReaders").Op("<").Lit(2)).Block(
			jen.Id("t").Dot("Errorf").Call(jen.Lit("readers never shared the lock (%d reads)"), jen.Id("r").Dot("Reads")),
		))
	}
	body = append(body, jen.Id("t").Dot("Logf").Call(jen.Lit("%d reads, %d writes, %d messages, up to %d readers at once"),
		jen.Id("r").Dot("Reads"), jen.Id("r").Dot("Writes"), jen.Id("r").Dot("Messages"), jen.Id("r").Dot("MaxReaders")))
	f.Comment(fmt.Sprintf("Test%sStress runs four processes of two goroutines over the in-process transport.", c.Name))
	f.Func().Id("Test" + c.Name + "Stress").Params(t.Clone()).Block(body...)
	f.Func().Id("Test" + c.Name + "Behaviour").Params(t.Clone()).Block(
		jen.Qual(ns, "Behaviour").Call(jen.Id("t"), jen.Id(subject).Call()),
	)
	f.Comment(fmt.Sprintf("Test%sFaults crashes, restarts and removes processes of a group kept in process: the", c.Name))
	f.Comment("survivors go on in new epochs, and a fenced resource sees no overlap and no token go back.")
	f.Func().Id("Test"+c.Name+"Faults").Params(t.Clone()).Block(
		jen.Id("r").Op(":=").Qual(ns, "Faults").Call(jen.Id("t"), jen.Id(subject).Call(), jen.Qual(ns, "FaultOptions").Values()),
		jen.Id("t").Dot("Logf").Call(jen.Lit("%d faults, %d passages, %d accesses accepted, %d stale, %d requests ended by a new epoch"),
			jen.Id("r").Dot("Faults"), jen.Id("r").Dot("Passages"), jen.Id("r").Dot("Resource").Dot("Accepted"), jen.Id("r").Dot("Resource").Dot("Stale"), jen.Id("r").Dot("InFlight")),
	)
	netExamples(f, c.Name)
	data, err := render(f)
	if err != nil {
		return File{}, err
	}
	return File{Name: FileBase(c.Name) + "_test.go", Data: data}, nil
}

// netExamples adds the lock's examples to its documentation: three
// processes in one program over the in-process transport (run, its
// output checked), and one process of three over NATS (compiled only: it
// needs a server).
func netExamples(f *jen.File, T string) {
	const (
		inproc = "github.com/lockgen/lockgen/transport/inproc"
		nt     = "github.com/lockgen/lockgen/transport/natstransport"
	)
	check := func(call jen.Code, fail jen.Code) jen.Code {
		return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(fail)
	}
	fatal := jen.Qual("log", "Fatal").Call(jen.Err())
	f.Comment(fmt.Sprintf("ExampleNew%s runs three processes of the lock in one program, over lockgen's in-process", T))
	f.Comment("transport: each adds to a total under the write lock.")
	f.Func().Id("ExampleNew"+T).Params().Block(
		jen.Id("nw").Op(":=").Qual(inproc, "New").Call(jen.Lit(3), jen.Qual(inproc, "Options").Values()),
		jen.Defer().Id("nw").Dot("Close").Call(),
		jen.Id("total").Op(":=").Lit(0),
		jen.Var().Id("wg").Qual("sync", "WaitGroup"),
		jen.For(jen.Id("i").Op(":=").Range().Lit(3)).Block(
			jen.List(jen.Id("l"), jen.Err()).Op(":=").Id("New"+T).Call(jen.Id("i"), jen.Lit(3), jen.Id("nw").Dot("Endpoint").Call(jen.Id("i"))),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Panic(jen.Err())),
			jen.Id("wg").Dot("Add").Call(jen.Lit(1)),
			jen.Go().Func().Params().Block(
				jen.Defer().Id("wg").Dot("Done").Call(),
				jen.For(jen.Range().Lit(10)).Block(
					jen.Id("l").Dot("Lock").Call(),
					jen.Id("total").Op("++"),
					check(jen.Id("l").Dot("Unlock").Call(), jen.Panic(jen.Err())),
				),
			).Call(),
		),
		jen.Id("wg").Dot("Wait").Call(),
		jen.Qual("fmt", "Println").Call(jen.Id("total")),
		jen.Comment("Output: 30"),
	)
	f.Comment(fmt.Sprintf("ExampleNew%s_nats is one process of three sharing the lock over NATS, each its own", T))
	f.Comment("program with its own id (LOCK_ID) and the lock's key (LOCK_KEY). The server must run JetStream")
	f.Comment("(nats-server -js). A process that crashes, pauses past its lease or restarts is removed and the")
	f.Comment("others go on in a new epoch; hand Fence to the resource, which refuses a token older than one it")
	f.Comment("has seen (lockgen's docs/distributed.md).")
	f.Func().Id("ExampleNew"+T+"_nats").Params().Block(
		jen.List(jen.Id("id"), jen.Err()).Op(":=").Qual("strconv", "Atoi").Call(jen.Qual("os", "Getenv").Call(jen.Lit("LOCK_ID"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(fatal.Clone()),
		jen.List(jen.Id("ep"), jen.Err()).Op(":=").Qual(nt, "Connect").Call(jen.Lit("nats://127.0.0.1:4222"), jen.Lit(strings.ToLower(T)),
			jen.Id("id"), jen.Lit(3), jen.Qual(nt, "Key").Call(jen.Index().Byte().Parens(jen.Qual("os", "Getenv").Call(jen.Lit("LOCK_KEY"))))),
		jen.If(jen.Err().Op("!=").Nil()).Block(fatal.Clone()),
		jen.Defer().Id("ep").Dot("Close").Call(),
		jen.List(jen.Id("l"), jen.Err()).Op(":=").Id("New"+T).Call(jen.Id("id"), jen.Lit(3), jen.Id("ep"), jen.Id("RetryAcrossEpochs").Call()),
		jen.If(jen.Err().Op("!=").Nil()).Block(fatal.Clone()),
		jen.Defer().Id("l").Dot("Close").Call(),
		jen.List(jen.Id("ctx"), jen.Id("cancel")).Op(":=").Qual("context", "WithTimeout").Call(jen.Qual("context", "Background").Call(), jen.Lit(10).Op("*").Qual("time", "Second")),
		jen.Defer().Id("cancel").Call(),
		check(jen.Id("l").Dot("LockContext").Call(jen.Id("ctx")), fatal.Clone()),
		jen.Qual("fmt", "Println").Call(jen.Lit("writing with fencing token"), jen.Id("l").Dot("Fence").Call()),
		check(jen.Id("l").Dot("Unlock").Call(), jen.Qual("log", "Println").Call(jen.Lit("the lock failed during the passage:"), jen.Err())),
	)
}
