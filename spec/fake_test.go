package spec

import (
	"errors"
	"sort"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// fakeCatalogue is a catalogue for tests.
type fakeCatalogue map[string]*templates.Entry

func (f fakeCatalogue) Lookup(name string) (*templates.Entry, bool) {
	e, ok := f[name]
	return e, ok
}

func (f fakeCatalogue) Names() []string {
	var names []string
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// overlay resolves names in the real catalogue first and falls back to f.
type overlay struct{ fallback fakeCatalogue }

func (o overlay) Lookup(name string) (*templates.Entry, bool) {
	if e, ok := templates.Lookup(name); ok {
		return e, true
	}
	return o.fallback.Lookup(name)
}

func (o overlay) Names() []string {
	seen := map[string]bool{}
	var names []string
	for _, n := range append(templates.Names(), o.fallback.Names()...) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

var allNodes = map[nodes.Policy]string{
	nodes.Handle: "", nodes.Pool: "", nodes.Heap: "", nodes.Caller: "", nodes.Array: "",
}

// standIns model the entries the lead is writing (names, modes, node and
// wait policies as the papers suggest); reasons are placeholders. They let
// the corpus run before the real entries land (go test -standin).
var standIns = fakeCatalogue{
	"ticket": {
		Name:  "ticket",
		Modes: []mode.Mode{mode.Mutex},
	},
	"mcs": {
		Name:         "mcs",
		Modes:        []mode.Mode{mode.Mutex},
		Nodes:        allNodes,
		DefaultNodes: nodes.Handle,
	},
	"dvir-taubenfeld-1": {
		Name:  "dvir-taubenfeld-1",
		Modes: []mode.Mode{mode.Mutex},
		Nodes: map[nodes.Policy]string{
			nodes.Handle: "",
			nodes.Heap:   "",
			nodes.Array:  "",
			nodes.Pool:   "a process's two nodes alternate across passages, and a released node may still be read by the next process; a pool could hand it out while in use",
			nodes.Caller: "the algorithm owns two nodes per process and alternates them",
		},
		DefaultNodes: nodes.Handle,
	},
	"filter": {
		Name:       "filter",
		Modes:      []mode.Mode{mode.Mutex, mode.KExclusion},
		NeedsProcs: true,
		TryLock:    "a process cannot leave the filter levels without passing them",
	},
	"bakery": {
		Name:       "bakery",
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		TryLock:    "a process that took a ticket cannot withdraw it without a new passage",
	},
	"mcs-rw": {
		Name:        "mcs-rw",
		Modes:       []mode.Mode{mode.RW},
		Preferences: []templates.Preference{templates.FairPref, templates.ReaderPref, templates.WriterPref},
		TryLock:     "no non-blocking acquire",
	},
}

// fakes adds entries for the rules the stand-ins do not exercise.
var fakes = func() fakeCatalogue {
	f := fakeCatalogue{}
	for n, e := range standIns {
		f[n] = e
	}
	f["fake-hyman"] = &templates.Entry{
		Name:       "fake-hyman",
		Modes:      []mode.Mode{mode.Mutex},
		NeedsProcs: true,
		MinProcs:   2,
		MaxProcs:   2,
		Incorrect:  "two processes can both enter (Raynal 1986)",
	}
	f["fake-fischer"] = &templates.Entry{
		Name:       "fake-fischer",
		Modes:      []mode.Mode{mode.Mutex},
		Waits:      rejectWaits(wait.Policy.Parks, "a parked process misses the delta bound the algorithm relies on"),
		NeedsProcs: true,
		Params: []templates.ParamSpec{
			{Key: "delta", Doc: "the longest time a write may take", Duration: true, Required: true},
		},
	}
	f["fake-anon"] = &templates.Entry{
		Name:         "fake-anon",
		Modes:        []mode.Mode{mode.Mutex},
		NeedsProcs:   true,
		MaxProcs:     16,
		Nodes:        map[nodes.Policy]string{nodes.Array: ""},
		DefaultNodes: nodes.Array,
		Params: []templates.ParamSpec{
			{Key: "memory", Doc: "the number of anonymous registers", Default: 5,
				Check: func(v int64, procs int) error {
					if v <= int64(procs) {
						return errors.New("memory must be greater than procs")
					}
					return nil
				}},
			{Key: "backoff", Doc: "pause between retries", Duration: true, Default: 1500},
		},
	}
	f["fake-sized"] = &templates.Entry{
		Name:          "fake-sized",
		Modes:         []mode.Mode{mode.Mutex},
		NeedsProcs:    true,
		ProcsSizeOnly: true,
	}
	f["fake-ksem"] = &templates.Entry{
		Name:    "fake-ksem",
		Modes:   []mode.Mode{mode.KExclusion},
		TryLock: "",
	}
	f["fake-krw"] = &templates.Entry{
		Name:        "fake-krw",
		Modes:       []mode.Mode{mode.KExclusion, mode.RW},
		Preferences: []templates.Preference{templates.FairPref},
		NeedsProcs:  true,
		TryLock:     "none",
	}
	f["fake-rw"] = &templates.Entry{
		Name:        "fake-rw",
		Modes:       []mode.Mode{mode.Mutex, mode.RW},
		Preferences: []templates.Preference{templates.WriterPref, templates.ReaderPref},
		TryLock:     "no way back from the queue",
	}
	f["fake-parkless"] = &templates.Entry{
		Name:         "fake-parkless",
		Modes:        []mode.Mode{mode.Mutex},
		Nodes:        map[nodes.Policy]string{nodes.Handle: "", nodes.Array: "records are not per id."},
		DefaultNodes: nodes.Handle,
		Waits:        rejectWaits(wait.Policy.Parks, "no write to park on"),
	}
	return f
}()

// rejectWaits rejects, for why, every wait policy for which rule holds.
func rejectWaits(rule func(wait.Policy) bool, why string) map[wait.Policy]string {
	out := map[wait.Policy]string{}
	for _, w := range wait.Where(rule) {
		out[w] = why
	}
	return out
}

// neverParks are the wait policies left to an entry that cannot park.
var neverParks = wait.Where(func(w wait.Policy) bool { return !w.Parks() })
