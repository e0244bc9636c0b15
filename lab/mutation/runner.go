package mutation

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/mutate"
)

// deepFor is the deep exploration's settings for u's locks (zero when the
// layer is not run).
func (r *runner) deepFor(u *Unit) ExploreSettings {
	switch {
	case !r.wants(Deep):
		return ExploreSettings{}
	case r.cfg.DeepCrash.Budget > 0 && u.Options.Mode.Crashes(u.Entry.SmallParams(u.Options.Mode, u.Entry.DefaultNodes).K) > 0:
		return r.cfg.DeepCrash
	}
	return r.cfg.Deep
}

// runner holds a run's shared state.
type runner struct {
	cfg     Config
	modPath string
	q       *queue
	mu      sync.Mutex // guards Units' Time, Errors, Discarded and Results
	logMu   sync.Mutex // serialises cfg.Log
}

func (r *runner) log(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	r.logMu.Lock()
	defer r.logMu.Unlock()
	r.cfg.Log(line)
}

func (r *runner) wants(l Layer) bool {
	for _, x := range r.cfg.Layers {
		if x == l {
			return true
		}
	}
	return false
}

func (r *runner) addTime(u *Unit, l Layer, d time.Duration) {
	r.mu.Lock()
	u.Time[l] += d
	r.mu.Unlock()
}

func (r *runner) fail(u *Unit, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.mu.Lock()
	u.Errors = append(u.Errors, msg)
	r.mu.Unlock()
	r.log("%s: ERROR %s", u.Name, msg)
}

// prepare generates a unit's mutants and queues its jobs: the SPIN
// baseline (whose timings decide which larger models are cheap enough for
// the mutants) and then the mutants' SPIN runs, the build and then the
// test processes.
func (r *runner) prepare(prio int, u *Unit) {
	a := u.Entry.MustDef(u.Options)
	t := u.target()
	set := generate(u)
	u.Discarded = set.Discarded
	newResult := func(m mutate.Mutant, lock string) *Result {
		res := &Result{Mutant: m, Lock: lock, Layer: map[Layer]*Verdict{}}
		for _, l := range AllLayers() {
			res.Layer[l] = &Verdict{Detail: "layer not run"}
		}
		return res
	}
	for _, m := range set.Kept {
		if r.cfg.Only != nil && !r.cfg.Only.MatchString(m.ID) {
			continue
		}
		u.Results = append(u.Results, newResult(m, fmt.Sprintf("M%d", len(u.Results)+1)))
	}
	u.Baseline = newResult(mutate.Mutant{ID: u.Name + "/original", Change: "none (the catalogue definition)", Alg: a}, "M0")
	r.log("%s: %d mutants (%d discarded)", u.Name, len(u.Results), len(u.Discarded))
	if len(u.Results) == 0 {
		return
	}
	prog := newProgress(r, u)
	tr := &tracker{r: r, u: u, prio: prio}
	if r.wants(SPIN) {
		prog.add(SPIN, len(u.Results))
		tr.push(func(ctx context.Context) {
			plan := r.spinBaseline(ctx, u)
			for _, res := range u.Results {
				tr.push(func(ctx context.Context) {
					r.spinJob(ctx, u, res, plan)
					prog.done(SPIN)
				})
			}
		})
	}
	if r.wants(Stress) || r.wants(Explore) || r.wants(Deep) {
		tr.push(func(ctx context.Context) { r.buildJob(ctx, tr, t, prog) })
	} else if !r.wants(SPIN) && r.hunts(u) {
		// Only the hunt, and every mutant survives: an empty job makes
		// the tracker idle, which starts it.
		tr.push(func(context.Context) {})
	}
}

// tracker counts a unit's queued and running jobs: when the last one
// ends, the survivors get the SurvivorLayers, and once those are done too
// the unit's package and binaries are removed.
type tracker struct {
	r       *runner
	u       *Unit
	prio    int
	mu      sync.Mutex
	pending int
	started bool // the SurvivorLayers were started
	check   *gotest.Binary
	cleanup func()
}

func (tr *tracker) push(job func(context.Context)) {
	tr.mu.Lock()
	tr.pending++
	tr.mu.Unlock()
	tr.r.q.push(tr.prio, func(ctx context.Context) {
		job(ctx)
		tr.mu.Lock()
		tr.pending--
		idle := tr.pending == 0
		tr.mu.Unlock()
		if idle {
			tr.idle(ctx)
		}
	})
}

// idle runs when every job of the unit has ended: the first time, the
// survivors get the SurvivorLayers that apply to them.
func (tr *tracker) idle(ctx context.Context) {
	r, u := tr.r, tr.u
	tr.mu.Lock()
	start := !tr.started && ctx.Err() == nil
	tr.started = true
	tr.mu.Unlock()
	deep := start && tr.check != nil && r.wants(Deep)
	hunt := start && r.hunts(u)
	if deep || hunt {
		var survivors []*Result
		r.mu.Lock()
		for _, res := range u.Results {
			if !res.Killed() {
				survivors = append(survivors, res)
			}
		}
		r.mu.Unlock()
		if len(survivors) > 0 {
			if deep {
				r.log("%-24s explore-deep on %d survivors", u.Name, len(survivors))
				for _, res := range survivors {
					tr.push(func(ctx context.Context) { r.exploreJob(ctx, u, tr.check, res, Deep) })
				}
			}
			if hunt {
				r.log("%-24s spin-hunt on %d survivors", u.Name, len(survivors))
				tr.push(func(ctx context.Context) {
					if !r.huntBaseline(ctx, u) {
						return
					}
					for _, res := range survivors {
						tr.push(func(ctx context.Context) { r.huntJob(ctx, u, res) })
					}
				})
			}
			return
		}
	}
	if tr.cleanup != nil {
		tr.cleanup()
		tr.cleanup = nil
	}
}

// progress logs a line when a unit's layer is finished.
type progress struct {
	r       *runner
	u       *Unit
	mu      sync.Mutex
	pending map[Layer]int
}

func newProgress(r *runner, u *Unit) *progress {
	return &progress{r: r, u: u, pending: map[Layer]int{}}
}

func (p *progress) add(l Layer, n int) {
	p.mu.Lock()
	p.pending[l] += n
	p.mu.Unlock()
}

func (p *progress) done(l Layer) {
	p.mu.Lock()
	p.pending[l]--
	left := p.pending[l]
	p.mu.Unlock()
	if left == 0 {
		k, n := 0, 0
		p.r.mu.Lock()
		for _, res := range p.u.Results {
			if v := res.Layer[l]; v.Ran {
				n++
				if v.Killed {
					k++
				}
			}
		}
		t := p.u.Time[l]
		p.r.mu.Unlock()
		p.r.log("%-24s %-7s killed %3d/%-3d  %v", p.u.Name, l, k, n, t.Round(time.Second))
	}
}

// verdict reads a layer's verdict on a mutant while other jobs may be
// recording theirs (the SPIN baseline writes the same map).
func (r *runner) verdict(res *Result, l Layer) *Verdict {
	r.mu.Lock()
	defer r.mu.Unlock()
	return res.Layer[l]
}

// record stores a layer's verdict on a mutant and its time.
func (r *runner) record(u *Unit, res *Result, layer Layer, v *Verdict) {
	r.addTime(u, layer, v.Elapsed)
	r.mu.Lock()
	res.Layer[layer] = v
	r.mu.Unlock()
}
