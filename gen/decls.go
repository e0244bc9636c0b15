package gen

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// planned is one file of a package being planned, with the lock that
// generates it ("" for the runtime files).
type planned struct {
	name string
	data []byte
	lock string
}

// clash is two files of one package that declare the same identifier in a
// build configuration the go tool uses.
type clash struct {
	ident      string
	first, dup planned
}

// buildConfig is one way the go tool compiles a generated package: with or
// without the lockgen_check tag, as the package itself or its test binary.
type buildConfig struct {
	check, test bool
}

var buildConfigs = []buildConfig{{false, false}, {true, false}, {false, true}, {true, true}}

// fileDecls is what one parsed file contributes to its package's scope.
type fileDecls struct {
	f        planned
	pkg      string // package clause: p or p_test
	test     bool   // a _test.go file
	tags     constraint.Expr
	declared []string // package-level identifiers
	imported []string // file-level import names
}

// findClashes parses a planned package and returns the identifiers that two
// of its files both declare, or that one file declares at package level and
// another imports, in some build configuration: code the compiler would
// reject although every lock in it is valid on its own (a lock Q declares
// QNode, and a second lock may be named QNode).
func findClashes(files []planned) ([]clash, error) {
	var parsed []fileDecls
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.name, f.data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("generated %s does not parse: %v", f.name, err)
		}
		d := fileDecls{f: f, pkg: af.Name.Name, test: strings.HasSuffix(f.name, "_test.go")}
		for _, cg := range af.Comments {
			for _, c := range cg.List {
				if constraint.IsGoBuild(c.Text) {
					if d.tags, err = constraint.Parse(c.Text); err != nil {
						return nil, fmt.Errorf("generated %s: %v", f.name, err)
					}
				}
			}
		}
		d.declared = topLevel(af)
		for _, imp := range af.Imports {
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			} else {
				path := strings.Trim(imp.Path.Value, `"`)
				name = path[strings.LastIndex(path, "/")+1:]
			}
			if name != "_" && name != "." {
				d.imported = append(d.imported, name)
			}
		}
		parsed = append(parsed, d)
	}

	seen := map[[2]string]bool{}
	var out []clash
	report := func(ident string, a, b planned) {
		key := [2]string{ident, a.name + "\x00" + b.name}
		if !seen[key] {
			seen[key] = true
			out = append(out, clash{ident: ident, first: a, dup: b})
		}
	}
	for _, cfg := range buildConfigs {
		// The package (with its in-package tests when cfg.test) and, when
		// testing, the external test package, each one scope.
		scopes := map[string][]fileDecls{}
		for _, d := range parsed {
			if d.test && !cfg.test {
				continue
			}
			if d.tags != nil && !d.tags.Eval(func(tag string) bool { return tag == "lockgen_check" && cfg.check }) {
				continue
			}
			scopes[d.pkg] = append(scopes[d.pkg], d)
		}
		for _, scope := range scopes {
			where := map[string]planned{}
			for _, d := range scope {
				for _, id := range d.declared {
					if first, dup := where[id]; dup {
						report(id, first, d.f)
						continue
					}
					where[id] = d.f
				}
			}
			for _, d := range scope {
				for _, id := range d.imported {
					if decl, clashes := where[id]; clashes {
						report(id, decl, d.f)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].dup.name != out[j].dup.name {
			return out[i].dup.name < out[j].dup.name
		}
		return out[i].ident < out[j].ident
	})
	return out, nil
}

// topLevel lists a file's package-level identifiers: functions (not
// methods), types, variables and constants. init and _ may repeat.
func topLevel(f *ast.File) []string {
	var ids []string
	add := func(id *ast.Ident) {
		if id.Name != "_" && id.Name != "init" {
			ids = append(ids, id.Name)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n)
					}
				}
			}
		}
	}
	return ids
}
