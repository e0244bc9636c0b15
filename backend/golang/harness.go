package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"

	"github.com/dave/jennifer/jen"
)

const harnessPath = "github.com/lockgen/lockgen/verify/harness"

// Layer is a verification layer a generated test runs.
type Layer uint8

const (
	LayerStress  Layer = iota // verify.Stress, every build
	LayerExplore              // verify.Explore, build tag lockgen_check
)

// HarnessTest is one test a tool adds to a generated package: a layer run
// on one lock's subject (the function Tests generates, SubjectFunc), whose
// finding the test logs for the tool (verify/harness).
type HarnessTest struct {
	Name   string // the test function
	Lock   string // the lock whose subject it checks
	Layer  Layer
	NoFIFO bool // explore without the lock's FIFO claim (harness.NoFIFO)
	// Options are verify.StressOption or verify.ExploreOption calls, as
	// ParseOption reads them.
	Options []jen.Code
}

// Harness returns the test files that run tests on package pkg's locks:
// lockgen_harness_test.go (the stress tests) and, build tag lockgen_check,
// lockgen_harness_check_test.go (the explorations). by names the tool in
// the header. A file with no test is not returned.
func Harness(pkg, by string, tests []HarnessTest) ([]File, error) {
	var out []File
	for _, part := range []struct {
		layer Layer
		name  string
		tag   string
	}{{LayerStress, "lockgen_harness_test.go", ""}, {LayerExplore, "lockgen_harness_check_test.go", "lockgen_check"}} {
		f := jen.NewFile(pkg + "_test")
		if part.tag != "" {
			f.HeaderComment("//go:build " + part.tag)
		}
		f.HeaderComment(headerComment(Header{Version: RecordedVersion(), Tool: by}))
		f.ImportName(harnessPath, "harness")
		f.ImportName(verifyPath, "verify")
		n := 0
		for _, t := range tests {
			if t.Layer != part.layer {
				continue
			}
			n++
			subject := jen.Id(SubjectFunc(t.Lock)).Call()
			if t.NoFIFO {
				subject = jen.Qual(harnessPath, "NoFIFO").Call(subject)
			}
			fn := "Stress"
			if t.Layer == LayerExplore {
				fn = "Explore"
			}
			layerTest(f, t.Name, jen.Qual(harnessPath, fn), subject, t.Options...)
		}
		if n == 0 {
			continue
		}
		data, err := render(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", part.name, err)
		}
		out = append(out, File{Name: part.name, Data: data})
	}
	return out, nil
}

// layerTest emits func name(t *testing.T) { run(t, subject, opts...) }: the
// shape of every test that runs a layer on a lock, the generated package's
// own and the tools'.
func layerTest(f *jen.File, name string, run, subject *jen.Statement, opts ...jen.Code) {
	args := append([]jen.Code{jen.Id("t"), subject}, opts...)
	f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(run.Call(args...))
}

// optionPackages are the packages an option may name.
var optionPackages = map[string]string{"verify": verifyPath, "time": "time"}

// ParseOption reads a verify option written as Go source, such as
// "verify.ExploreDFS(3)" or "verify.ExploreBudget(5*time.Minute)": a call
// of verify's whose arguments are literals, verify's or time's names, and
// arithmetic on them.
func ParseOption(src string) (jen.Code, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("option %q: %v", src, err)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, fmt.Errorf("option %q: want a call such as verify.ExploreDFS(3)", src)
	}
	code, err := optionExpr(call)
	if err != nil {
		return nil, fmt.Errorf("option %q: %v", src, err)
	}
	return code, nil
}

func optionExpr(e ast.Expr) (*jen.Statement, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT, token.FLOAT:
			return jen.Op(e.Value), nil
		case token.STRING:
			s, err := strconv.Unquote(e.Value)
			if err != nil {
				return nil, err
			}
			return jen.Lit(s), nil
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if path, ok := optionPackages[x.Name]; ok {
				return jen.Qual(path, e.Sel.Name), nil
			}
			return nil, fmt.Errorf("%s: only verify and time may be named", x.Name)
		}
	case *ast.ParenExpr:
		x, err := optionExpr(e.X)
		if err != nil {
			return nil, err
		}
		return jen.Parens(x), nil
	case *ast.UnaryExpr:
		x, err := optionExpr(e.X)
		if err != nil {
			return nil, err
		}
		return jen.Op(e.Op.String()).Add(x), nil
	case *ast.BinaryExpr:
		x, err := optionExpr(e.X)
		if err != nil {
			return nil, err
		}
		y, err := optionExpr(e.Y)
		if err != nil {
			return nil, err
		}
		return x.Op(e.Op.String()).Add(y), nil
	case *ast.CallExpr:
		fn, err := optionExpr(e.Fun)
		if err != nil {
			return nil, err
		}
		var args []jen.Code
		for _, a := range e.Args {
			x, err := optionExpr(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
		return fn.Call(args...), nil
	}
	return nil, fmt.Errorf("%T is not allowed in an option", e)
}
