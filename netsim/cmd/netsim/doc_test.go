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
	doc, err := os.ReadFile("../../../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(docMarker)) {
		t.Fatal("docs/distributed.md has lost the marker between its hand-written and generated parts")
	}
	have := generated(doc)
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

// make distributed keeps the hand-written part above the marker and
// rewrites only what is below it; a file without the marker is all
// generated.
func TestHandWrittenPartKept(t *testing.T) {
	path := t.TempDir() + "/d.md"
	doc := "# Failures\n\nby hand\n\n" + docMarker + "\n\n# Simulation\nold\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	kept, err := handWritten(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Failures\n\nby hand\n\n" + docMarker + "\n\n"; string(kept) != want {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if got := string(generated([]byte(doc))); got != "# Simulation\nold\n" {
		t.Errorf("generated part %q", got)
	}
	if err := os.WriteFile(path, []byte("# Simulation\nold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if kept, err := handWritten(path); err != nil || kept != nil {
		t.Errorf("without a marker: kept %q, %v", kept, err)
	}
}
