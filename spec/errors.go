package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a spec file. Line and Col start at 1; Col counts
// bytes, as go/token does.
type Pos struct {
	File string
	Line int
	Col  int
}

// String renders p as file:line:col (line:col when File is empty).
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is one problem in a spec file.
type Error struct {
	Pos
	Msg string // one line, naming the key and what is valid
}

func (e Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errors are all the problems found in a spec file, sorted by position.
// Parse returns them as its error; use errors.As to get them back.
type Errors []Error

// Error renders one line per problem.
func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// sort orders es by line and column, keeping the order of problems found at
// the same position.
func (es Errors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Col < es[j].Col
	})
}

// oneLine keeps a message on one line whatever text it quotes.
var oneLine = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)
