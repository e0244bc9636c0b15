package layers

import (
	"strings"

	"github.com/lockgen/lockgen/spec"
)

// Rejected is how a negative control's failed layer is shown when
// rejections are expected: the failure is what it must produce.
const Rejected = "rejected"

// Judge turns results into verdicts: per layer as shown, and per lock.
type Judge struct {
	Files []*spec.File
	// ExpectRejections: negative controls (known-incorrect or
	// timing-dependent algorithms) must be rejected, and their rejection
	// is their success.
	ExpectRejections bool
}

// Control says whether lock is a negative control, and what kind ("" if
// it is not one).
func (j Judge) Control(lock string) string {
	for _, f := range j.Files {
		for _, l := range f.Locks {
			if l.Name == lock && l.Entry != nil && l.Entry.NegativeControl() {
				if l.Entry.Incorrect != "" {
					return "known incorrect"
				}
				return "timing-dependent"
			}
		}
	}
	return ""
}

// Shown is a layer's verdict as printed.
func (j Judge) Shown(r Result) string {
	if j.ExpectRejections && r.Verdict == Fail && j.Control(r.Lock) != "" {
		return Rejected
	}
	return r.Verdict
}

// Outcome judges one lock over its layers: a lock passes when no layer
// failed; a negative control, when rejections are expected, when one did.
func (j Judge) Outcome(rs []Result, lock string) (string, bool) {
	ctl := j.Control(lock)
	rejected := false
	var open []string // layers that gave no verdict
	ran := 0          // layers that ran
	for _, r := range rs {
		if r.Lock != lock {
			continue
		}
		switch r.Verdict {
		case Fail:
			rejected = true
		case Incomplete:
			open = append(open, r.Layer)
		}
		if r.Verdict != Skipped {
			ran++
		}
	}
	switch {
	case ctl != "" && j.ExpectRejections && rejected:
		return "rejected (" + ctl + "), as required", true
	case ctl != "" && j.ExpectRejections:
		return "NOT rejected (" + ctl + "): the checker missed it", false
	case rejected:
		return "FAILED", false
	case len(open) > 0:
		return "no failure; no verdict from " + strings.Join(open, ", ") + " (incomplete)", true
	case ran == 0:
		return "not checked: every layer was skipped", true
	}
	return "verified", true
}

// Locks lists the locks of results in their first order.
func Locks(results []Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range results {
		if !seen[r.Lock] {
			seen[r.Lock] = true
			out = append(out, r.Lock)
		}
	}
	return out
}
