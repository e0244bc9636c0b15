// Command faults runs lockgen's fault-injection suite over the
// catalogue's distributed locks (package lab/faults) and prints its
// report; it exits 1 if a fenced resource saw a violation or an
// inversion, a lock failed with no fault to explain it, an intruder's
// message got through, or (with -targets) a recovery target was missed.
//
//	go run ./lab/faults/cmd/faults -faults 1000 -server-restarts 4 -intruder 10000 -targets   (make faults)
//	go run ./lab/faults/cmd/faults -alg dcrew -n 5 -faults 40
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/lab/faults"
	"github.com/lockgen/lockgen/transport/natstransport"
)

func main() {
	if faults.IsChild() {
		faults.Child()
	}
	algs := flag.String("alg", "", "catalogue entries, comma-separated (default: all)")
	ns := flag.String("n", "3,5", "group sizes, comma-separated")
	total := flag.Int("faults", 100, "faults to inject over all groups")
	parallel := flag.Int("parallel", 3, "groups under faults at once")
	lease := flag.Duration("lease", natstransport.DefaultLease, "the groups' lease")
	restarts := flag.Int("server-restarts", 1, "server restarts, evenly over the run")
	intruder := flag.Int("intruder", 1000, "forged, replayed and malformed messages sent after the faults")
	targets := flag.Bool("targets", false, "also require the recovery target: after a holder's crash at n = 5, the next grant within the lease plus 1 s at p99")
	seed := flag.Uint64("seed", 1, "random seed")
	verbose := flag.Bool("v", false, "copy the children's stderr")
	trace := flag.String("trace", "", "write the run's timeline to this file")
	report := flag.String("report", "", "also write the report, with the command and its date, to this Markdown file (make faults: docs/faults.md)")
	flag.Parse()
	cfg := faults.Config{Faults: *total, Parallel: *parallel, Lease: *lease, ServerRestarts: *restarts, Intruder: *intruder, Seed: *seed, Progress: os.Stderr}
	if *algs != "" {
		cfg.Algorithms = strings.Split(*algs, ",")
	}
	for _, f := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 {
			fmt.Fprintf(os.Stderr, "faults: -n %q: want sizes of at least 2\n", *ns)
			os.Exit(2)
		}
		cfg.Ns = append(cfg.Ns, n)
	}
	if *verbose {
		cfg.ChildLog = os.Stderr
	}
	if *trace != "" {
		f, err := os.Create(*trace)
		if err != nil {
			fmt.Fprintln(os.Stderr, "faults:", err)
			os.Exit(2)
		}
		defer f.Close()
		cfg.Trace = f
	}
	began := time.Now().UTC()
	rep, err := faults.Run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		os.Exit(2)
	}
	var text strings.Builder
	rep.Write(&text)
	failed := rep.Failed() || rep.Unexplained() > 0
	if *targets {
		key := "kill -9 of a holder, n = 5"
		p99, bound := faults.Percentile(rep.Recovery[key], 99), *lease+time.Second
		met := len(rep.Recovery[key]) > 0 && p99 <= bound
		fmt.Fprintf(&text, "target: %s: next grant within the lease plus 1 s (%v) at p99: %v over %d: %s\n", key, bound, p99.Round(time.Millisecond),
			len(rep.Recovery[key]), map[bool]string{true: "met", false: "MISSED"}[met])
		failed = failed || !met
	}
	fmt.Print(text.String())
	if *report != "" {
		doc := fmt.Sprintf("# Distributed locks under faults\n\nWritten by `make faults` (`go run ./lab/faults/cmd/faults %s`), begun %s UTC. The suite is\nlab/faults: what it injects and checks is in its package comment and in ARCHITECTURE.md; the\nprotocol it tests is docs/distributed.md's \"Epoch protocol\". Recovery times depend on the machine's\nload: this run shared 2 cores with other work.\n\n```text\n%s```\n",
			strings.Join(os.Args[1:], " "), began.Format("2006-01-02 15:04"), text.String())
		if err := os.WriteFile(*report, []byte(doc), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "faults:", err)
			os.Exit(2)
		}
	}
	if failed {
		os.Exit(1)
	}
}
