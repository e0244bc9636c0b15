// Command spincheck model-checks catalogue algorithms with SPIN:
//
//	go run ./lab/spin/cmd/spincheck -n 2,3,4 ticket mcs
//	go run ./lab/spin/cmd/spincheck -model -n 3 mcs   # print the Promela model
//	go run ./lab/spin/cmd/spincheck -n 2,3 -aborts -props abort-mutual-exclusion lamport-fast
//
// Exit status: 0 every run passed or was skipped, 1 a run failed (or the
// check could not start), 2 a usage error, 3 no run failed but some gave
// no verdict (out of time or memory): a make target that must verify
// something does not pass on an incomplete search.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// progressEvery is how often spincheck reports a long search.
const progressEvery = time.Minute

func main() {
	sizes := flag.String("n", "2,3,4", "numbers of processes, comma-separated")
	timeout := flag.Duration("timeout", 2*time.Minute, "time budget per SPIN run")
	mem := flag.Int("mem", 4096, "memory budget per SPIN run, MB")
	collapse := flag.Bool("collapse", false, "compress stored states (pan -DCOLLAPSE): less memory per state, slower")
	fixedHash := flag.Bool("fixed-hash", false, "keep the hash table at -hash's size (pan -DNO_RESIZE): 8 bytes less per stored state")
	hash := flag.Int("hash", 0, "hash table size as a power of two (pan -w); 0: 20 at n ≤ 3, 24 from n = 4; large searches want about log2(states)")
	passages := flag.Int("passages", 3, "passages per process in models with unbounded counters")
	props := flag.String("props", "", "properties (comma-separated), default: what the entry claims")
	pref := flag.String("pref", "", "reader/writer preference (reader, writer, fair), default: the entry's first")
	model := flag.Bool("model", false, "print the Promela model (mutual exclusion instrumentation) and exit")
	modeName := flag.String("mode", "", "mode to check (mutex, kexclusion, rw), default: mutex when the entry offers it")
	k := flag.Int("k", 0, "k of k-exclusion, default n − 1")
	fold := flag.Bool("fold", false, "fold local work into the neighbouring step (promela Options.Fold): usually fewer states, same verdicts")
	hashCompact := flag.Bool("hash-compact", false, "store a 96-bit signature per state (pan -DHC4): fewer bytes per state than -collapse; a pass reports how many states the search may have skipped on average (at most 1e-6, or no verdict)")
	noReduce := flag.Bool("no-reduce", false, "compile pan without partial order reduction (-DNOREDUCE); crash models are always checked without it, since pan cannot vouch for it there")
	victims := flag.String("victims", "", "with crashes, only these processes (comma-separated) may crash: one run of -split-crashes's split, to make its runs apart")
	splitCrashes := flag.Bool("split-crashes", false, "check crash tolerance once per process that may crash (per set of k − 1 processes): the runs together cover every crash, each stores fewer states")
	aborts := flag.Bool("aborts", false, "also check, for an abortable entry, the properties with aborts: every waiting process may give up at any wait with abort code, any number of times")
	quiescence := flag.Bool("quiescence", false, "check liveness over bounded passages as a safety property (no state where every process is idle, crashed or stuck), where the loops write nothing")
	flag.Parse()
	ns := ints("n", *sizes)
	var victimList []int
	if *victims != "" {
		victimList = ints("victims", *victims)
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: spincheck [flags] algorithm...  (one of", strings.Join(templates.Names(), ", ")+")")
		os.Exit(2)
	}
	if *model {
		for _, name := range flag.Args() {
			e, ok := templates.Lookup(name)
			if !ok {
				fmt.Fprintln(os.Stderr, "spincheck: unknown algorithm", name)
				os.Exit(2)
			}
			m := mode.Mode(*modeName).Or(mode.Mutex)
			a := e.MustDef(templates.Options{Mode: m})
			o := promela.Options{Mode: m, Checks: promela.MutualExclusion, Fold: *fold}
			if len(promela.Analyze(a).Counters) > 0 {
				o.Passages = *passages
			}
			extra := map[string]int64{}
			for _, ps := range e.Params {
				extra[ps.Key] = ps.Default
			}
			kk := 1
			if m.TakesK() {
				kk = cmp.Or(*k, max(1, ns[0]-1))
			}
			s, err := promela.Model(a, ir.Params{N: ns[0], K: kk, Extra: extra}, o)
			if err != nil {
				fmt.Fprintln(os.Stderr, "spincheck:", err)
				os.Exit(1)
			}
			fmt.Print(s)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	so := spin.SuiteOptions{Sizes: ns, Passages: *passages, Preference: templates.Preference(*pref), Mode: mode.Mode(*modeName), K: *k,
		Run: spin.Options{Timeout: *timeout, MemLimitMB: *mem, Collapse: *collapse, FixedHash: *fixedHash, HashBits: *hash, Fold: *fold, SplitCrashes: *splitCrashes, Victims: victimList, HashCompact: *hashCompact, NoReduce: *noReduce},
		Log: func(s string) { fmt.Fprintln(os.Stderr, s) }, Quiescence: *quiescence, Aborts: *aborts}
	if *props != "" {
		for _, p := range strings.Split(*props, ",") {
			so.Properties = append(so.Properties, spin.Property(strings.TrimSpace(p)))
		}
	}
	failed, incomplete := false, false
	for _, name := range flag.Args() {
		// A search can take an hour: say what it is doing every minute.
		start := time.Now()
		last := start
		so.Progress = func(msg string) {
			if now := time.Now(); now.Sub(last) >= progressEvery {
				last = now
				fmt.Fprintf(os.Stderr, "spincheck: %s %s (%s so far)\n", name, msg, now.Sub(start).Round(time.Second))
			}
		}
		rep, err := spin.CheckEntry(ctx, name, so)
		if rep != nil {
			fmt.Println(rep)
			failed = failed || rep.Failed()
			incomplete = incomplete || rep.Incomplete()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "spincheck:", err)
			os.Exit(1)
		}
	}
	switch {
	case failed:
		os.Exit(1)
	case incomplete:
		fmt.Fprintln(os.Stderr, "spincheck: some runs gave no verdict")
		os.Exit(3)
	}
}

// ints parses a comma-separated list of integers given to -name, or exits
// with the usage status.
func ints(name, list string) []int {
	var out []int
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintf(os.Stderr, "spincheck: bad -%s: %v\n", name, err)
			os.Exit(2)
		}
		out = append(out, v)
	}
	return out
}
