package gen

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every generated type whose copy breaks the lock (the lock itself in each
// API shape, a handle, a caller's queue node) is reported by go vet's
// copylocks check when copied, and a type that may be copied (the spec's
// own plain struct here) is not.
func TestCopiesReportedByVet(t *testing.T) {
	dir := module(t)
	specPath := filepath.Join(dir, "locks.toml")
	write(t, specPath, `[[lock]]
name = "Caller"
package = "locks"
algorithm = "clh"
nodes = "caller"
tests = false

[[lock]]
name = "Handled"
package = "locks"
algorithm = "mcs"
nodes = "handle"
tests = false

[[lock]]
name = "Ids"
package = "locks"
algorithm = "peterson"
procs = 2
tests = false

[[lock]]
name = "Plain"
package = "locks"
algorithm = "ticket"
tests = false
`)
	generate(t, specPath)
	copies := map[string]string{ // the line's copy → the type it copies
		"c := *new(Caller)":              "Caller",
		"n := *new(CallerNode)":          "CallerNode",
		"h := *new(Handled).NewHandle()": "HandledHandle",
		"i := *new(Ids)":                 "Ids",
		"p := *new(Plain)":               "Plain",
	}
	src := "package locks\n\ntype value struct{ a, b int }\n\nfunc copies() {\n\tv := *new(value)\n\t_ = v\n"
	for line := range copies {
		src += "\t" + line + "\n\t_ = " + line[:1] + "\n"
	}
	write(t, filepath.Join(dir, "copies.go"), src+"}\n")
	vet := exec.Command("go", "vet", ".")
	vet.Dir = dir
	out, _ := vet.CombinedOutput()
	report := string(out)
	for l := range strings.SplitSeq(report, "\n") {
		if strings.HasPrefix(l, "copies.go") && !strings.Contains(l, "copies lock value") {
			t.Errorf("go vet: %s", l)
		}
	}
	for line, typ := range copies {
		reported := regexp.MustCompile(`(?m)copies lock value.*locks\.` + typ + `( |$)`)
		if !reported.MatchString(report) {
			t.Errorf("go vet does not report %q (a copy of %s):\n%s", line, typ, report)
		}
	}
	if strings.Contains(report, "locks.value") {
		t.Errorf("go vet reports a copy of a plain struct:\n%s", report)
	}
}
