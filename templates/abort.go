package templates

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Abortable reports whether a waiting process can give up (LockContext):
// the entry's definitions give their waits abort code, and the checks
// found nothing wrong with it.
func (e *Entry) Abortable() bool { return e.NoAbort == "" && e.AbortIncorrect == "" }

// WhyNoAbort says why a waiting process cannot give up ("" for an
// abortable entry).
func (e *Entry) WhyNoAbort() string {
	if e.AbortIncorrect != "" {
		return "the paper's abort code, as transcribed here from its published pseudo-code, fails the checks: " + e.AbortIncorrect
	}
	return e.NoAbort
}

// AbortPoint is one wait a process may abandon, and what leaving costs.
type AbortPoint struct {
	Op, Label string
	Cost      ir.Cost
}

// AbortPoints lists the waits of the definition chosen by o that a process
// may abandon, each with the cost of its abort code.
func (e *Entry) AbortPoints(o Options) []AbortPoint {
	var out []AbortPoint
	for _, p := range e.Def(o).AbortPoints() {
		out = append(out, AbortPoint{Op: p.Op, Label: p.Wait.Label(), Cost: ir.AbortCost(p.Abort)})
	}
	return out
}

// StuckWaits lists the labels of the acquires' waits that cannot be
// abandoned in the definition chosen by o: a cancelled process there keeps
// waiting until the wait ends.
func (e *Entry) StuckWaits(o Options) []string {
	a := e.Def(o)
	var out []string
	for _, code := range []ir.Code{a.Acquire, a.RAcquire} {
		ir.WalkStmts(code, func(s ir.Stmt) {
			if _, ok := ir.AbortOf(s); ok {
				return
			}
			switch w := s.(type) {
			case ir.Await:
				out = append(out, w.Label())
			case ir.While:
				if w.Busy {
					out = append(out, w.Label())
				}
			case ir.Repeat:
				if w.Busy {
					out = append(out, w.Label())
				}
			}
		})
	}
	return out
}

// AbortSummary says in one line whether and at what cost a waiting process
// of the definition chosen by o can give up: the waits it may leave with
// the cost of leaving each, and those it cannot leave; or, for an entry
// that is not abortable, why.
func (e *Entry) AbortSummary(o Options) string {
	if !e.Abortable() {
		return "no: " + e.WhyNoAbort()
	}
	var parts []string
	byCost := map[string][]string{}
	var order []string
	for _, p := range e.AbortPoints(o) {
		c := p.Cost.String()
		if _, seen := byCost[c]; !seen {
			order = append(order, c)
		}
		byCost[c] = append(byCost[c], p.Label)
	}
	for _, c := range order {
		parts = append(parts, fmt.Sprintf("at %s: %s", labelsOf(byCost[c]), c))
	}
	s := "yes (" + strings.Join(parts, "; ") + ")"
	if stuck := e.StuckWaits(o); len(stuck) > 0 {
		s += fmt.Sprintf("; the wait at %s cannot be abandoned", labelsOf(stuck))
	}
	return s
}

func labelsOf(ls []string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range ls {
		if l == "" {
			l = "an unlabelled line"
		}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return strings.Join(out, ", ")
}

// checkAbort keeps an entry's abort claim and its definitions in step:
// abort code in every variant (which AbortIncorrect may declare wrong), or
// in none and a reason.
func checkAbort(e *Entry) {
	with, without := 0, 0
	for _, o := range e.AllOptions() {
		if e.Def(o).Abortable() {
			with++
		} else {
			without++
		}
	}
	switch {
	case with > 0 && without > 0:
		panic("templates: algorithm " + e.Name + " gives abort code to some variants only")
	case with > 0 && e.NoAbort != "":
		panic("templates: algorithm " + e.Name + " has abort code but says it cannot abort")
	case with == 0 && e.NoAbort == "":
		panic("templates: algorithm " + e.Name + " has no abort code: say why (NoAbort)")
	case with == 0 && (len(e.AbortNotes) > 0 || e.AbortFinitely != "" || e.AbortIncorrect != ""):
		panic("templates: algorithm " + e.Name + " cannot abort but has abort notes")
	}
}
