package spec

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Edit changes one [[lock]] table of a spec's text and leaves every other
// byte as the user wrote it: comments, key order, spacing, the other
// locks. lockgen tune writes its winner back this way.
type Edit struct {
	// Lock is the index of the table among the file's locks (the index in
	// File.Locks).
	Lock int
	// Set gives keys their values (string, int or bool): a key the table
	// has keeps its place, comment included; a new key goes on a line of
	// its own after the table's last key.
	Set map[string]any
	// Remove deletes keys, each with its line.
	Remove []string
	// Comment, if not nil, replaces the lines directly above the table's
	// header that start with CommentPrefix by these lines, each written
	// after CommentPrefix; an empty slice removes them.
	Comment       []string
	CommentPrefix string
}

// EditSource applies e to src, the text of a spec that parses. It returns
// the new text, which the caller parses again: an edit can make a spec
// invalid (a key the algorithm does not take), and Parse says where.
func EditSource(src []byte, e Edit) ([]byte, error) {
	text := string(src)
	bom := text[:len(text)-len(stripBOM(text))]
	text = text[len(bom):]
	idx, deep := scanKeys(text)
	if deep != nil {
		return nil, fmt.Errorf("%d:%d: nested too deep to edit", deep.line, deep.col)
	}
	lines := lineStarts(text)
	elem := elemPath(keyPath("", "lock"), e.Lock)
	head, ok := idx[elem]
	if !ok || !strings.HasPrefix(text[offset(lines, head):], "[[") {
		return nil, fmt.Errorf("lock %d is not written as a [[lock]] table: only those can be edited", e.Lock)
	}

	// Every key of the table: where its line starts and its value ends.
	type keyLine struct {
		lineStart, valStart int
		valEnd, lineEnd     int // lineEnd: just past the newline (or the end)
		alone               bool
		indent              string
	}
	keys := map[string]keyLine{}
	last, lastEnd := -1, 0 // the end of the table's last value, and of its line's text
	var lastIndent string
	for p, at := range idx {
		rest, ok := strings.CutPrefix(p, elem+".")
		if !ok {
			continue
		}
		key, err := strconv.Unquote(rest)
		if err != nil {
			continue // a nested path: not a key of the table itself
		}
		s := &scanner{src: text, idx: keyIndex{}, arrays: map[string]int{}}
		s.i = offset(lines, at)
		s.line, s.bol = at.line, lines[at.line-1]
		s.key()
		s.skipSpace(false)
		if s.peek() != '=' {
			return nil, fmt.Errorf("%d:%d: %s is not a plain key = value", at.line, at.col, key)
		}
		s.next()
		s.skipSpace(false)
		k := keyLine{lineStart: lines[at.line-1], valStart: s.i}
		s.value(p)
		k.valEnd = k.valStart + len(strings.TrimRight(text[k.valStart:s.i], " \t\r"))
		k.lineEnd = len(text)
		if nl := strings.IndexByte(text[k.valEnd:], '\n'); nl >= 0 {
			k.lineEnd = k.valEnd + nl + 1
		}
		k.indent = text[k.lineStart:offset(lines, at)]
		tail := strings.TrimSpace(text[k.valEnd:k.lineEnd])
		k.alone = strings.TrimSpace(k.indent) == "" && (tail == "" || strings.HasPrefix(tail, "#"))
		keys[key] = k
		if k.valEnd > last && !slices.Contains(e.Remove, key) {
			last, lastIndent = k.valEnd, k.indent
			lastEnd = k.lineEnd
			if lastEnd > 0 && text[lastEnd-1] == '\n' {
				lastEnd--
			}
		}
	}
	if last < 0 {
		return nil, fmt.Errorf("lock %d keeps no keys", e.Lock)
	}

	// The changes as replacements of byte ranges, applied back to front.
	type change struct {
		from, to int
		with     string
	}
	var changes []change
	var added []string
	setKeys := make([]string, 0, len(e.Set))
	for k := range e.Set {
		setKeys = append(setKeys, k)
	}
	sort.Slice(setKeys, func(i, j int) bool {
		ri, rj := schemaRank(setKeys[i]), schemaRank(setKeys[j])
		return ri < rj || ri == rj && setKeys[i] < setKeys[j]
	})
	for _, key := range setKeys {
		lit, err := tomlValue(e.Set[key])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		if k, ok := keys[key]; ok {
			changes = append(changes, change{k.valStart, k.valEnd, lit})
			continue
		}
		added = append(added, lastIndent+bareOrQuoted(key)+" = "+lit)
	}
	for _, key := range e.Remove {
		k, ok := keys[key]
		if !ok {
			continue
		}
		if !k.alone {
			return nil, fmt.Errorf("%s shares its line with other text: remove it by hand", key)
		}
		changes = append(changes, change{k.lineStart, k.lineEnd, ""})
	}
	if len(added) > 0 {
		changes = append(changes, change{lastEnd, lastEnd, "\n" + strings.Join(added, "\n")})
	}
	if e.Comment != nil {
		from, to := commentBlock(text, lines, head.line, e.CommentPrefix)
		var b strings.Builder
		for _, c := range e.Comment {
			b.WriteString(strings.TrimRight(e.CommentPrefix+c, " ") + "\n")
		}
		changes = append(changes, change{from, to, b.String()})
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].from > changes[j].from })
	for i := 1; i < len(changes); i++ {
		if changes[i].to > changes[i-1].from {
			return nil, fmt.Errorf("overlapping edits")
		}
	}
	for _, c := range changes {
		text = text[:c.from] + c.with + text[c.to:]
	}
	return []byte(bom + text), nil
}

// commentBlock finds the lines directly above the header on line head
// that start with prefix: the byte range from the first one's start to
// the header line's start (empty, at the header, when there are none).
func commentBlock(text string, lines []int, head int, prefix string) (from, to int) {
	to = lines[head-1]
	from = to
	for l := head - 1; l >= 1 && prefix != ""; l-- {
		line := text[lines[l-1]:lines[l]]
		if !strings.HasPrefix(strings.TrimLeft(line, " \t"), prefix) {
			break
		}
		from = lines[l-1]
	}
	return from, to
}

// lineStarts gives the offset where each line begins (index 0: line 1).
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func offset(lines []int, p srcPos) int { return lines[p.line-1] + p.col - 1 }

// tomlValue renders a value as TOML.
func tomlValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return quote(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case bool:
		return strconv.FormatBool(v), nil
	}
	return "", fmt.Errorf("cannot write a %T", v)
}

// bareOrQuoted writes a key bare when TOML allows it.
func bareOrQuoted(k string) string {
	for i := 0; i < len(k); i++ {
		if !isBare(k[i]) {
			return quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// schemaRank orders keys as Schema does, an algorithm's own keys after.
func schemaRank(k string) int {
	for i, d := range Schema {
		if d.Key == k {
			return i
		}
	}
	return len(Schema)
}
