package spec

import (
	"strings"
	"testing"
)

const editSrc = `# The cache's lock.
[[lock]]
name = "RW"          # the type the cache embeds
package = "cache"
algorithm = "mcs"    # was ticket
nodes = "pool"
wait = "park"

# Another lock, untouched.
[[lock]]
name = "Other"
package = "cache"
algorithm = "ticket"
`

// TestEditSource: values change in place with their comments, removed
// keys take their lines, new keys follow the last, the comment block is
// replaced, and every other byte stays.
func TestEditSource(t *testing.T) {
	got, err := EditSource([]byte(editSrc), Edit{
		Lock:          0,
		Set:           map[string]any{"algorithm": "mcs-rw", "mode": "rw", "preference": "reader"},
		Remove:        []string{"nodes", "wait"},
		Comment:       []string{"measured", "  twice"},
		CommentPrefix: "# tune: ",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `# The cache's lock.
# tune: measured
# tune:   twice
[[lock]]
name = "RW"          # the type the cache embeds
package = "cache"
algorithm = "mcs-rw"    # was ticket
mode = "rw"
preference = "reader"

# Another lock, untouched.
[[lock]]
name = "Other"
package = "cache"
algorithm = "ticket"
`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := Parse("locks.toml", got); err != nil {
		t.Fatalf("the edited spec does not parse: %v", err)
	}

	// A second edit replaces the block rather than stacking another.
	again, err := EditSource(got, Edit{Lock: 0, Comment: []string{"once"}, CommentPrefix: "# tune: "})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(again), "# tune: "); n != 1 || !strings.Contains(string(again), "# The cache's lock.\n# tune: once\n[[lock]]") {
		t.Errorf("comment block not replaced:\n%s", again)
	}

	// The second table, at the end of the file without a newline.
	last, err := EditSource([]byte(strings.TrimSuffix(editSrc, "\n")), Edit{Lock: 1, Set: map[string]any{"wait": "spin", "trylock": true}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(last), "algorithm = \"ticket\"\nwait = \"spin\"\ntrylock = true") {
		t.Errorf("keys not appended to the last table:\n%s", last)
	}
}

// TestEditSourceRefuses: what cannot be edited in place is refused, not
// mangled.
func TestEditSourceRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		src string
		e   Edit
	}{
		"no such lock":  {editSrc, Edit{Lock: 2, Set: map[string]any{"wait": "spin"}}},
		"inline tables": {"lock = [{name = \"A\", package = \"p\", algorithm = \"tas\"}]\n", Edit{Lock: 0, Set: map[string]any{"wait": "spin"}}},
		"shared line":   {"[[lock]]\nname = \"A\"\npackage = \"p\"\nalgorithm = \"tas\"\nwait = { x = 1 }\n", Edit{Lock: 0, Remove: []string{"x"}, Set: map[string]any{"wait": 1.5}}},
	} {
		if _, err := EditSource([]byte(c.src), c.e); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
