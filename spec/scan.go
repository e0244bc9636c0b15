package spec

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// BurntSushi/toml reports no positions for keys, so keyIndex finds them in
// the source. It is only run on text the TOML parser accepted, but it must
// not panic or loop on anything.

// srcPos is a line and byte column, both from 1.
type srcPos struct{ line, col int }

// keyIndex maps a key path (see keyPath and elemPath) to where the key is
// first defined: the first segment naming it in a key/value line or an inline
// table, or the '[' of a table header. The element n of an array of tables
// maps to the '[' of its [[header]].
type keyIndex map[string]srcPos

// keyPath is the path of key inside the table at parent ("" for the root).
func keyPath(parent, key string) string { return parent + "." + strconv.Quote(key) }

// elemPath is the path of element i of the array at parent.
func elemPath(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// stripBOM removes a byte order mark as BurntSushi/toml does, so that columns
// on line 1 agree with its syntax errors.
func stripBOM(s string) string {
	switch {
	case strings.HasPrefix(s, "\xef\xbb\xbf"):
		return s[3:]
	case strings.HasPrefix(s, "\xff\xfe"), strings.HasPrefix(s, "\xfe\xff"):
		return s[2:]
	}
	return s
}

// maxNesting bounds how deep arrays and inline tables nest, and how many
// segments a key has. A spec needs no nesting at all; the bound exists because
// the TOML parser takes time quadratic in the depth (minutes for 20,000
// nested inline tables), so deeper input is refused before it is parsed.
const maxNesting = 32

// scanKeys indexes the keys of src. If src nests deeper than maxNesting it
// stops and returns where.
func scanKeys(src string) (keyIndex, *srcPos) {
	s := &scanner{src: src, line: 1, idx: keyIndex{}, arrays: map[string]int{}}
	s.run()
	return s.idx, s.tooDeep
}

type scanner struct {
	src    string
	i      int // next byte
	line   int // line of src[i]
	bol    int // offset of the first byte of line
	idx    keyIndex
	arrays map[string]int // resolved path of an array of tables -> elements so far
	table  string         // path of the table that key/value lines go to
	depth  int            // arrays and inline tables open around s.i

	tooDeep *srcPos // where nesting first exceeded maxNesting
}

// deeper reports whether p is one level too deep, and if so stops the scan.
func (s *scanner) deeper(n int, p srcPos) bool {
	if n <= maxNesting {
		return false
	}
	s.tooDeep = &p
	s.i = len(s.src) // everything unwinds at EOF
	return true
}

func (s *scanner) eof() bool { return s.i >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.i]
}

func (s *scanner) next() {
	if s.eof() {
		return
	}
	if s.src[s.i] == '\n' {
		s.line++
		s.bol = s.i + 1
	}
	s.i++
}

func (s *scanner) pos() srcPos { return srcPos{s.line, s.i - s.bol + 1} }

func (s *scanner) record(path string, p srcPos) {
	if _, ok := s.idx[path]; !ok {
		s.idx[path] = p
	}
}

// skipSpace skips blanks and comments, and newlines too if nl.
func (s *scanner) skipSpace(nl bool) {
	for !s.eof() {
		switch s.peek() {
		case ' ', '\t', '\r':
			s.next()
		case '\n':
			if !nl {
				return
			}
			s.next()
		case '#':
			for !s.eof() && s.peek() != '\n' {
				s.next()
			}
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

func (s *scanner) run() {
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		start := s.i
		if s.peek() == '[' {
			s.header()
		} else {
			s.keyValue(s.table)
		}
		if s.i == start {
			s.next()
		}
	}
}

// header reads [a.b] or [[a.b]] and makes it the current table.
func (s *scanner) header() {
	hpos := s.pos()
	s.next()
	double := s.peek() == '['
	if double {
		s.next()
	}
	segs, poss := s.key()
	s.skipSpace(false)
	for n := 0; n < 2 && s.peek() == ']'; n++ {
		s.next()
	}
	if len(segs) == 0 {
		s.skipLine()
		return
	}
	p := ""
	for j, seg := range segs {
		p = keyPath(p, seg)
		last := j == len(segs)-1
		if last {
			s.record(p, hpos)
		} else {
			s.record(p, poss[j])
		}
		// A segment naming an array of tables means its last element,
		// except the last segment of an [[array]] header, which appends.
		if !last || !double {
			if n := s.arrays[p]; n > 0 {
				p = elemPath(p, n-1)
			}
		}
	}
	if double {
		n := s.arrays[p]
		s.arrays[p] = n + 1
		p = elemPath(p, n)
		s.record(p, hpos)
	}
	s.table = p
}

// key reads a possibly dotted key and returns its segments and where each
// starts.
func (s *scanner) key() (segs []string, poss []srcPos) {
	for {
		s.skipSpace(false)
		p := s.pos()
		seg, ok := s.keySegment()
		if !ok {
			return segs, poss
		}
		segs = append(segs, seg)
		poss = append(poss, p)
		if s.deeper(len(segs), p) {
			return nil, nil
		}
		s.skipSpace(false)
		if s.peek() != '.' {
			return segs, poss
		}
		s.next()
	}
}

func (s *scanner) keySegment() (string, bool) {
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		s.next()
		start := s.i
		for !s.eof() && s.peek() != c && s.peek() != '\n' {
			if c == '"' && s.peek() == '\\' {
				s.next()
			}
			s.next()
		}
		end := min(s.i, len(s.src))
		raw := s.src[start:end]
		if s.peek() == c {
			s.next()
		}
		if c == '"' {
			return unescape(raw), true
		}
		return raw, true
	case isBare(c):
		start := s.i
		for !s.eof() && isBare(s.peek()) {
			s.next()
		}
		return s.src[start:s.i], true
	}
	return "", false
}

func isBare(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// keyValue reads key = value in the table at table.
func (s *scanner) keyValue(table string) {
	segs, poss := s.key()
	if len(segs) == 0 {
		s.skipLine()
		return
	}
	p := table
	for j, seg := range segs {
		p = keyPath(p, seg)
		s.record(p, poss[j])
	}
	s.skipSpace(false)
	if s.peek() != '=' {
		s.skipLine()
		return
	}
	s.next()
	s.skipSpace(false)
	s.value(p)
}

// value skips a value, recording the keys of inline tables in it.
func (s *scanner) value(p string) {
	switch c := s.peek(); c {
	case '"', '\'':
		s.str(c)
	case '[', '{':
		s.depth++
		if !s.deeper(s.depth, s.pos()) {
			s.nested(p, c)
		}
		s.depth--
	default: // number, boolean, date-time (which may hold a space)
		for !s.eof() && !strings.ContainsRune(",]}#\n", rune(s.peek())) {
			s.next()
		}
	}
}

// nested skips an array or inline table.
func (s *scanner) nested(p string, c byte) {
	switch c {
	case '[':
		s.next()
		for n := 0; ; {
			s.skipSpace(true)
			switch s.peek() {
			case 0, ']':
				s.next()
				return
			case ',':
				s.next()
				continue
			}
			start := s.i
			s.value(elemPath(p, n))
			n++
			if s.i == start {
				s.next()
			}
		}
	case '{':
		s.next()
		for {
			s.skipSpace(true)
			switch s.peek() {
			case 0, '}':
				s.next()
				return
			case ',':
				s.next()
				continue
			}
			start := s.i
			s.keyValue(p)
			if s.i == start {
				s.next()
			}
		}
	}
}

// str skips a string that starts with the quote q.
func (s *scanner) str(q byte) {
	triple := strings.Repeat(string(q), 3)
	if strings.HasPrefix(s.src[s.i:], triple) {
		s.i += 3 // no newline among them
		for !s.eof() {
			if q == '"' && s.peek() == '\\' {
				s.next()
				s.next()
				continue
			}
			if strings.HasPrefix(s.src[s.i:], triple) {
				s.i += 3
				// Up to two more quotes belong to the string.
				for n := 0; n < 2 && s.peek() == q; n++ {
					s.next()
				}
				return
			}
			s.next()
		}
		return
	}
	s.next()
	for !s.eof() && s.peek() != '\n' {
		c := s.peek()
		s.next()
		if q == '"' && c == '\\' {
			s.next()
			continue
		}
		if c == q {
			return
		}
	}
}

// unescape decodes the escapes of a TOML basic string as BurntSushi/toml
// does (TOML 1.1: \e and \xHH included). Malformed escapes are kept as they
// are; the parser has rejected those already.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}
