package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// termWidth is the width lockgen's terminal output fits: tables wrap their
// last column, lists wrap their text.
const termWidth = 100

// hang writes text wrapped at spaces after first, its later lines after
// rest, every line within width: the one way lockgen's terminal output
// wraps. Empty text still writes first.
func hang(w io.Writer, width int, first, rest, text string) {
	room := max(width-max(utf8.RuneCountInString(first), utf8.RuneCountInString(rest)), 20)
	lines := wrap(text, room)
	if len(lines) == 0 {
		lines = []string{""}
	}
	for i, l := range lines {
		lead := rest
		if i == 0 {
			lead = first
		}
		fmt.Fprintln(w, strings.TrimRight(lead+l, " "))
	}
}

// hanging writes prefix then text, its later lines indented under the
// text, within termWidth.
func hanging(w io.Writer, prefix, text string) {
	hang(w, termWidth, prefix, spaces(prefix), text)
}

// spaces is as many spaces as s has runes.
func spaces(s string) string { return strings.Repeat(" ", utf8.RuneCountInString(s)) }

// table writes rows under header in aligned columns within width: the last
// column wraps onto continuation lines that start where it starts. The
// other columns are short by construction (names, verdicts, times).
func table(w io.Writer, width int, header []string, rows [][]string) {
	cols := len(header)
	widths := make([]int, cols-1)
	for _, r := range append([][]string{header}, rows...) {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	for _, r := range append([][]string{header}, rows...) {
		var b strings.Builder
		for i, n := range widths {
			fmt.Fprintf(&b, "%s%s  ", r[i], strings.Repeat(" ", n-utf8.RuneCountInString(r[i])))
		}
		hang(w, width, b.String(), spaces(b.String()), r[cols-1])
	}
}

// wrap breaks text into lines of at most width runes at spaces (a word
// longer than width gets a line of its own). Newlines in text are kept.
func wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// codeLine writes a line of pseudo-code as it is, or, if longer than
// termWidth, wrapped at spaces with its continuations indented four more
// than its statement.
func codeLine(w io.Writer, line string) {
	if utf8.RuneCountInString(line) <= termWidth {
		fmt.Fprintln(w, line) // keep its alignment
		return
	}
	lead := codeLead.FindString(line)
	hang(w, termWidth, lead, spaces(lead)+"    ", line[len(lead):])
}

// codeLead matches a pseudo-code line's indentation, label and alignment.
var codeLead = regexp.MustCompile(`^\s*(\(\S+\))?\s*`)

// short is a property's head: the text before a colon, parenthesis or
// semicolon that qualifies it ("bounded waiting: at most n-1 turns" is
// "bounded waiting").
func short(s string) string {
	if i := strings.IndexAny(s, ":(;"); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
