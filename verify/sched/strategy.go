package sched

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Choice is one scheduling decision put to a Chooser. The chooser must not
// keep it (it is reused).
type Choice struct {
	Step int // 1-based decision number within the execution
	N    int // goroutines in the execution
	// Cands are the goroutines that may run, Cur first when it may
	// continue, then the others in increasing order, then the
	// cancellations of waiting goroutines' contexts (-(g+1), cancel.go).
	Cands []int
	// Cur is the goroutine at the scheduling point, -1 for the first
	// decision and after a goroutine finished.
	Cur int
	// Preemptible: Cur may continue and stopped at an ordinary point, so
	// choosing another goroutine preempts it. Switching after a yield, a
	// blocked wait or a finished goroutine is free.
	Preemptible bool

	ex *execution // for the DFS's reduction: the goroutines' steps
}

// A Chooser decides who runs: Choose returns an index into c.Cands, -1 if
// it cannot go on (a replayed schedule that no longer fits), or Prune.
type Chooser interface {
	Choose(c *Choice) int
}

// Prune, returned by Choose, ends the execution here without a failure
// (Result.Pruned): the chooser knows that every way on is covered by
// executions it runs elsewhere.
const Prune = -2

// splitmix64 derives well-spread seeds from consecutive ones.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Seed returns the seed of execution i of a run started with seed base.
func Seed(base uint64, i int) uint64 { return splitmix64(base + uint64(i)) }

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, splitmix64(seed))) }

// Random chooses uniformly among the runnable goroutines.
type Random struct {
	seed uint64
	rng  *rand.Rand
}

// NewRandom returns a random chooser for one execution.
func NewRandom(seed uint64) *Random { return &Random{seed: seed, rng: newRand(seed)} }

// Choose implements Chooser.
func (r *Random) Choose(c *Choice) int { return r.rng.IntN(len(c.Cands)) }

// Token returns the replay token of the execution.
func (r *Random) Token() string { return fmt.Sprintf("random:%d", r.seed) }

// PCT is the probabilistic concurrency testing scheduler of Burckhardt,
// Kothari, Musuvathi and Nagarakatte, "A Randomized Scheduler with
// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010. The n goroutines
// get distinct random priorities d, ..., d+n-1; d-1 change points are drawn
// uniformly among the first k steps; at every step the runnable goroutine
// with the highest priority runs, and the goroutine that runs at the i-th
// change point drops to priority d-i, below every initial one. A bug of
// depth d (d ordering constraints between steps) is then hit with
// probability at least 1/(n·k^(d-1)) per execution.
//
// Spinning is handled by the core, not here: a goroutine whose await fails
// blocks until a write, and the fairness rule (see decide) stops a spinner
// from starving the goroutine it waits for, so the top priority cannot spin
// forever.
//
// A cancellation of goroutine g's context (cancel.go) is a candidate of
// its own, its canceller, whose priority is drawn at random among the
// levels below and between the goroutines': some executions give up as
// soon as they may, others only when nothing else can run.
type PCT struct {
	seed       uint64
	n, d, k    int
	prio       []int
	changeStep []int // changeStep[i-1] = k_i
	cprio      []int // the cancellers' priorities, drawn on first use
	rng        *rand.Rand
}

// NewPCT returns a PCT chooser for one execution of n goroutines, bug depth
// d >= 1, and k an estimate of the steps of an execution.
func NewPCT(seed uint64, n, d, k int) *PCT {
	d, k = max(d, 1), max(k, 1)
	rng := newRand(seed)
	p := &PCT{seed: seed, n: n, d: d, k: k, prio: make([]int, n)}
	for i, g := range rng.Perm(n) {
		p.prio[g] = d + i
	}
	for i := 1; i < d; i++ {
		p.changeStep = append(p.changeStep, 1+rng.IntN(k))
	}
	p.rng = rng // the cancellers' priorities come after: old tokens replay
	return p
}

// prioOf is the priority of a candidate: a goroutine's, or a canceller's.
func (p *PCT) prioOf(cand int) (int, bool) {
	g, cancel := cancelOf(cand)
	if !cancel {
		if cand >= len(p.prio) {
			return 0, false
		}
		return p.prio[cand], true
	}
	if g >= p.n {
		return 0, false
	}
	if p.cprio == nil {
		p.cprio = make([]int, p.n)
		for i := range p.cprio {
			// Goroutines' priorities are d..d+n-1, change points' below d.
			p.cprio[i] = p.rng.IntN(p.d + p.n)
		}
	}
	return p.cprio[g], true
}

// Choose implements Chooser.
func (p *PCT) Choose(c *Choice) int {
	best, bestPrio := -1, 0
	for i, g := range c.Cands {
		pr, ok := p.prioOf(g)
		if !ok {
			return -1
		}
		if best < 0 || pr > bestPrio {
			best, bestPrio = i, pr
		}
	}
	for i, s := range p.changeStep {
		if s == c.Step {
			if g, cancel := cancelOf(c.Cands[best]); cancel {
				p.cprio[g] = p.d - (i + 1)
			} else {
				p.prio[c.Cands[best]] = p.d - (i + 1)
			}
		}
	}
	return best
}

// Token returns the replay token of the execution.
func (p *PCT) Token() string { return fmt.Sprintf("pct:%d:%d:%d:%d", p.seed, p.n, p.d, p.k) }

// Replay follows a recorded sequence of goroutines (Result.Choices), then
// lets the current goroutine continue (the DFS default).
type Replay struct{ choices []int }

// NewReplay returns a chooser that replays choices.
func NewReplay(choices []int) *Replay { return &Replay{choices} }

// Choose implements Chooser.
func (r *Replay) Choose(c *Choice) int {
	if c.Step-1 >= len(r.choices) {
		return 0
	}
	return indexOf(c.Cands, r.choices[c.Step-1])
}

// Token returns the replay token of the execution.
func (r *Replay) Token() string { return ChoicesToken(r.choices) }

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// ChoicesToken encodes a choice sequence as a replay token: "choices:"
// followed by goroutine numbers (-(g+1) for the cancellation of g's
// context), runs written g*count, separated by dots.
func ChoicesToken(choices []int) string {
	var b strings.Builder
	b.WriteString("choices:")
	for i := 0; i < len(choices); {
		j := i
		for j < len(choices) && choices[j] == choices[i] {
			j++
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Itoa(choices[i]))
		if j-i > 1 {
			b.WriteByte('*')
			b.WriteString(strconv.Itoa(j - i))
		}
		i = j
	}
	return b.String()
}

// ParseToken returns the chooser that replays a token made by Random.Token,
// PCT.Token or ChoicesToken.
func ParseToken(tok string) (Chooser, error) {
	kind, rest, _ := strings.Cut(tok, ":")
	bad := func(err error) (Chooser, error) {
		return nil, fmt.Errorf("sched: bad token %q: %v", tok, err)
	}
	nums := func(n int) ([]uint64, error) {
		f := strings.Split(rest, ":")
		if len(f) != n {
			return nil, fmt.Errorf("want %d numbers", n)
		}
		var out []uint64
		for _, s := range f {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	switch kind {
	case "random":
		v, err := nums(1)
		if err != nil {
			return bad(err)
		}
		return NewRandom(v[0]), nil
	case "pct":
		v, err := nums(4)
		if err != nil {
			return bad(err)
		}
		if v[1] == 0 || v[1] > MaxGoroutines || v[2] > 1000 || v[3] > 1<<30 {
			return bad(fmt.Errorf("parameters out of range"))
		}
		return NewPCT(v[0], int(v[1]), int(v[2]), int(v[3])), nil
	case "choices":
		var cs []int
		if rest != "" {
			for _, f := range strings.Split(rest, ".") {
				gs, cnt, rep := strings.Cut(f, "*")
				// A goroutine, or -(g+1): the cancellation of g's context.
				g, err := strconv.Atoi(gs)
				if err != nil || g < -MaxGoroutines || g >= MaxGoroutines {
					return bad(fmt.Errorf("goroutine %q", gs))
				}
				n := 1
				if rep {
					if n, err = strconv.Atoi(cnt); err != nil || n < 1 || n > 1<<24 {
						return bad(fmt.Errorf("count %q", cnt))
					}
				}
				for ; n > 0; n-- {
					cs = append(cs, g)
				}
			}
		}
		return NewReplay(cs), nil
	}
	return bad(fmt.Errorf("unknown strategy %q", kind))
}
