package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/netsim"
)

// DetectionRow is one size and ratio of a detection-cost table: the
// algorithm's messages per entry without failure detection, and the
// detection's own messages per entry at each period.
type DetectionRow struct {
	N, Ratio  int
	Base      float64   // messages per entry without detection
	Detection []float64 // the detection's messages per entry, by period
}

// DetectionCost simulates a at each size and ratio, at load, without
// failure detection and with it at each period (message delays); the
// grid's Config gives the rest. A run that breaks the lock is an error.
func (s Sweep) DetectionCost(a *ir.Algorithm, load float64, periods []float64) ([]DetectionRow, error) {
	var rows []DetectionRow
	for _, n := range s.Ns {
		for _, ratio := range s.Ratios {
			c := s.Config
			c.N, c.Load, c.ReaderRatio = n, load, ratio
			base := netsim.Run(a, c)
			if base.Violation != "" {
				return nil, fmt.Errorf("%s n=%d ratio %d: %s", a.Name, n, ratio, base.Violation)
			}
			row := DetectionRow{N: n, Ratio: ratio, Base: base.MessagesPerEntry}
			for _, p := range periods {
				c.Detection = &netsim.Detection{Period: p}
				r := netsim.Run(a, c)
				if r.Violation != "" {
					return nil, fmt.Errorf("%s n=%d ratio %d with detection every %v: %s", a.Name, n, ratio, p, r.Violation)
				}
				row.Detection = append(row.Detection, float64(r.DetectionMessages)/float64(r.Entries))
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// DetectionTable writes rows as a Markdown table: per period, the
// detection's messages per entry and their share of the algorithm's.
func DetectionTable(w io.Writer, rows []DetectionRow, periods []float64) {
	head := []string{"n", "readers per writer", "messages/entry without"}
	for _, p := range periods {
		head = append(head, fmt.Sprintf("detection every %.0f: messages/entry (share)", p))
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(head, " | "))
	fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(head)))
	for _, r := range rows {
		cells := []string{fmt.Sprint(r.N), fmt.Sprint(r.Ratio), fmt.Sprintf("%.2f", r.Base)}
		for _, d := range r.Detection {
			cells = append(cells, fmt.Sprintf("%.2f (%.1f%%)", d, 100*d/r.Base))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}
