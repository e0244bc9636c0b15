package golang

import "testing"

func TestAName(t *testing.T) {
	for name, want := range map[string]string{"Anderson": "an Anderson", "Ticket": "a Ticket", "qnode": "a qnode", "EisenbergMcGuire": "an EisenbergMcGuire"} {
		if got := aName(name); got != want {
			t.Errorf("aName(%q) = %q, want %q", name, got, want)
		}
	}
}
