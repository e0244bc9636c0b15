package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFastPathsInline checks, with the compiler's own inlining report
// (go build -gcflags=-m=2), that the public methods of the catalogue's
// fast locks make no call of lockgen's on their uncontended path: every
// register access, wake check, doorway mark and id check in Lock, Unlock
// and TryLock is inlined. The only calls left are the continuations
// (*SlowN), taken when the lock must wait, and panics on misuse.
// LockContext, where a spec asks for it (TASContext, LamportFastContext,
// CLH-try), is checked the same way: its uncontended path is Lock's.
func TestFastPathsInline(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles ten generated packages")
	}
	pkgs := []string{"tas", "ttas", "ticket", "replace-add", "mcs", "clh", "anderson", "graunke-thakkar", "dvir-taubenfeld-1", "dvir-taubenfeld-2", "lamport-fast", "clh-try"}
	inlined := regexp.MustCompile(`^(.*\.go):(\d+):(\d+): inlining call to `)
	for _, p := range pkgs {
		dir := filepath.Join("..", "..", "generated", p)
		out, err := exec.Command("go", "build", "-gcflags=-m=2", "./"+filepath.ToSlash(dir)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", p, err, out)
		}
		sites := map[string]bool{}
		for _, line := range strings.Split(string(out), "\n") {
			if m := inlined.FindStringSubmatch(line); m != nil {
				sites[filepath.Base(m[1])+":"+m[2]+":"+m[3]] = true
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		checked := 0
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") || strings.HasPrefix(filepath.Base(file), "lockgen_") || filepath.Base(file) == "gen.go" {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || !map[string]bool{"Lock": true, "Unlock": true, "TryLock": true, "LockContext": true}[fn.Name.Name] {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					name := ""
					switch f := call.Fun.(type) {
					case *ast.SelectorExpr:
						name = f.Sel.Name
					case *ast.Ident:
						name = f.Name
					}
					// Continuations, misuse panics, conversions; setup, the
					// zero value's one-time initialisation, taken on a lock's
					// first use only (behind one load of setupDone); and the
					// node policies' own cost: nodes = "pool" takes and returns a
					// record through sync.Pool (getX, Put), nodes = "heap"
					// allocates one (newX) on every passage.
					if strings.Contains(name, "Slow") || name == "panic" || name == "int64" || name == "Put" || name == "setup" ||
						strings.HasPrefix(name, "get") || strings.HasPrefix(name, "new") {
						return true
					}
					checked++
					pos := fset.Position(call.Lparen)
					// The compiler reports a call at the position of its
					// selector's dot or of the identifier.
					start := fset.Position(call.Fun.Pos())
					key := func(p token.Position) string {
						return filepath.Base(p.Filename) + ":" + itoa(p.Line) + ":" + itoa(p.Column)
					}
					found := sites[key(pos)] || sites[key(start)]
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
						found = found || sites[key(fset.Position(sel.Sel.Pos()))]
					}
					if !found {
						t.Errorf("%s: %s.%s calls %s without inlining it (%s)", p, recvName(fn), fn.Name.Name, name, key(start))
					}
					return true
				})
			}
		}
		if checked == 0 {
			t.Errorf("%s: no call checked: the test no longer finds the methods", p)
		}
	}
}

// TestGuardedMethodsInline checks, with the compiler's verdicts, that the
// locks whose uncontended passages are guarded (guard.go) have a Lock and
// an Unlock that inline into their callers, as sync.Mutex's do: that is
// what the guard is for, and a change to the guard's emission, to the
// registers or to the inliner that undoes it must not go unnoticed.
func TestGuardedMethodsInline(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles two generated packages")
	}
	verdict := regexp.MustCompile(`(can|cannot) inline \(\*(\w+)\)\.(Lock|Unlock|LockContext)\b(?: with cost (\d+)|: function too complex: cost (\d+))`)
	// TTASShort's waiters spin and yield: its acquire has no guard
	// (guard.go, acquireGuarded), only its release.
	// TASContext's LockContext takes Lock's guard.
	for p, locks := range map[string][]string{"tas": {"TAS", "TASContext"}, "ttas": {"TTAS"}} {
		out, err := exec.Command("go", "build", "-gcflags=-m=2", "./"+filepath.ToSlash(filepath.Join("..", "..", "generated", p))).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", p, err, out)
		}
		got := map[string]string{}
		for _, m := range verdict.FindAllStringSubmatch(string(out), -1) {
			got[m[2]+"."+m[3]] = m[1] + " inline, cost " + m[4] + m[5]
		}
		for _, l := range locks {
			methods := []string{"Lock", "Unlock"}
			if strings.HasSuffix(l, "Context") {
				methods = append(methods, "LockContext")
			}
			for _, method := range methods {
				v, ok := got[l+"."+method]
				switch {
				case !ok:
					t.Errorf("%s.%s: no verdict in the compiler's report", l, method)
				case !strings.HasPrefix(v, "can "):
					t.Errorf("%s.%s: %s; its guard should make it inline", l, method, v)
				default:
					t.Logf("%s.%s: %s", l, method, v)
				}
			}
		}
	}
}

func recvName(fn *ast.FuncDecl) string {
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

func itoa(n int) string { return strconv.Itoa(n) }
