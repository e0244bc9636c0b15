package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/lockgen/lockgen/netsim"
	"github.com/lockgen/lockgen/spec"
)

// runSimulate runs a spec's distributed locks in the simulator of
// Johnson & Yoon's study (netsim): messages per entry, acquisition time
// and contention at each size and load, with exclusion and progress
// checked at every event.
func runSimulate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("simulate", "[-n SIZES] [-load LOADS] [-ratio R] [-entries N] [-reorder] [-seed S] SPEC", stderr)
	ns := fs.String("n", "10,40,160", "process counts, comma-separated")
	loads := fs.String("load", "0.5,2", "loads n·hold/think, comma-separated (2 is 200%)")
	ratio := fs.Int("ratio", 1, "readers per writer for a reader/writer lock (0: writers only)")
	entries := fs.Int("entries", 20000, "critical-section entries per simulation")
	reorder := fs.Bool("reorder", false, "let channels reorder messages (shows which locks need FIFO channels)")
	seed := fs.Uint64("seed", 1, "random seed (runs are deterministic)")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	sizes, err1 := parseList(*ns, strconv.Atoi, func(n int) bool { return n >= 2 && n <= 10000 })
	lds, err2 := parseList(*loads, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, func(l float64) bool { return l > 0 })
	if err := errors.Join(err1, err2); err != nil || *entries < 1 || *ratio < 0 {
		fmt.Fprintf(stderr, "lockgen simulate: -n takes counts 2..10000, -load positive numbers, -entries at least 1, -ratio at least 0 (%v)\n", err)
		return exitUsage
	}
	f, err := spec.ParseFile(fs.Arg(0))
	if err != nil {
		return reportSpecErrors(err, stderr)
	}
	for _, l := range f.Locks {
		if l.Distributed == nil {
			fmt.Fprintf(stderr, "%s: lockgen simulate runs distributed locks; %s (%s) is a shared-memory lock: lockgen bench measures it\n", l.Pos, l.Name, l.Algorithm)
			return exitUsage
		}
	}
	var rows [][]string
	failed := false
	total, done := len(f.Locks)*len(sizes)*len(lds), 0
	for _, l := range f.Locks {
		for _, load := range lds {
			for _, n := range sizes {
				done++
				fmt.Fprintf(stderr, "\rsimulating %s: %d of %d (n = %d, load %.0f%%)...   ", l.Name, done, total, n, load*100)
				c := netsim.DefaultConfig(n, load)
				c.Entries, c.ReaderRatio, c.FIFO, c.Seed = *entries, *ratio, !*reorder, *seed
				r := netsim.Run(l.Distributed.Def(), c)
				verdict := "ok"
				if r.Violation != "" {
					verdict, failed = "VIOLATION: "+r.Violation, true
				}
				rows = append(rows, []string{l.Name, strconv.Itoa(n), fmt.Sprintf("%.0f%%", load*100),
					fmt.Sprintf("%.2f", r.MessagesPerEntry), fmt.Sprintf("%.1f", r.MeanAcquire), fmt.Sprintf("%.0f%%", 100*r.Contention),
					verdict})
			}
		}
	}
	fmt.Fprintln(stderr)
	table(stdout, termWidth, []string{"LOCK", "N", "LOAD", "MSGS/ENTRY", "ACQUIRE", "CONTENTION", "CHECKS"}, rows)
	fmt.Fprintf(stdout, "\n%d entries a simulation; times in message delays (exponential, mean 1; hold 10); %s channels\n",
		*entries, map[bool]string{true: "reordering", false: "FIFO"}[*reorder])
	if failed {
		return exitFailed
	}
	return exitOK
}
