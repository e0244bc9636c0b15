package perf

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/internal/tmpmod"
)

// The compiler's -m=2 lines as go1.26 prints them: a method's verdict where
// it is declared (with its cost and budget, or the reason), calls inlined
// into a test file (the driver), calls inlined elsewhere (not counted), and
// lines about other methods and functions (ignored).
func TestParseInlining(t *testing.T) {
	out := `# example.com/locks
./tas.go:70:6: cannot inline (*TAS).Lock: function too complex: cost 89 exceeds budget 80
./tas.go:108:6: cannot inline (*TAS).Unlock: function too complex: cost 112 exceeds budget 80
./tas.go:122:6: can inline (*TAS).TryLock with cost 46 as: method(*TAS) func() bool { return true }
./tas.go:82:6: cannot inline (*TAS).acquireSlow1: unhandled op DEFER
./rw.go:10:6: can inline (*RWHandle).RUnlock with cost 24 as: method(*RWHandle) func() { }
./rw.go:20:6: cannot inline (*RWHandle).RLock: unhandled op DEFER
./rw.go:30:6: can inline (*RWHandle).Unlock with cost 30 as: method(*RWHandle) func() { }
./rw.go:40:9: inlining call to (*RWHandle).Unlock
./lockgen_bench_test.go:31:12: inlining call to (*RWHandle).RUnlock
./lockgen_bench_test.go:32:12: inlining call to (*TAS).TryLock
./lockgen_bench_test.go:33:12: (*TAS).Lock does not escape
`
	want := []Inlining{
		{Type: "RWHandle", Method: "RLock", Reason: "unhandled op DEFER"},
		{Type: "RWHandle", Method: "RUnlock", Cost: 24, Inlinable: true, Inlined: true},
		{Type: "RWHandle", Method: "Unlock", Cost: 30, Inlinable: true},
		{Type: "TAS", Method: "Lock", Cost: 89, Budget: 80},
		{Type: "TAS", Method: "Unlock", Cost: 112, Budget: 80},
	}
	if got := parseInlining(out); !reflect.DeepEqual(got, want) {
		t.Errorf("parseInlining:\n got %+v\nwant %+v", got, want)
	}
}

// A benchmark that does not compile is reported with the compiler's error
// alone, not buried in the inlining diagnostics of the package that did
// compile before it (here the package, before its external test).
func TestBuildErrorWithoutDiagnostics(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/broken\n\ngo 1.24\n",
		"ok.go":          "package broken\n\nfunc Small() int { return 1 }\n",
		"broken_test.go": "package broken_test\n\nfunc Broken() int { return undefinedName }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, err := tmpmod.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close()
	_, err = buildDriver(context.Background(), mod, dir, filepath.Join(dir, "x.test"), "")
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedName") || strings.Contains(err.Error(), "can inline") {
		t.Errorf("buildDriver of a broken package: %v", err)
	}
}
