// Package report runs the simulator (netsim) over the paper's experiment
// grid and renders what it measured: the Markdown tables and the plots of
// docs/distributed.md.
package report

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/netsim"
)

// Sweep is an experiment grid after Johnson & Yoon 1996, section 5:
// processes, loads, readers per writer.
type Sweep struct {
	Ns     []int
	Loads  []float64
	Ratios []int // readers per writer; 0 = writers only
	Config netsim.Config
}

// PaperSweep is the grid docs/distributed.md reports: the paper's loads
// and ratios, n up to its 160, 5,000 entries a point (the paper ran
// 100,000; TestMessagesPerEntryAsInThePaper runs 20,000 at its headline
// point).
var PaperSweep = Sweep{
	Ns:     []int{10, 20, 40, 80, 160},
	Loads:  []float64{0.5, 2},
	Ratios: []int{0, 1, 2, 4, 9},
	Config: netsim.Config{Entries: 5000, Hold: 10, Transit: 1, Processing: 1, FIFO: true, Seed: 1},
}

// Point is one simulation of the grid.
type Point struct {
	Alg   string
	Ratio int // readers per writer (0: writers only)
	N     int
	Load  float64
	netsim.Result
}

// Curve is one algorithm at one ratio over the grid's sizes and loads.
type Curve struct {
	Alg    string
	Ratio  int
	Points []Point // by load, then n
}

// Label names the curve in tables and legends.
func (c Curve) Label() string {
	if c.Ratio == 0 {
		return c.Alg
	}
	return fmt.Sprintf("%s %d:1", c.Alg, c.Ratio)
}

// At returns the curve's point at n and load.
func (c Curve) At(n int, load float64) Point {
	for _, p := range c.Points {
		if p.N == n && p.Load == load {
			return p
		}
	}
	return Point{}
}

// Run simulates a at every size and load of the grid, at each of ratios,
// reporting each point to progress (may be nil) as it finishes. A run
// that breaks the lock is an error: the grid only measures correct runs.
func (s Sweep) Run(name string, a *ir.Algorithm, ratios []int, progress func(Point)) ([]Curve, error) {
	// The points are independent and each is deterministic (its seed is
	// the config's): they run on every P, and land in grid order.
	out := make([]Curve, len(ratios))
	var jobs []*Point
	for ci, ratio := range ratios {
		out[ci] = Curve{Alg: name, Ratio: ratio, Points: make([]Point, 0, len(s.Loads)*len(s.Ns))}
		for _, load := range s.Loads {
			for _, n := range s.Ns {
				out[ci].Points = append(out[ci].Points, Point{Alg: name, Ratio: ratio, N: n, Load: load})
			}
		}
		for i := range out[ci].Points {
			jobs = append(jobs, &out[ci].Points[i])
		}
	}
	done := make(chan *Point)
	next := make(chan *Point)
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		go func() {
			for p := range next {
				cfg := s.Config
				cfg.N, cfg.Load, cfg.ReaderRatio = p.N, p.Load, p.Ratio
				p.Result = netsim.Run(a, cfg)
				done <- p
			}
		}()
	}
	go func() {
		for _, p := range jobs {
			next <- p
		}
		close(next)
	}()
	var failed error
	for range jobs {
		p := <-done
		if p.Violation != "" && failed == nil {
			failed = fmt.Errorf("%s n=%d load=%.0f%% ratio=%d: %s", name, p.N, p.Load*100, p.Ratio, p.Violation)
		}
		if progress != nil {
			progress(*p)
		}
	}
	return out, failed
}

// Table writes, for each load, one row per n and, for each curve, its
// messages per entry, acquisition time and contention (the share of time
// the lock is requested or held, the paper's C = T_rhlock / T_sim).
func (s Sweep) Table(w io.Writer, curves []Curve) {
	for _, load := range s.Loads {
		fmt.Fprintf(w, "\n### Load %.0f%% (n · hold / think)\n\n", load*100)
		head, rule := "| n |", "|---|"
		for _, c := range curves {
			head += fmt.Sprintf(" %s: messages/entry, acquisition, contention |", c.Label())
			rule += "---|"
		}
		fmt.Fprintln(w, head)
		fmt.Fprintln(w, rule)
		for _, n := range s.Ns {
			row := fmt.Sprintf("| %d |", n)
			for _, c := range curves {
				p := c.At(n, load)
				row += fmt.Sprintf(" %.2f, %.1f, %.0f%% |", p.MessagesPerEntry, p.MeanAcquire, 100*p.Contention)
			}
			fmt.Fprintln(w, row)
		}
	}
}

// Same reports whether two curves are the same runs event for event
// (every figure equal at every point).
func Same(a, b Curve) bool {
	if len(a.Points) != len(b.Points) {
		return false
	}
	for i := range a.Points {
		if a.Points[i].Result != b.Points[i].Result {
			return false
		}
	}
	return true
}

// Against writes a curve's messages per entry beside analytic values, with
// its acquisition time and its delay between entries (the time from the
// critical section falling empty while a process waits to the next entry;
// a message's transit and handling take 2 on average).
func (s Sweep) Against(w io.Writer, c Curve, refs ...Analytic) {
	fmt.Fprint(w, "\n| n | load | messages/entry |")
	for _, r := range refs {
		fmt.Fprintf(w, " %s |", r.Formula)
	}
	fmt.Fprint(w, " acquisition time | delay between entries |\n|---|---|---|")
	fmt.Fprint(w, strings.Repeat("---|", len(refs)+2)+"\n")
	for _, n := range s.Ns {
		for _, load := range s.Loads {
			p := c.At(n, load)
			fmt.Fprintf(w, "| %d | %s | %.2f |", n, loadPercent(load), p.MessagesPerEntry)
			for _, r := range refs {
				v := 0.0
				if r.AtLoad != nil {
					v = r.AtLoad(n, load)
				} else {
					v = r.Value(n)
				}
				if math.IsNaN(v) {
					fmt.Fprint(w, " — |")
					continue
				}
				fmt.Fprintf(w, " %.2f |", v)
			}
			delay := "—" // nobody waited for a release
			if p.SyncDelay > 0 {
				delay = fmt.Sprintf("%.2f", p.SyncDelay)
			}
			fmt.Fprintf(w, " %.1f | %s |\n", p.MeanAcquire, delay)
		}
	}
}

// Analytic is a known messages-per-entry value, as a formula of n.
type Analytic struct {
	Formula string // as the table heads it: "2(n − 1)"
	Value   func(n int) float64
	// AtLoad, when set, is used instead of Value: a value that depends
	// on the load too (NaN where it does not apply).
	AtLoad func(n int, load float64) float64
}

// loadPercent writes a load as a percentage, keeping a fraction of a
// percent when there is one.
func loadPercent(load float64) string {
	return strconv.FormatFloat(load*100, 'f', -1, 64) + "%"
}
