package netsim

import (
	"fmt"
	"math/rand/v2"

	"github.com/lockgen/lockgen/ir"
)

// Stabilization is a randomized check of a self-stabilizing algorithm
// (Dijkstra's ring): n processes whose Arbitrary locals start at random
// values in 0..Values−1, no requests, and a random schedule that delivers
// the head of a random non-empty channel (each pair's channel is FIFO)
// one message at a time.
type Stabilization struct {
	N          int
	Arbitrary  []string
	Values     int
	Privileged ir.Expr // over one process's state
	Seed       uint64
	// Within bounds the deliveries until one token remains; Hold is how
	// many more the token must then stay alone for.
	Within, Hold int
}

// StabilizationResult is one run of a Stabilization.
type StabilizationResult struct {
	Start     string // the processes' initial values of the arbitrary locals
	Converged int    // deliveries until exactly one token (-1: not within the bound)
	// Broken is where closure failed: a delivery after convergence that
	// left a token count other than one ("" if none).
	Broken string
}

// Run runs the check on a.
func (st Stabilization) Run(a *ir.Algorithm) StabilizationResult {
	rng := rand.New(rand.NewPCG(st.Seed, 0x7374616269))
	par := ir.Params{N: st.N, K: 1}
	procs := make([]*Proc, st.N)
	res := StabilizationResult{Converged: -1}
	for i := range procs {
		procs[i] = NewProc(a, par, i)
		for _, name := range st.Arbitrary {
			v := rng.Int64N(int64(st.Values))
			procs[i].vars[name] = v
			res.Start += fmt.Sprintf("%s%d=%d ", name, i, v)
		}
	}
	// chans[from*n+to] is the FIFO channel from one process to another.
	chans := make([][]Msg, st.N*st.N)
	inFlight := 0
	post := func(p *Proc) {
		for _, m := range p.Out {
			chans[m.From*st.N+m.To] = append(chans[m.From*st.N+m.To], m)
			inFlight++
		}
		p.Out = p.Out[:0]
	}
	for _, p := range procs {
		p.Begin()
		post(p)
	}
	tokens := func() int {
		t := inFlight
		for _, p := range procs {
			if p.truth(st.Privileged, nil) {
				t++
			}
		}
		return t
	}
	for step := 1; step <= st.Within+st.Hold; step++ {
		var ready []int
		for c, q := range chans {
			if len(q) > 0 {
				ready = append(ready, c)
			}
		}
		if len(ready) == 0 {
			res.Broken = fmt.Sprintf("no message in flight after %d deliveries: the ring stopped", step-1)
			return res
		}
		c := ready[rng.IntN(len(ready))]
		m := chans[c][0]
		chans[c] = chans[c][1:]
		inFlight--
		procs[m.To].Deliver(m)
		post(procs[m.To])
		switch t := tokens(); {
		case res.Converged < 0 && t == 1:
			res.Converged = step
		case res.Converged >= 0 && t != 1:
			res.Broken = fmt.Sprintf("%d tokens after delivery %d (converged at %d)", t, step, res.Converged)
			return res
		case res.Converged < 0 && step == st.Within:
			return res
		}
	}
	return res
}
