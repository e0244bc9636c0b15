package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/netsim/report"
)

// docSample is the sizes TestDistributedDocIsFresh recomputes: the two
// smallest of the paper's grid. The larger ones cost most of the sweep
// (Ricart–Agrawala and Lamport send O(n) messages an entry), about a
// minute on both cores; LOCKGEN_DOC_FULL=1 (make verify) recomputes all.
var docSample = report.PaperSweep.Ns[:2]

// docs/distributed.md is what the simulator computes today: recomputed
// at the sample's sizes, the document must differ from the checked-in
// one only by the table rows of the other sizes and by the lines that
// count over every size (Raymond's "- Load" summary).
func TestDistributedDocIsFresh(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded and slow under -race: make test-race runs it without")
	}
	full := os.Getenv("LOCKGEN_DOC_FULL") == "1"
	var ns []int
	if !full {
		ns = docSample
	}
	var b bytes.Buffer
	if err := writeDoc(&b, t.TempDir(), "distributed", ns, nil); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	if full {
		if !bytes.Equal(have, b.Bytes()) {
			t.Error("docs/distributed.md is stale: make distributed")
		}
		return
	}
	if err := sameDocAt(string(have), b.String(), ns); err != nil {
		t.Errorf("docs/distributed.md is stale (%v): make distributed", err)
	}
}

// sameDocAt reports whether part, the document computed at the sizes ns,
// is whole, the document computed at every size, without the rows of
// the other sizes and the lines that count over every size.
func sameDocAt(whole, part string, ns []int) error {
	skip := func(line string) bool { return strings.HasPrefix(line, "- Load ") }
	other := func(line string) bool {
		var n int
		if _, err := fmt.Sscanf(line, "| %d |", &n); err != nil {
			return false
		}
		return !slices.Contains(ns, n)
	}
	w, p := strings.Split(whole, "\n"), strings.Split(part, "\n")
	i, j := 0, 0
	for i < len(w) || j < len(p) {
		switch {
		case i < len(w) && (skip(w[i]) || other(w[i])):
			i++
		case j < len(p) && skip(p[j]):
			j++
		case i < len(w) && j < len(p) && w[i] == p[j]:
			i, j = i+1, j+1
		case i < len(w):
			return fmt.Errorf("line %d: %q", i+1, w[i])
		default:
			return fmt.Errorf("missing line %q", p[j])
		}
	}
	return nil
}

// sameDocAt must see a changed figure, a changed sentence, a missing
// line and an extra one, and let the other sizes' rows pass.
func TestSameDocAt(t *testing.T) {
	whole := "# T\ntext\n| n | x |\n|---|---|\n| 10 | 1.0 |\n| 20 | 2.0 |\n| 40 | 4.0 |\n- Load 50%: 3 of 3\nend\n"
	part := "# T\ntext\n| n | x |\n|---|---|\n| 10 | 1.0 |\n| 20 | 2.0 |\n- Load 50%: 2 of 2\nend\n"
	if err := sameDocAt(whole, part, []int{10, 20}); err != nil {
		t.Errorf("the same document at fewer sizes: %v", err)
	}
	for name, part := range map[string]string{
		"changed figure":   strings.Replace(part, "| 20 | 2.0 |", "| 20 | 2.1 |", 1),
		"changed sentence": strings.Replace(part, "text", "texts", 1),
		"missing line":     strings.Replace(part, "end\n", "end\nmore\n", 1),
		"extra line":       strings.Replace(part, "text\n", "", 1),
	} {
		if sameDocAt(whole, part, []int{10, 20}) == nil {
			t.Errorf("%s: not seen", name)
		}
	}
}
