// Command netsim simulates a message-passing lock of the catalogue the way
// its paper does and prints the result; -md writes docs/distributed.md.
//
//	go run ./netsim/cmd/netsim -md > docs/distributed.md
//	go run ./netsim/cmd/netsim -n 160 -load 2 -ratio 1 dcrew
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/lockgen/lockgen/netsim"
	"github.com/lockgen/lockgen/templates/distributed"
)

func main() {
	md := flag.Bool("md", false, "write docs/distributed.md (the paper's grid) to stdout")
	n := flag.Int("n", 160, "processes")
	load := flag.Float64("load", 2, "load, n·hold/think (2 is 200%)")
	ratio := flag.Int("ratio", 1, "readers per writer (0: writers only; -1: readers only)")
	entries := flag.Int("entries", 20000, "critical-section entries to simulate")
	reorder := flag.Bool("reorder", false, "let channels reorder messages (dCREW needs FIFO channels)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: netsim [-md] [-n N] [-load L] [-ratio R] [-entries E] [-reorder] [-seed S] [ALGORITHM]")
		flag.PrintDefaults()
	}
	flag.Parse()
	name := "dcrew"
	if flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}
	if flag.NArg() == 1 {
		name = flag.Arg(0)
	}
	e, ok := distributed.Lookup(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "netsim: no message-passing algorithm %q\n", name)
		os.Exit(2)
	}
	if *md {
		if err := writeDoc(os.Stdout, e); err != nil {
			fmt.Fprintln(os.Stderr, "netsim:", err)
			os.Exit(1)
		}
		return
	}
	c := netsim.DefaultConfig(*n, *load)
	c.ReaderRatio, c.Entries, c.FIFO, c.Seed = *ratio, *entries, !*reorder, *seed
	r := netsim.Run(e.Def(), c)
	fmt.Printf("%s: n=%d load=%.0f%% ratio=%d: %d entries (%d reads, %d writes), %.2f messages per entry, mean acquisition %.1f, up to %d readers at once\n",
		name, *n, *load*100, *ratio, r.Entries, r.Reads, r.Writes, r.MessagesPerEntry, r.MeanAcquire, r.MaxReaders)
	if r.Violation != "" {
		fmt.Println("VIOLATION:", r.Violation)
		os.Exit(1)
	}
}
