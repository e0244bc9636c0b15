package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// quote renders s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shown quotes a user's string (or key) for a message, shortened if long.
func shown(k string) string {
	s, _ := show(k)
	return s
}

// maxShown bounds how much of a user's string a message repeats.
const maxShown = 60

// show renders a scalar TOML value for a message; ok is false for arrays and
// tables.
func show(v any) (s string, ok bool) {
	switch v := v.(type) {
	case string:
		if utf8.RuneCountInString(v) > maxShown {
			v = string([]rune(v)[:maxShown]) + "..."
		}
		return quote(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		switch {
		case math.IsInf(v, 1):
			return "inf", true
		case math.IsInf(v, -1):
			return "-inf", true
		case math.IsNaN(v):
			return "nan", true
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s, true
	case bool:
		return strconv.FormatBool(v), true
	case time.Time:
		switch v.Location().String() {
		case "date-local":
			return v.Format("2006-01-02"), true
		case "time-local":
			return v.Format("15:04:05.999999999"), true
		case "datetime-local":
			return v.Format("2006-01-02T15:04:05.999999999"), true
		}
		return v.Format(time.RFC3339Nano), true
	}
	return "", false
}

// typeName names the TOML type of v with an article.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date-time"
	case map[string]any:
		return "a table"
	}
	return "an array"
}

// kv renders `key = value` for a scalar, `key (an array)` otherwise.
func kv(key string, v any) string {
	if s, ok := show(v); ok {
		return key + " = " + s
	}
	return key + " (" + typeName(v) + ")"
}

// list joins values for a "valid: ..." clause.
func list[S ~string](vals []S) string {
	if len(vals) == 0 {
		return "(none)"
	}
	ss := make([]string, len(vals))
	for i, v := range vals {
		ss[i] = string(v)
	}
	return strings.Join(ss, ", ")
}

// listAnd is vals as prose: "a", "a and b", "a, b and c".
func listAnd[S ~string](vals []S) string {
	if len(vals) < 2 {
		return list(vals)
	}
	return list(vals[:len(vals)-1]) + " and " + string(vals[len(vals)-1])
}

// didYouMean is "; did you mean "x"?" for the closest candidate, or "".
func didYouMean[S ~string](s string, cands []S) string {
	if m := suggest(s, cands); m != "" {
		return "; did you mean " + quote(m) + "?"
	}
	return ""
}

// suggest returns the candidate closest to s, if it is close enough to be a
// likely typo: at most 2 edits (case ignored, a transposition is one edit),
// and at most half the candidate's length.
func suggest[S ~string](s string, cands []S) string {
	best, bestD := "", -1
	ls := strings.ToLower(s)
	for _, c := range cands {
		cs := string(c)
		d := distance(ls, strings.ToLower(cs))
		if d > 2 || 2*d > utf8.RuneCountInString(cs) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = cs, d
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b, in
// runes. Long inputs are not compared: they are no typo of a key.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return math.MaxInt32
	}
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Suggest returns the candidate closest to s if s looks like a typo of it
// (at most 2 edits, case ignored), or "": the same rule as the spec's own
// "did you mean" hints, for the command line's names.
func Suggest(s string, cands []string) string { return suggest(s, cands) }
