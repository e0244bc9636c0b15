package spec

import (
	"fmt"
	"strings"
)

// TOML renders l as a canonical [[lock]] table: every key that applies to
// the lock, with defaults filled in, in Schema order, then the entry's
// parameters in catalogue order. The output is deterministic and parses back
// to the same Lock; generated code echoes it in its doc comment.
func (l *Lock) TOML() string {
	var b strings.Builder
	w := func(key, val string) { fmt.Fprintf(&b, "%s = %s\n", key, val) }
	b.WriteString("[[lock]]\n")
	w("name", quote(l.Name))
	w("package", quote(l.Package))
	w("algorithm", quote(l.Algorithm))
	w("mode", quote(string(l.Mode)))
	if l.Distributed != nil {
		if l.Context {
			w("context", "true")
		}
		if l.NoTests {
			w("tests", "false")
		}
		return b.String()
	}
	if l.K != 0 {
		w("k", fmt.Sprint(l.K))
	}
	if l.Procs != 0 {
		w("procs", fmt.Sprint(l.Procs))
	}
	if l.Nodes != "" {
		w("nodes", quote(string(l.Nodes)))
	}
	w("padding", fmt.Sprint(l.Padding))
	w("wait", quote(string(l.Wait)))
	if l.Spin != 0 {
		w("spin", fmt.Sprint(l.Spin))
	}
	if l.Preference != "" {
		w("preference", quote(string(l.Preference)))
	}
	w("trylock", fmt.Sprint(l.TryLock))
	if l.Context {
		w("context", "true")
	}
	if l.AllowIncorrect {
		w("allow_incorrect", "true")
	}
	if l.NoTests {
		w("tests", "false")
	}
	if l.Entry != nil {
		for _, p := range l.Entry.Params {
			v, ok := l.Params[p.Key]
			if !ok || isSchemaKey(p.Key) {
				continue
			}
			if p.Duration {
				w(p.Key, quote(formatDuration(v)))
			} else {
				w(p.Key, fmt.Sprint(v))
			}
		}
	}
	return b.String()
}

// formatDuration writes ns in the largest unit that keeps it exact, in a
// form time.ParseDuration reads ("10us", "1500ns", "2m").
func formatDuration(ns int64) string {
	if ns == 0 {
		return "0s"
	}
	units := []struct {
		suffix string
		size   int64
	}{{"h", 3600e9}, {"m", 60e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}}
	for _, u := range units {
		if ns%u.size == 0 {
			return fmt.Sprintf("%d%s", ns/u.size, u.suffix)
		}
	}
	return fmt.Sprintf("%dns", ns)
}
