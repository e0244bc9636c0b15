package spec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestCatalogueFitsSpec checks what Parse assumes of every real catalogue
// entry, and that each entry can be written as a spec whose echo round-trips.
func TestCatalogueFitsSpec(t *testing.T) {
	for _, e := range templates.All() {
		t.Run(e.Name, func(t *testing.T) {
			if len(e.Modes) == 0 {
				t.Error("no modes")
			}
			for _, m := range e.Modes {
				if !slices.Contains(allModes, m) {
					t.Errorf("mode %q is not a spec mode", m)
				}
			}
			if e.SupportsMode(mode.RW) != (len(e.Preferences) > 0) {
				t.Errorf("rw mode and preferences disagree: modes %v, preferences %v", e.Modes, e.Preferences)
			}
			for _, p := range e.Preferences {
				if !slices.Contains(allPrefs, p) {
					t.Errorf("preference %q is not a spec preference", p)
				}
			}
			for n := range e.Nodes {
				if !slices.Contains(nodes.All, n) {
					t.Errorf("node policy %q is not a spec policy", n)
				}
			}
			if e.HasNodes() {
				if r, ok := e.Nodes[e.DefaultNodes]; !ok || r != "" {
					t.Errorf("DefaultNodes %q is not a supported policy", e.DefaultNodes)
				}
			} else if e.DefaultNodes != "" {
				t.Errorf("DefaultNodes %q without Nodes", e.DefaultNodes)
			}
			for w := range e.Waits {
				if !slices.Contains(wait.All, w) {
					t.Errorf("wait policy %q is not a spec policy", w)
				}
			}
			if len(validWaits(e)) == 0 {
				t.Error("every wait policy is rejected")
			}
			if e.MaxProcs > 0 && (e.MaxProcs < max(MinProcs, e.MinProcs)) {
				t.Errorf("MaxProcs %d below MinProcs %d", e.MaxProcs, e.MinProcs)
			}
			seen := map[string]bool{}
			for _, p := range e.Params {
				if p.Key == "" || strings.Trim(p.Key, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
					t.Errorf("param key %q is not a lower-case bare key", p.Key)
				}
				if isSchemaKey(p.Key) {
					t.Errorf("param key %q shadows a spec key", p.Key)
				}
				if seen[p.Key] {
					t.Errorf("param key %q twice", p.Key)
				}
				seen[p.Key] = true
			}
			// trylock = true passes Parse when TryLock is "", so the
			// definition must have a try-acquire (the Go backend requires it).
			if e.TryLock == "" {
				for _, m := range e.Modes {
					if a := e.Def(templates.Options{Mode: m, Preference: first(e.Preferences)}); a == nil || a.TryAcquire == nil {
						t.Errorf("TryLock is \"\" (supported) but the %s definition has no TryAcquire: set Entry.TryLock to the reason, or add TryAcquire", m)
					}
				}
			}
			for _, src := range specsFor(e) {
				f, err := Parse("cat.toml", []byte(src))
				if err != nil {
					t.Errorf("%v\n%s", err, src)
					continue
				}
				roundTrip(t, nil, f.Locks[0])
			}
		})
	}
}

// specsFor writes a minimal spec for each mode (and preference) of e.
func specsFor(e *templates.Entry) []string {
	var out []string
	for _, m := range e.Modes {
		prefs := []templates.Preference{""}
		if m == mode.RW {
			prefs = e.Preferences
		}
		for _, p := range prefs {
			var b strings.Builder
			fmt.Fprintf(&b, "[[lock]]\nname = \"L\"\npackage = \"l\"\nalgorithm = %s\nmode = %s\n", quote(e.Name), quote(string(m)))
			procs := max(MinProcs, e.MinProcs)
			if m == mode.KExclusion {
				procs = max(procs, 3)
				fmt.Fprintf(&b, "k = 2\n")
			}
			if e.NeedsProcs {
				fmt.Fprintf(&b, "procs = %d\n", procs)
			}
			if e.Waits[DefaultWait] != "" {
				fmt.Fprintf(&b, "wait = %s\n", quote(string(validWaits(e)[0])))
			}
			if p != "" {
				fmt.Fprintf(&b, "preference = %s\n", quote(string(p)))
			}
			if e.Incorrect != "" {
				b.WriteString("allow_incorrect = true\n")
			}
			for _, p := range e.Params {
				if p.Required { // no better value to try than the documented default
					if p.Duration {
						fmt.Fprintf(&b, "%s = %s\n", p.Key, quote(formatDuration(p.Default)))
					} else {
						fmt.Fprintf(&b, "%s = %d\n", p.Key, p.Default)
					}
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}

func first[T any](xs []T) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	return xs[0]
}
