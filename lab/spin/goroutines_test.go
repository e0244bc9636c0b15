package spin

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// make test runs this package without the race detector: its own code
// starts no goroutine, and its time is pan's and the parsing of trails,
// which -race only slows (the black-white bakery's trail of 463,380
// steps takes 17 s without, 53 s with). A go statement here would make
// that choice wrong: move the package back to make test-race's -race line.
func TestNoGoroutines(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: a go statement; make test-race runs this package without -race", fset.Position(g.Pos()))
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}
