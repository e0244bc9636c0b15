package golang

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// Records named by ids.
//
// A lock whose records all sit in its per-process array (the id API) names
// a record by its place there instead of by its address: record j of
// process i's field of Count records is i·Count + j + 1, and ⊥ is 0. Its
// reference registers are then integer registers, whose swap and
// compare-and-swap compile to one instruction; Go's atomic pointer
// operations are calls that carry the garbage collector's write barrier,
// about twice the cost (docs/performance.md, "This machine's limits"). The
// records never move or die while the lock lives, so an id is as good as
// an address, and no id needs freeing.

// idDeviation is what the generated doc comment says of ids.
const idDeviation = "References to records are ids, not addresses: record j of process i's records is i·(records per process) + j + 1, and ⊥ is 0. The registers holding references are integer registers, whose swap and CAS are single instructions; Go's atomic pointer operations are runtime calls that carry the garbage collector's write barrier. The records live in the lock, so an id names the same record as long as the lock lives."

// recID is how a record type's ids map to its records: per process, the
// fields that hold records of the type, one after the other.
type recID struct {
	fields []recField
	total  int // records of this type per process
}

type recField struct {
	name          string // the per-process field (Go name)
	count, offset int    // its records, and the index of its first among the process's
}

// numberRecords decides whether references are ids: with the id API, where
// every record sits in a per-process field (nil otherwise).
func (g *gen) numberRecords() map[string]recID {
	if !g.api.TakesIDs() || len(g.a.Records) == 0 {
		return nil
	}
	ids := map[string]recID{}
	for _, p := range g.a.Procs {
		id := ids[p.Rec]
		id.fields = append(id.fields, recField{name: goIdent(p.Name), count: p.Count, offset: id.total})
		id.total += p.Count
		ids[p.Rec] = id
	}
	for _, r := range g.a.Records {
		if _, ok := ids[r.Name]; !ok {
			return nil
		}
	}
	return ids
}

// recordFunc is the name of the lock's method that turns an id of record
// type rec into the record.
func (g *gen) recordFunc(rec string) string { return "record" + exportName(goIdent(rec)) }

// deref is the record a reference names, ready for a field to follow.
func (g *gen) deref(ref *jen.Statement, rec string) *jen.Statement {
	if g.recIDs == nil {
		return ref
	}
	return jen.Id("l").Dot(g.recordFunc(rec)).Call(ref)
}

// recordID is the id of record idx of process proc's field of records
// of type rec.
func (g *gen) recordID(rec, field string, proc jen.Code, idx ir.Expr, lbl string) *jen.Statement {
	id := g.recIDs[rec]
	off := 0
	for _, f := range id.fields {
		if f.name == goIdent(field) {
			off = f.offset
		}
	}
	x := jen.Int64().Call(proc)
	if g.c.WaitControl == "shared-record-ids" {
		x = jen.Lit(0) // control: every process names process 0's records
	}
	if id.total > 1 {
		x = x.Op("*").Lit(id.total)
	}
	if c, ok := idx.(ir.Const); ok {
		return x.Op("+").Lit(off + int(c.V) + 1)
	}
	return x.Op("+").Add(g.expr(idx, lbl)).Op("+").Lit(off + 1)
}

// recordFuncs emits the id-to-record methods.
func (g *gen) recordFuncs(f *jen.File) {
	if g.recIDs == nil {
		return
	}
	for _, r := range g.a.Records {
		id := g.recIDs[r.Name]
		var where []string
		for _, fl := range id.fields {
			where = append(where, fmt.Sprintf("%s[%d..%d]", fl.name, fl.offset, fl.offset+fl.count-1))
		}
		f.Line()
		if id.total == 1 {
			f.Comment(fmt.Sprintf("%s is the %s record that id r names: process r-1's %s[0] (references are ids; ⊥ is 0).", g.recordFunc(r.Name), r.Name, id.fields[0].name))
		} else {
			f.Comment(fmt.Sprintf("%s is the %s record that id r names: of process (r-1) / %d, record (r-1) mod %d of %s (references are ids; ⊥ is 0).",
				g.recordFunc(r.Name), r.Name, id.total, id.total, strings.Join(where, ", ")))
		}
		i := jen.Uint64().Call(jen.Id("r").Op("-").Lit(1))
		var body []jen.Code
		if id.total == 1 {
			body = append(body, jen.Return(jen.Op("&").Id("l").Dot("procs").Index(i).Dot(id.fields[0].name).Index(jen.Lit(0))))
		} else {
			body = append(body, jen.Id("i").Op(":=").Add(i),
				jen.List(jen.Id("p"), jen.Id("j")).Op(":=").List(jen.Op("&").Id("l").Dot("procs").Index(jen.Id("i").Op("/").Lit(id.total)), jen.Id("i").Op("%").Lit(id.total)))
			for k, fl := range id.fields {
				at := jen.Op("&").Id("p").Dot(fl.name).Index(jen.Id("j").Op("-").Lit(fl.offset))
				if fl.offset == 0 {
					at = jen.Op("&").Id("p").Dot(fl.name).Index(jen.Id("j"))
				}
				if k == len(id.fields)-1 {
					body = append(body, jen.Return(at))
				} else {
					body = append(body, jen.If(jen.Id("j").Op("<").Lit(fl.offset+fl.count)).Block(jen.Return(at)))
				}
			}
		}
		f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id(g.recordFunc(r.Name)).Params(jen.Id("r").Int64()).Op("*").Id(g.recType(r.Name)).Block(body...)
	}
}
