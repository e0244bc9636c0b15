package golang

import (
	"fmt"

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
	data, err := render(f)
	if err != nil {
		return File{}, err
	}
	return File{Name: FileBase(c.Name) + "_test.go", Data: data}, nil
}
