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

// Status is what a lock's outcome means for the run's exit status.
type Status int

const (
	Verified   Status = iota // every layer that ran passed (or a control was rejected as required)
	Failed                   // a layer failed (or a control was not rejected)
	Unfinished               // nothing failed, but a layer gave no verdict
)

// Outcome judges one lock over its layers: a lock is verified when every
// layer that ran passed, failed when one failed, and unfinished when none
// failed but one gave no verdict (a SPIN run hit its limit): such a lock
// is never called verified. A negative control, when rejections are
// expected, succeeds when a layer failed.
func (j Judge) Outcome(rs []Result, lock string) (string, Status) {
	ctl := j.Control(lock)
	rejected := false
	var open []string // layers that gave no verdict, with their gaps
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
		return "rejected (" + ctl + "), as required", Verified
	case ctl != "" && j.ExpectRejections && len(open) > 0:
		return "not rejected (" + ctl + "); no verdict from " + strings.Join(open, ", ") + " (incomplete)", Unfinished
	case ctl != "" && j.ExpectRejections:
		return "NOT rejected (" + ctl + "): the checker missed it", Failed
	case rejected:
		return "FAILED", Failed
	case len(open) > 0:
		return "INCOMPLETE: no failure found, but no verdict from " + strings.Join(open, ", "), Unfinished
	case ran == 0:
		return "not checked: every layer was skipped", Verified
	}
	return "verified", Verified
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
