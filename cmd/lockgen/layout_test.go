package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/distributed"
)

// TestOutputFits100Columns: the listings a user reads in a terminal fit
// termWidth (lockgen list -wide and -md are wide by request).
func TestOutputFits100Columns(t *testing.T) {
	all := [][]string{{"list"}, {"check", "-keys"}, {"help"}}
	for _, name := range templates.Names() {
		all = append(all, []string{"explain", name})
	}
	for _, e := range distributed.All() {
		all = append(all, []string{"explain", e.Name})
	}
	for _, args := range all {
		_, stdout, _ := lockgen(args...)
		for i, line := range strings.Split(stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > termWidth {
				t.Errorf("lockgen %s, line %d: %d columns: %q", strings.Join(args, " "), i+1, n, line)
			}
		}
	}
}

func TestTableWrapsTheLastColumn(t *testing.T) {
	var b strings.Builder
	table(&b, 30, []string{"A", "TEXT"}, [][]string{{"xy", "one two three four five six seven eight"}})
	want := "A   TEXT\nxy  one two three four five\n    six seven eight\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
