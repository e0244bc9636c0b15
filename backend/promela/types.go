package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Promela types and temporaries.

func (l *lower) ptype(t ir.Type) string {
	switch t.Kind {
	case ir.Bool:
		return "bool"
	case ir.Ref:
		return "byte"
	}
	return l.intT
}

func (l *lower) localType(name string) ir.Type {
	if l.loopVars[name] {
		return ir.TInt
	}
	if v := l.a.LocalVar(name); v != nil {
		return v.Type
	}
	return ir.TInt // loop variables outside their loop (declarations)
}

func (l *lower) locType(loc ir.Loc) ir.Type {
	switch loc := loc.(type) {
	case ir.Var:
		return l.a.SharedVar(loc.Name).Type
	case ir.Fld:
		return l.a.Record(l.a.RefRecord(loc.Ref)).Field(loc.Name).Type
	}
	return ir.TInt
}

// temp allocates a temporary of type t for the current statement.
func (l *lower) temp(t ir.Type) string {
	pt := l.ptype(t)
	i := 0
	for _, v := range l.live {
		if v.typ == pt {
			i++
		}
	}
	name := fmt.Sprintf("lg_%s%d", pt, i)
	l.temps[name] = pt
	l.live = append(l.live, tempVar{name, pt})
	return name
}

// release ends the temporaries allocated since mark and returns the
// statements that reset them.
func (l *lower) release(mark int) string {
	var rs []string
	for _, v := range l.live[mark:] {
		rs = append(rs, v.name+" = 0")
	}
	l.live = l.live[:mark]
	return strings.Join(rs, "; ")
}
