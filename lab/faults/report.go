package faults

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is what a run saw.
type Report struct {
	Duration       time.Duration
	Lease          time.Duration
	Groups         []GroupReport
	Faults         map[string]int // by kind, over every group
	ServerRestarts int
	// Recovery is the time from each fault to the group's next grant, by
	// kind of fault and group size.
	Recovery map[string][]time.Duration
	Intruder Intruder
}

// GroupReport is one group's part.
type GroupReport struct {
	Name        string
	N           int
	Rounds      int
	Faults      int
	Accepted    int64 // accesses the fenced resource accepted
	Stale       int64 // accesses it refused for an older epoch's token
	Epochs      int64 // how many times the largest token's epoch rose: fences across epochs
	Violations  []string
	Inversions  []string
	Unexplained []string // lock failures that no injected fault explains
	// Errors are the suite's own failures (a child it could not start, an
	// intruder that could not connect): what it did not check.
	Errors []string
}

// Intruder is what the outsider sent and got.
type Intruder struct {
	Sent, Dropped int64
	Failures      int   // locks that failed while it sent
	Grants        int64 // the groups' grants meanwhile
}

func (r *run) report(groups []*scenario, d time.Duration) *Report {
	rep := &Report{Duration: d, Lease: r.cfg.Lease, Faults: map[string]int{}, Recovery: map[string][]time.Duration{}, ServerRestarts: r.restarts}
	for _, s := range groups {
		res := s.res.Report()
		s.mu.Lock()
		g := GroupReport{Name: s.name, N: s.n, Rounds: s.rounds, Accepted: res.Accepted, Stale: res.Stale, Epochs: res.Epochs,
			Violations: append(slices.Clone(res.Violations), s.violations...), Inversions: res.Inversions, Unexplained: s.unexplained,
			Errors: slices.Clone(s.errors)}
		for k, v := range s.faults {
			g.Faults += v
			rep.Faults[k] += v
		}
		for k, v := range s.recoveries {
			key := fmt.Sprintf("%s, n = %d", k, s.n)
			rep.Recovery[key] = append(rep.Recovery[key], v...)
		}
		rep.Intruder.Sent += s.intruded.sent
		rep.Intruder.Dropped += s.intruded.dropped
		rep.Intruder.Failures += s.intruded.failures
		rep.Intruder.Grants += s.intruded.grants
		s.mu.Unlock()
		rep.Groups = append(rep.Groups, g)
	}
	return rep
}

// TotalFaults is every fault injected, server restarts included.
func (r *Report) TotalFaults() int {
	t := r.ServerRestarts
	for _, v := range r.Faults {
		t += v
	}
	return t
}

// Failed reports whether the run saw a violation (no progress
// included), an inversion, or an intruder's message that got through:
// what safety and the recovery the suite waits for forbid; or an error
// of the suite's own, which left something unchecked.
func (r *Report) Failed() bool {
	for _, g := range r.Groups {
		if len(g.Violations)+len(g.Inversions)+len(g.Errors) > 0 {
			return true
		}
	}
	return r.Intruder.Failures > 0 || r.Intruder.Dropped < r.Intruder.Sent
}

// Unexplained counts the lock failures no injected fault explains: a
// live process that lost its lease or was removed (a machine too loaded
// to renew in time does that), or a request that timed out.
func (r *Report) Unexplained() int {
	n := 0
	for _, g := range r.Groups {
		n += len(g.Unexplained)
	}
	return n
}

// Percentile is the p-th percentile of ds (0 for none).
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p/100*float64(len(s))))]
}

// Write prints the report.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "fault suite: %d groups, %d faults in %v (lease %v)\n\n", len(r.Groups), r.TotalFaults(), r.Duration.Round(time.Second), r.Lease)
	fmt.Fprintf(w, "%-28s %7s %7s %9s %7s %7s %11s %11s %12s\n", "group", "rounds", "faults", "accepted", "stale", "epochs", "violations", "inversions", "unexplained")
	var violations, inversions, unexplained, errors int
	for _, g := range r.Groups {
		fmt.Fprintf(w, "%-28s %7d %7d %9d %7d %7d %11d %11d %12d\n", g.Name, g.Rounds, g.Faults, g.Accepted, g.Stale, g.Epochs, len(g.Violations), len(g.Inversions), len(g.Unexplained))
		violations += len(g.Violations)
		inversions += len(g.Inversions)
		unexplained += len(g.Unexplained)
		errors += len(g.Errors)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "faults injected:")
	for _, k := range slices.Sorted(maps.Keys(r.Faults)) {
		fmt.Fprintf(w, "  %-40s %6d\n", k, r.Faults[k])
	}
	fmt.Fprintf(w, "  %-40s %6d\n", "server restart (in-memory store lost)", r.ServerRestarts)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "recovery, from the fault to the group's next grant:")
	fmt.Fprintf(w, "  %-48s %6s %8s %8s %8s\n", "fault", "count", "p50", "p99", "max")
	for _, k := range slices.Sorted(maps.Keys(r.Recovery)) {
		ds := r.Recovery[k]
		fmt.Fprintf(w, "  %-48s %6d %8v %8v %8v\n", k, len(ds), Percentile(ds, 50).Round(time.Millisecond),
			Percentile(ds, 99).Round(time.Millisecond), Percentile(ds, 100).Round(time.Millisecond))
	}
	fmt.Fprintln(w)
	if r.Intruder.Sent > 0 {
		fmt.Fprintf(w, "intruder: %d forged, replayed and malformed messages; %d counted as dropped; %d locks failed; the groups made %d grants meanwhile\n\n",
			r.Intruder.Sent, r.Intruder.Dropped, r.Intruder.Failures, r.Intruder.Grants)
	}
	fmt.Fprintf(w, "exclusion violations: %d; fence inversions: %d (tokens rose across every epoch: the epochs column); lock failures no fault explains: %d\n", violations, inversions, unexplained)
	if errors > 0 {
		fmt.Fprintf(w, "the suite's own errors (what they name went unchecked): %d\n", errors)
	}
	for _, g := range r.Groups {
		for _, v := range slices.Concat(g.Violations, g.Inversions, g.Unexplained, g.Errors) {
			if v = strings.TrimSpace(v); v != "" {
				fmt.Fprintf(w, "  %s\n", v)
			}
		}
	}
}
