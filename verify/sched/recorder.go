package sched

import (
	"strconv"
	"strings"
	"unsafe"
)

// Recorder wraps a Chooser and keeps the footprint of every step of the
// execution it chooses for, so that Class can name the execution's
// equivalence class: the schedules that differ only in the order of
// independent steps, under the dependence DFS.Reduce uses. It exists to
// test the reduction: every class a search without it reaches, the
// search with it must reach too.
type Recorder struct {
	Chooser Chooser
	// ObserveSteps is DFS.ObserveSteps of the search whose classes are
	// compared.
	ObserveSteps bool
	steps        []recorded
}

type recorded struct {
	g  int
	fp footprint
}

// Choose implements Chooser: it records the step just taken, then asks
// the wrapped chooser.
func (r *Recorder) Choose(c *Choice) int {
	if c.Step > 1 && c.Cur >= 0 {
		r.record(c.ex.procs[c.Cur])
	}
	return r.Chooser.Choose(c)
}

func (r *Recorder) record(p *proc) {
	fp := p.fp
	fp.reads = append([]unsafe.Pointer(nil), fp.reads...)
	r.steps = append(r.steps, recorded{p.id, fp})
}

// Class returns the class of the execution recorded since the previous
// call, and starts a new record: its schedule that picks, at every step,
// the lowest-numbered goroutine whose next step depends on no step still
// to be taken (one schedule per class: the lexicographically least).
func (r *Recorder) Class() string {
	steps := r.steps
	r.steps = nil
	n := len(steps)
	// after[j]: the steps that must follow step j in every schedule of
	// the class, and left[i] how many steps must precede i still to be
	// taken. Program order, and for each other goroutine its latest step
	// that step i depends on (the earlier ones follow by program order).
	after := make([][]int, n)
	left := make([]int, n)
	last := map[int]int{} // goroutine → its latest step so far
	for i := range steps {
		if j, ok := last[steps[i].g]; ok {
			after[j] = append(after[j], i)
			left[i]++
		}
		for g, j := range last {
			if g == steps[i].g {
				continue
			}
			for ; j >= 0; j-- {
				if steps[j].g == g && dependent(&steps[j].fp, &steps[i].fp, r.ObserveSteps) {
					after[j] = append(after[j], i)
					left[i]++
					break
				}
			}
		}
		last[steps[i].g] = i
	}
	taken := make([]bool, n)
	var b strings.Builder
	for range n {
		best := -1
		for i := range steps {
			if !taken[i] && left[i] == 0 && (best < 0 || steps[i].g < steps[best].g) {
				best = i
			}
		}
		taken[best] = true
		for _, k := range after[best] {
			left[k]--
		}
		b.WriteString(strconv.Itoa(steps[best].g))
		b.WriteByte('.')
	}
	return b.String()
}
