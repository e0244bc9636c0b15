package golang

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// testPackage makes a directory for a generated package under testdata
// (ignored by git, inside this module so that the package can import
// verify) and returns it with its import path. It is removed when the test
// ends, unless LOCKGEN_KEEP_TESTDATA is set (to debug).
func testPackage(t *testing.T, prefix string) (dir, importPath string) {
	t.Helper()
	root, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory of its own: concurrent runs must not share one.
	dir, err = os.MkdirTemp(root, prefix+"-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("LOCKGEN_KEEP_TESTDATA") == "" {
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	return dir, "github.com/lockgen/lockgen/backend/golang/testdata/" + filepath.Base(dir)
}

// testResult is one test's outcome in go test -json's words.
type testResult struct{ action, output string }

// testResults reads go test -json's events into each top-level test's
// outcome and output.
func testResults(out []byte) map[string]testResult {
	results := map[string]testResult{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var ev struct{ Action, Test, Output string }
		if dec.Decode(&ev) != nil {
			return results
		}
		if ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		r := results[ev.Test]
		switch ev.Action {
		case "output":
			r.output += ev.Output
		case "pass", "fail", "skip":
			r.action = ev.Action
		}
		results[ev.Test] = r
	}
}

// requireTestsOf fails t unless a test of lock name (Test<name>Stress,
// Test<name>Misuse, ...) is among results and every one of them passed
// or was skipped; what describes the lock, and context (go test's error
// and output) explains a run where none of its tests ran.
func requireTestsOf(t *testing.T, results map[string]testResult, name, what, context string) {
	t.Helper()
	ran := 0
	for test, r := range results {
		rest, ok := strings.CutPrefix(test, "Test"+name)
		if !ok || rest == "" || !unicode.IsUpper(rune(rest[0])) {
			continue // another lock's (L1 is a prefix of L10)
		}
		ran++
		if r.action != "pass" && r.action != "skip" {
			t.Errorf("%s (%s): %s\n%s", test, what, cmp.Or(r.action, "did not finish"), r.output)
		}
	}
	if ran == 0 {
		t.Errorf("no test of %s (%s) ran: %s", name, what, context)
	}
}
