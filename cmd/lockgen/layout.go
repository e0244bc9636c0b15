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

// table writes rows under header in aligned columns within width: the last
// column wraps onto continuation lines that start where it starts. The
// other columns are short by construction (names, verdicts, times).
func table(w io.Writer, width int, header []string, rows [][]string) {
	cols := len(header)
	widths := make([]int, cols)
	for _, r := range append([][]string{header}, rows...) {
		for i := 0; i < cols-1; i++ {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	indent := 0
	for _, n := range widths[:cols-1] {
		indent += n + 2
	}
	room := max(width-indent, 20)
	for _, r := range append([][]string{header}, rows...) {
		var b strings.Builder
		for i := 0; i < cols-1; i++ {
			b.WriteString(r[i])
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(r[i])+2))
		}
		lines := wrap(r[cols-1], room)
		if len(lines) == 0 {
			lines = []string{""}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String()+lines[0], " "))
		for _, l := range lines[1:] {
			fmt.Fprintln(w, strings.Repeat(" ", indent)+l)
		}
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

// indented writes text wrapped to width, every line after a prefix of n
// spaces.
func indented(w io.Writer, text string, n, width int) {
	for _, l := range wrap(text, width-n) {
		fmt.Fprintln(w, strings.Repeat(" ", n)+l)
	}
}

// hanging writes prefix then text wrapped to termWidth, its later lines
// indented under the text.
func hanging(w io.Writer, prefix, text string) {
	n := utf8.RuneCountInString(prefix)
	for i, l := range wrap(text, termWidth-n) {
		if i == 0 {
			fmt.Fprintln(w, prefix+l)
		} else {
			fmt.Fprintln(w, strings.Repeat(" ", n)+l)
		}
	}
}

// codeLine writes a line of pseudo-code as it is, or, if longer than
// termWidth, wrapped at spaces with its continuations indented four more.
func codeLine(w io.Writer, line string) {
	if utf8.RuneCountInString(line) <= termWidth {
		fmt.Fprintln(w, line) // keep its alignment
		return
	}
	// The label and indentation stay; the statement wraps beneath itself.
	lead := codeLead.FindString(line)
	n := utf8.RuneCountInString(lead)
	for i, l := range wrap(line[len(lead):], termWidth-n-4) {
		if i == 0 {
			fmt.Fprintln(w, lead+l)
		} else {
			fmt.Fprintln(w, strings.Repeat(" ", n+4)+l)
		}
	}
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
