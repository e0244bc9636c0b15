package golang

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// TestRecordsByIDs checks where references become ids: in a lock with the
// id API (its records in the lock), every reference register is an integer
// register and each record type has its id-to-record method; a lock whose
// records live in handles keeps pointer registers. The records the ids
// name are checked by Explore (TestWaitingLayerControls: correct-ids, and
// shared-record-ids, where processes share records, must be caught).
func TestRecordsByIDs(t *testing.T) {
	cases := []struct {
		alg     string
		nodes   nodes.Policy
		ids     bool
		methods []string
	}{
		{"mcs", nodes.Array, true, []string{"func (l *L) recordQNode(r int64) *lQNode {"}},
		{"dvir-taubenfeld-2", nodes.Array, true, []string{"func (l *L) recordQNode(r int64) *lQNode {", "func (l *L) recordLocalNode(r int64) *lLocalNode {"}},
		{"mcs", nodes.Handle, false, nil},
		{"clh", nodes.Heap, false, nil},
	}
	for _, tc := range cases {
		e, _ := templates.Lookup(tc.alg)
		c := Config{
			Name: "L", Package: "p", ImportPath: "p", Entry: e, Mode: mode.Mutex,
			Alg:   e.MustDef(templates.Options{Mode: mode.Mutex}),
			Nodes: tc.nodes, Wait: wait.Adaptive, Params: e.SmallParams(mode.Mutex, tc.nodes),
			SpecPath: "x", SpecHash: "0",
		}
		f, err := Lock(c)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.alg, tc.nodes, err)
		}
		src := string(f.Data)
		if got := strings.Contains(src, "refReg["); got == tc.ids {
			t.Errorf("%s %s: pointer registers %v, want %v", tc.alg, tc.nodes, got, !tc.ids)
		}
		if got := strings.Contains(src, "References to records are ids"); got != tc.ids {
			t.Errorf("%s %s: doc says ids %v, want %v", tc.alg, tc.nodes, got, tc.ids)
		}
		for _, m := range tc.methods {
			if !strings.Contains(src, m) {
				t.Errorf("%s %s: no %q", tc.alg, tc.nodes, m)
			}
		}
	}
}
