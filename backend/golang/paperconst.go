package golang

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// The paper's named constants. A definition writes a constant the paper
// names by name (dsl.Named: FREE, BUSY, LOCKED, WAFLAG); the lock's file
// declares each one it uses as a Go constant, prefixed with the lock's
// name so that two locks of a package never clash (tasFREE, tasBUSY), and
// the code names it wherever the paper does: an exchange of BUSY is
// swap("1", tasBUSY), not swap("1", 1). Constants are declared as the
// lowering meets them, so that none is left unused.

// symbolNames spell the papers' symbols that are no Go identifier.
var symbolNames = map[string]string{"⊥": "Bottom", "∞": "Infinity"}

// paperConsts are the constants a lock's code names, in the order it
// first names them.
type paperConsts struct {
	idents []string
	value  map[string]int64  // by Go identifier
	paper  map[string]string // by Go identifier: the paper's name
}

// constIdent is the Go identifier of the paper's constant name, and
// whether it has one: a name with no letter (2^16) stays a number.
func (g *gen) constIdent(name string) (string, bool) {
	if s, ok := symbolNames[name]; ok {
		return g.low + s, true
	}
	if !strings.ContainsFunc(name, unicode.IsLetter) {
		return "", false
	}
	if token.IsIdentifier(name) {
		return g.low + exportName(name), true // tasFREE, eisenbergMcGuireIdle
	}
	return g.low + exportName(goIdent(name)), true // eisenbergMcGuireWantIn
}

// namedConst lowers a constant the paper names: its Go constant, or the
// negation of one ("-RC_INCR" is RC_INCR's opposite); a number where the
// name has no identifier, or where two values go by one name.
func (g *gen) namedConst(c ir.Const) *jen.Statement {
	name, v, neg := c.Name, c.V, false
	if rest, ok := strings.CutPrefix(name, "-"); ok && rest != "" {
		name, v, neg = rest, -v, true
	}
	id, ok := g.constIdent(name)
	if !ok {
		return jen.Lit(int(c.V))
	}
	if g.named.value == nil {
		g.named.value, g.named.paper = map[string]int64{}, map[string]string{}
	}
	if old, seen := g.named.value[id]; seen && old != v {
		return jen.Lit(int(c.V))
	} else if !seen {
		g.named.idents = append(g.named.idents, id)
		g.named.value[id], g.named.paper[id] = v, name
	}
	if neg {
		return jen.Op("-").Id(id)
	}
	return jen.Id(id)
}

// declareConsts fills decl, placed in the file before the code that names
// the constants was lowered, with their declarations.
func (g *gen) declareConsts(decl *jen.Statement) {
	if len(g.named.idents) == 0 {
		return
	}
	// In the order of their values, as a paper lists a register's states.
	sort.SliceStable(g.named.idents, func(i, j int) bool {
		return g.named.value[g.named.idents[i]] < g.named.value[g.named.idents[j]]
	})
	var defs []jen.Code
	for _, id := range g.named.idents {
		def := jen.Id(id).Op("=").Lit(int(g.named.value[id]))
		if name := g.named.paper[id]; id != g.low+exportName(name) {
			def.Comment(name) // the paper's spelling, where Go's differs
		}
		defs = append(defs, def)
	}
	decl.Comment(fmt.Sprintf("The constants of %s's paper, under their names there.", g.c.Name)).Line().Const().Defs(defs...)
}
