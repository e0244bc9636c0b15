package spec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every problem is one
// positioned line, in order, and that whatever parses echoes back to itself.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.toml")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "[[lock]]", "[lock]", "lock = 1", "lock = [{}]", "[[lock]]\n[[lock.x]]\n[lock.y.z]\n",
		lock("fake-anon", "procs = 4", "memory = 5"),
		lock("fake-fischer", "procs = 2", `wait = "spin"`, `delta = "1h"`),
		lock("filter", `mode = "kexclusion"`, "procs = 5", "k = 3"),
		lock("fake-rw", `mode = "rw"`, `preference = "reader"`),
		lock("fake-hyman", "procs = 2", "allow_incorrect = true"),
		"[[lock]]\n\"na\\u006de\" = 'X'\npackage.x = 1\nalgorithm = \"\"\"mcs\"\"\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, cat := range []Catalogue{fakes, nil} {
			file, err := ParseWith(cat, "f.toml", data)
			if err != nil {
				if file != nil {
					t.Fatal("a File with an error")
				}
				var es Errors
				if !errors.As(err, &es) || len(es) == 0 {
					t.Fatalf("error %T %v is not a non-empty Errors", err, err)
				}
				for i, e := range es {
					if e.File != "f.toml" || e.Line < 1 || e.Col < 1 || e.Msg == "" || strings.ContainsAny(e.Msg, "\n\r") {
						t.Fatalf("bad problem %#v", e)
					}
					if i > 0 && (es[i-1].Line > e.Line || es[i-1].Line == e.Line && es[i-1].Col > e.Col) {
						t.Fatalf("problems out of order: %v", es)
					}
				}
				continue
			}
			if len(file.Locks) == 0 {
				t.Fatal("no locks and no error")
			}
			for _, l := range file.Locks {
				roundTrip(t, cat, l)
			}
		}
	})
}
