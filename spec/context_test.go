package spec

import (
	"errors"
	"strings"
	"testing"
)

// context = true asks for LockContext: refused with the catalogue's reason
// for an algorithm whose waiters cannot give up, refused as not generated
// yet for one whose can (until the Go backend lowers abort code), allowed
// as what message-passing locks always have; each error names its
// file:line:col.
func TestContextKey(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"not abortable", lock("ticket", "context = true"),
			"t.toml:5:1: context = true is not supported by ticket: a drawn ticket must be served"},
		{"abortable", lock("lamport-fast", "procs = 4", "context = true"), ""},
		{"not abortable: the paper's abort fails the checks", lock("mcs-try", "procs = 4", "context = true"),
			"t.toml:6:1: context = true is not supported by mcs-try: the paper's abort code, as transcribed here from its published pseudo-code, fails the checks"},
		{"not a boolean", lock("tas", `context = "yes"`),
			`t.toml:5:1: context = "yes" must be a boolean (true or false)`},
		{"distributed, false", lock("dcrew", "context = false"),
			"t.toml:5:1: context = false: the message-passing lock dcrew always has LockContext"},
		{"false", lock("ticket", "context = false"), ""},
		{"distributed, true", lock("dcrew", "context = true"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.toml", []byte(c.src))
			if c.want == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if l := f.Locks[0]; !strings.Contains(l.TOML(), "context = true") && strings.Contains(c.src, "context = true") {
					t.Errorf("the echo drops context = true:\n%s", l.TOML())
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) || !strings.HasPrefix(es.Error(), c.want) {
				t.Errorf("got %v, want an error starting %q", err, c.want)
			}
		})
	}
}
