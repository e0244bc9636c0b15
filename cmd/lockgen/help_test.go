package main

import (
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockgen/lockgen/templates/distributed"
)

// fits fails for any line of out wider than termWidth.
func fits(t *testing.T, what, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > termWidth {
			t.Errorf("%s: a line of %d columns: %q", what, n, line)
		}
	}
}

// TestHelpListsEveryVerbWithItsFlags: lockgen -h names every verb, each
// with every flag its own -h describes, and no help is wider than
// termWidth.
func TestHelpListsEveryVerbWithItsFlags(t *testing.T) {
	code, top, _ := lockgen("-h")
	if code != exitOK {
		t.Fatalf("lockgen -h = %d", code)
	}
	fits(t, "lockgen -h", top)
	for _, c := range commands() {
		code, help, _ := lockgen(c.name, "-h")
		if code != exitOK {
			t.Errorf("lockgen %s -h = %d", c.name, code)
		}
		fits(t, "lockgen "+c.name+" -h", help)
		// The verb's part of lockgen -h: from its line to the next verb's.
		_, part, ok := strings.Cut(top, "  lockgen "+c.name+" ")
		if !ok {
			_, part, ok = strings.Cut(top, "  lockgen "+c.name+"\n")
		}
		if !ok {
			t.Errorf("lockgen -h does not list %s", c.name)
			continue
		}
		if i := strings.Index(part, "\n  lockgen "); i >= 0 {
			part = part[:i]
		}
		for _, line := range strings.Split(help, "\n") {
			if !strings.HasPrefix(line, "  -") {
				continue
			}
			flag := strings.Fields(line)[0]
			if !strings.Contains(part, "["+flag) && !strings.Contains(part, "| "+flag) {
				t.Errorf("lockgen -h lists %s without its flag %s:\n%s", c.name, flag, part)
			}
		}
	}
}

// TestExplainSuggestsEveryEntry: a mistyped name gets a "did you mean"
// among shared-memory and message-passing entries alike, and the list of
// known names holds both, within termWidth.
func TestExplainSuggestsEveryEntry(t *testing.T) {
	for typo, want := range map[string]string{"dcrwe": "dcrew", "naimi-trehl": "naimi-trehel", "tiket": "ticket"} {
		code, _, stderr := lockgen("explain", typo)
		if code != exitUsage || !strings.Contains(stderr, `did you mean "`+want+`"`) {
			t.Errorf("explain %s = %d, want a suggestion of %s:\n%s", typo, code, want, stderr)
		}
		fits(t, "explain "+typo, stderr)
		flat := strings.Join(strings.Fields(stderr), " ")
		for _, d := range distributed.All() {
			if !strings.Contains(flat, " "+d.Name+",") && !strings.HasSuffix(flat, " "+d.Name) {
				t.Errorf("explain %s: the known names lack %s", typo, d.Name)
			}
		}
	}
}

// TestVersionOf: the module version, what replaced it, the VCS revision,
// and where there is none, why.
func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-29T07:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		bi   debug.BuildInfo
		want []string
	}{
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}},
			[]string{"lockgen v1.2.3 go1.26"}},
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs},
			[]string{"lockgen (devel) (git abc123, 2026-11-29T07:00:00Z, modified) go1.26"}},
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}},
			[]string{"(no VCS revision recorded: built with -buildvcs=false)"}},
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: modulePath, Version: "(devel)"}},
			[]string{"(no VCS revision recorded: built by go run"}},
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: "example.com/user"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "../lockgen"}}}},
			[]string{"lockgen v0.0.0 => ../lockgen (no VCS revision recorded: built from the directory a replace directive names)"}},
		{debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Path: "example.com/user"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.4.0"}}},
			[]string{"lockgen v0.4.0 go1.26"}},
	} {
		got := versionOf(&c.bi)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("versionOf(%+v) = %q, want %q in it", c.bi.Main, got, w)
			}
		}
	}
}
