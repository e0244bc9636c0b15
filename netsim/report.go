package netsim

import (
	"fmt"
	"io"

	"github.com/lockgen/lockgen/templates/ir"
)

// Sweep is the paper's experiment grid (Johnson & Yoon 1996, section 5):
// processes, loads and reader:writer ratios.
type Sweep struct {
	Ns     []int
	Loads  []float64
	Ratios []int // readers per writer; 0 = writers only
	Config Config
}

// PaperSweep is the grid docs/distributed.md reports.
var PaperSweep = Sweep{
	Ns:     []int{10, 20, 40, 80, 160},
	Loads:  []float64{0.5, 2},
	Ratios: []int{0, 1, 9},
	Config: Config{Entries: 5000, Hold: 10, Transit: 1, Processing: 1, FIFO: true, Seed: 1},
}

// Markdown runs the sweep on a and writes docs/distributed.md's tables:
// messages per entry and mean acquisition time for each load, one row per
// n, one column per ratio. A run that breaks the lock is an error.
func (s Sweep) Markdown(w io.Writer, a *ir.Algorithm) error {
	for _, load := range s.Loads {
		fmt.Fprintf(w, "\n### Load %.0f%% (n · hold / think)\n\n", load*100)
		head, rule := "| n |", "|---|"
		for _, r := range s.Ratios {
			head += fmt.Sprintf(" messages/entry, %s | acquisition time, %s |", ratioName(r), ratioName(r))
			rule += "---|---|"
		}
		fmt.Fprintln(w, head)
		fmt.Fprintln(w, rule)
		for _, n := range s.Ns {
			row := fmt.Sprintf("| %d |", n)
			for _, r := range s.Ratios {
				c := s.Config
				c.N, c.Load, c.ReaderRatio = n, load, r
				res := Run(a, c)
				if res.Violation != "" {
					return fmt.Errorf("n=%d load=%.1f ratio=%d: %s", n, load, r, res.Violation)
				}
				row += fmt.Sprintf(" %.2f | %.1f |", res.MessagesPerEntry, res.MeanAcquire)
			}
			fmt.Fprintln(w, row)
		}
	}
	return nil
}

func ratioName(r int) string {
	if r == 0 {
		return "writers only"
	}
	return fmt.Sprintf("%d:1", r)
}

// Compare runs the sweep's loads and sizes on two mutexes (a with writers
// only) and writes one table per load: messages per entry and acquisition
// time side by side, and whether the two runs were the same event for
// event (every figure equal).
func (s Sweep) Compare(w io.Writer, aName string, a *ir.Algorithm, bName string, b *ir.Algorithm) error {
	for _, load := range s.Loads {
		fmt.Fprintf(w, "\n### Load %.0f%%: %s with writers only against %s\n\n", load*100, aName, bName)
		fmt.Fprintf(w, "| n | messages/entry, %s | messages/entry, %s | acquisition time, %s | acquisition time, %s | same run |\n", aName, bName, aName, bName)
		fmt.Fprintln(w, "|---|---|---|---|---|---|")
		for _, n := range s.Ns {
			c := s.Config
			c.N, c.Load, c.ReaderRatio = n, load, 0
			ra, rb := Run(a, c), Run(b, c)
			for _, r := range []Result{ra, rb} {
				if r.Violation != "" {
					return fmt.Errorf("n=%d load=%.1f: %s", n, load, r.Violation)
				}
			}
			same := "no"
			if ra == rb {
				same = "yes"
			}
			fmt.Fprintf(w, "| %d | %.2f | %.2f | %.1f | %.1f | %s |\n", n, ra.MessagesPerEntry, rb.MessagesPerEntry, ra.MeanAcquire, rb.MeanAcquire, same)
		}
	}
	return nil
}

// Against writes one table of a mutex's messages per entry beside an
// analytic value (want, of n), for each load and size of the sweep.
func (s Sweep) Against(w io.Writer, a *ir.Algorithm, formula string, want func(n int) float64) error {
	fmt.Fprintf(w, "\n| n | load | messages/entry | %s | acquisition time |\n|---|---|---|---|---|\n", formula)
	for _, n := range s.Ns {
		for _, load := range s.Loads {
			c := s.Config
			c.N, c.Load, c.ReaderRatio = n, load, 0
			r := Run(a, c)
			if r.Violation != "" {
				return fmt.Errorf("n=%d load=%.1f: %s", n, load, r.Violation)
			}
			fmt.Fprintf(w, "| %d | %.0f%% | %.2f | %.2f | %.1f |\n", n, load*100, r.MessagesPerEntry, want(n), r.MeanAcquire)
		}
	}
	return nil
}
