package golang

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// lockSource generates the lock L of one catalogue entry with options o,
// its default nodes and the adaptive waiting.
func lockSource(t *testing.T, alg string, o templates.Options) string {
	t.Helper()
	e, ok := templates.Lookup(alg)
	if !ok {
		t.Fatalf("no %s", alg)
	}
	c := Config{
		Name: "L", Package: "p", ImportPath: "p", Entry: e, Mode: o.Mode, Preference: o.Preference,
		Alg:   e.MustDef(o),
		Nodes: e.DefaultNodes, Wait: wait.Adaptive, Params: e.SmallParams(o.Mode, e.DefaultNodes), TryLock: e.TryLock == "",
		SpecPath: "x", SpecHash: "0",
	}
	f, err := Lock(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(f.Data)
}

// TestPaperConstantsAreNamed: where a definition writes a constant by the
// paper's name, the Go code declares it and names it, in the algorithm's
// steps and in the guards the backend derives from them alike.
func TestPaperConstantsAreNamed(t *testing.T) {
	for _, c := range []struct {
		alg     string
		m       mode.Mode
		pref    templates.Preference
		want    []string
		notWant []string
	}{
		{"tas", mode.Mutex, "", []string{
			"lFREE = 0\n", "lBUSY = 1\n",
			`swap("1", lBUSY)`,                   // the paper's exchange, in TryLock and in Lock's loop
			`if w := l.l.clear("2"); w != lBUSY`, // the release's guard
			`wakeWord("2", w, lFREE)`,            // the value the release wrote
			"if prev != lBUSY {",                 // the misuse test
		}, []string{`swap("1", 1)`, "w != 1", "prev != 1"}},
		{"eisenberg-mcguire", mode.Mutex, "", []string{"lWantIn = 1 // want-in\n", "lIdle   = 0\n"}, nil},
		{"fischer", mode.Mutex, "", []string{"lBottom = -1 // ⊥\n"}, nil},
		{"mcs-rw", mode.RW, templates.ReaderPref, []string{"lRC_INCR = 2\n", "= -lRC_INCR"}, []string{"= -2"}},
	} {
		src := lockSource(t, c.alg, templates.Options{Mode: c.m, Preference: c.pref})
		for _, w := range c.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: no %q in\n%s", c.alg, w, src)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(src, w) {
				t.Errorf("%s: %q, a number where the paper names it, in\n%s", c.alg, w, src)
			}
		}
	}
}

// TestTryLockHasNoFlag: a TryLock returns false where it fails, and
// carries no flag to say so at its end (once a dead "entered" variable).
func TestTryLockHasNoFlag(t *testing.T) {
	src := lockSource(t, "tas", templates.Options{Mode: mode.Mutex})
	i := strings.Index(src, "func (l *L) TryLock() bool {")
	if i < 0 {
		t.Fatalf("no TryLock in\n%s", src)
	}
	body := src[i : i+strings.Index(src[i:], "\n}\n")]
	want := `	old = l.l.swap("1", lBUSY)
	// 1: if old ≠ FREE then
	if old != lFREE {
		// 1: give up (return failure)
		return false
	}
	return true`
	if !strings.Contains(body, want) || strings.Contains(body, "entered") {
		t.Errorf("TryLock:\n%s\nwant it to end\n%s", body, want)
	}
}

// doubleNegation is what staticcheck's SA4013 reports: !!x, or !(!x).
var doubleNegation = regexp.MustCompile(`!\(*!`)

// TestNoDoubleNegation generates every catalogue algorithm in every
// configuration it offers and requires no double negation in the code.
func TestNoDoubleNegation(t *testing.T) {
	for _, e := range templates.All() {
		for _, o := range e.AllOptions() {
			src := lockSource(t, e.Name, o)
			for _, line := range strings.Split(src, "\n") {
				if code, _, _ := strings.Cut(line, "//"); doubleNegation.MatchString(code) {
					t.Errorf("%s %v: %s", e.Name, o, strings.TrimSpace(line))
				}
			}
		}
	}
}
