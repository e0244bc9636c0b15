//go:build lockgen_check

package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/generated/anderson"
	"github.com/lockgen/lockgen/generated/clh"
	"github.com/lockgen/lockgen/generated/dvir-taubenfeld-1"
	"github.com/lockgen/lockgen/generated/dvir-taubenfeld-2"
	"github.com/lockgen/lockgen/generated/graunke-thakkar"
	"github.com/lockgen/lockgen/generated/mcs"
	"github.com/lockgen/lockgen/generated/replace-add"
	"github.com/lockgen/lockgen/generated/tas"
	"github.com/lockgen/lockgen/generated/ticket"
	"github.com/lockgen/lockgen/generated/ttas"
	"github.com/lockgen/lockgen/verify/sched"
)

// passages makes a fresh lock of each algorithm of uncontendedSteps and
// returns one passage on it by one process.
var passages = map[string]func() func(){
	"tas":         func() func() { l := tas.NewTAS(); return func() { l.Lock(); l.Unlock() } },
	"ttas":        func() func() { l := ttas.NewTTAS(); return func() { l.Lock(); l.Unlock() } },
	"ticket":      func() func() { l := ticket.NewTicket(); return func() { l.Lock(); l.Unlock() } },
	"replace-add": func() func() { l := replaceadd.NewReplaceAdd(); return func() { l.Lock(); l.Unlock() } },
	"mcs":         func() func() { h := mcs.NewMCS().NewHandle(); return func() { h.Lock(); h.Unlock() } },
	"clh":         func() func() { h := clh.NewCLH().NewHandle(); return func() { h.Lock(); h.Unlock() } },
	"anderson":    func() func() { l := anderson.NewAnderson(); return func() { l.Lock(); l.Unlock() } },
	"graunke-thakkar": func() func() {
		l := graunkethakkar.NewGraunkeThakkar()
		return func() { l.Lock(0); l.Unlock(0) }
	},
	"dvir-taubenfeld-1": func() func() {
		h := dvirtaubenfeld1.NewDT1().NewHandle()
		return func() { h.Lock(); h.Unlock() }
	},
	"dvir-taubenfeld-2": func() func() {
		l := dvirtaubenfeld2.NewDT2()
		return func() { l.Lock(0); l.Unlock(0) }
	},
}

// countSteps runs three passages of one process under the controlled
// scheduler and counts the atomic writes and read-modify-writes of the
// third (the first ones set up what a lock keeps between passages).
func countSteps(t *testing.T, alg string) AtomicSteps {
	t.Helper()
	res := sched.Run(sched.Config{Chooser: sched.NewRandom(1)}, []func(*sched.Proc){func(p *sched.Proc) {
		passage := passages[alg]()
		passage()
		passage()
		p.Note(0, "measured passage")
		passage()
	}})
	if res.Failure != nil {
		t.Fatalf("%s: %v", alg, res.Failure)
	}
	start := slices.IndexFunc(res.Events, func(e sched.Event) bool { return e.Kind == sched.EvNote })
	if start < 0 {
		t.Fatalf("%s: no mark in the trace", alg)
	}
	// A CAS records its outcome, not the register's value: a register is
	// a pointer if any access to it returned one.
	pointers := map[int]bool{}
	for _, e := range res.Events {
		if e.Kind == sched.EvAccess && e.Val.Kind == sched.ValRef {
			pointers[e.Reg] = true
		}
	}
	var got AtomicSteps
	var lines []string
	for _, e := range res.Events[start+1:] {
		if e.Kind != sched.EvAccess || e.Op == sched.OpLoad {
			continue
		}
		got.Writes++
		if pointers[e.Reg] {
			got.Pointer++
		}
		if !slices.Contains(lines, e.Label) {
			lines = append(lines, e.Label)
		}
	}
	got.Lines = strings.Join(lines, ", ")
	return got
}

// TestUncontendedSteps checks the step counts the uncontended targets
// quote against the generated code.
func TestUncontendedSteps(t *testing.T) {
	for alg, want := range uncontendedSteps {
		if passages[alg] == nil {
			t.Errorf("%s: no passage to count in this test", alg)
			continue
		}
		if got := countSteps(t, alg); got != want {
			t.Errorf("%s: an uncontended passage makes %s, the table says %s", alg, fmtSteps(got), fmtSteps(want))
		}
	}
}

func fmtSteps(s AtomicSteps) string {
	return fmt.Sprintf("%d atomic writes or read-modify-writes (%d on pointers; lines %s)", s.Writes, s.Pointer, s.Lines)
}
