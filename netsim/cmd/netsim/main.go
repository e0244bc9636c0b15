// Command netsim simulates a message-passing lock of the catalogue the way
// Johnson & Yoon's paper does and prints the result; -doc writes
// docs/distributed.md with its plots.
//
//	go run ./netsim/cmd/netsim -doc docs/distributed.md
//	go run ./netsim/cmd/netsim -n 160 -load 2 -ratio 1 dcrew
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockgen/lockgen/netsim"
	"github.com/lockgen/lockgen/netsim/report"
	"github.com/lockgen/lockgen/templates/distributed"
)

// trailShown is how many events a violation is shown with.
const trailShown = 30

func main() {
	doc := flag.String("doc", "", "write the simulation report to this Markdown file, its plots in a directory beside it (docs/distributed.md: docs/distributed/)")
	n := flag.Int("n", 160, "processes")
	load := flag.Float64("load", 2, "load, n·hold/think (2 is 200%)")
	ratio := flag.Int("ratio", 1, "readers per writer (0: writers only; -1: readers only)")
	entries := flag.Int("entries", 20000, "critical-section entries to simulate")
	reorder := flag.Bool("reorder", false, "let channels reorder messages (Lamport 1978 and Dijkstra's ring need FIFO channels)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: netsim -doc FILE.md | netsim [-n N] [-load L] [-ratio R] [-entries E] [-reorder] [-seed S] [ALGORITHM]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *doc != "" {
		if flag.NArg() != 0 {
			flag.Usage()
			os.Exit(2)
		}
		if err := writeDocFile(*doc); err != nil {
			fmt.Fprintln(os.Stderr, "netsim:", err)
			os.Exit(1)
		}
		return
	}
	name := "dcrew"
	switch flag.NArg() {
	case 0:
	case 1:
		name = flag.Arg(0)
	default:
		flag.Usage()
		os.Exit(2)
	}
	e, ok := distributed.Lookup(name)
	if !ok {
		var names []string
		for _, e := range distributed.All() {
			names = append(names, e.Name)
		}
		fmt.Fprintf(os.Stderr, "netsim: no message-passing algorithm %q; known: %s\n", name, strings.Join(names, ", "))
		os.Exit(2)
	}
	c := netsim.DefaultConfig(*n, *load)
	c.ReaderRatio, c.Entries, c.FIFO, c.Seed = *ratio, *entries, !*reorder, *seed
	// Keep the last events: a violation is shown with the run that led to it.
	var trail []string
	c.Trace = func(line string) {
		if trail = append(trail, line); len(trail) > 2*trailShown {
			trail = append(trail[:0], trail[len(trail)-trailShown:]...)
		}
	}
	r := netsim.Run(e.Def(), c)
	fmt.Printf("%s: n=%d load=%.0f%% ratio=%d: %d entries (%d reads, %d writes), %.2f messages per entry, mean acquisition %.1f, delay between entries %.2f, contention %.0f%%, up to %d readers at once\n",
		name, *n, *load*100, *ratio, r.Entries, r.Reads, r.Writes, r.MessagesPerEntry, r.MeanAcquire, r.SyncDelay, 100*r.Contention, r.MaxReaders)
	if r.Violation != "" {
		fmt.Printf("VIOLATION: %s\nthe last events before it:\n", r.Violation)
		fmt.Println(strings.Join(trail[max(0, len(trail)-trailShown):], "\n"))
		os.Exit(1)
	}
}

// writeDocFile writes the report to path and its plots beside it, with a
// progress line on stderr; the file is replaced only once all of it is
// written.
func writeDocFile(path string) error {
	dir := strings.TrimSuffix(path, filepath.Ext(path))
	var b bytes.Buffer
	done, total := 0, 0
	for _, r := range docRuns(nil) {
		total += r.simulations()
	}
	err := writeDoc(&b, dir, filepath.Base(dir), nil, func(p report.Point) {
		done++
		fmt.Fprintf(os.Stderr, "\rnetsim: %d/%d simulations (%s n=%d load %.0f%%)   ", done, total, p.Alg, p.N, p.Load*100)
	})
	fmt.Fprintln(os.Stderr)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
