package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/templates/distributed"
)

// The message-passing catalogue in list and explain.

const distributedStatus = "message passing: one process's lock over a Transport; model-checked (SPIN), simulated (netsim), stress-tested (netstress)"

func listDistributed(w io.Writer) {
	var rows [][]string
	for _, e := range distributed.All() {
		rows = append(rows, []string{e.Name, e.Title + "\n" + joinModes(e.Modes) + "; " + short(e.Props.Liveness) + "; " + short(e.Props.Fairness)})
	}
	fmt.Fprintln(w)
	hanging(w, "", strings.ToUpper(distributedStatus[:1])+distributedStatus[1:]+":")
	table(w, termWidth, []string{"ALGORITHM", "TITLE / MODES; LIVENESS; FAIRNESS"}, rows)
}

func distributedMarkdown(w io.Writer) {
	fmt.Fprintln(w, "## Message passing")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Distributed locks, written once as message-passing definitions (per-process state, typed messages,")
	fmt.Fprintln(w, "handlers) and generated as one process's lock over a `Transport` (`transport/inproc`, `transport/natstransport`).")
	fmt.Fprintln(w, "`make test` model-checks each with SPIN (n = 2 and 3, over FIFO channels and over channels that reorder;")
	fmt.Fprintln(w, "`lockgen verify` over those the paper assumes: in any order unless it assumes FIFO; an entry's notes say")
	fmt.Fprintln(w, "where a model at n = 3 is too large for every property by default), simulates it")
	fmt.Fprintln(w, "(`netsim`, docs/distributed.md) and runs its generated package's tests (`verify/netstress`). A spec")
	fmt.Fprintln(w, "takes only name, package, algorithm, mode and tests. What the checks found is in the assumptions")
	fmt.Fprintln(w, "column: where it goes beyond what the paper states, the paper's claim failed a check.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| algorithm | source | safety | liveness | fairness | messages per entry | assumptions (checked) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	cell := mdCell
	for _, e := range distributed.All() {
		p := e.Props
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | channels: %s; steps: %s |\n", e.Name,
			cell(citations(e.Refs)), cell(p.Safety), cell(p.Liveness), cell(p.Fairness), cell(p.Messages),
			cell(p.Channels), cell(p.Steps))
	}
	fmt.Fprintln(w)
}

// verifiedOver says over which channels lockgen verify checks e by
// default: those its paper assumes.
func verifiedOver(e *distributed.Entry) string {
	if e.AssumesFIFO {
		return "lockgen verify checks it over FIFO channels, which it assumes (-channels reorder: without)"
	}
	return "lockgen verify checks it over channels that reorder, since it assumes no order (-channels fifo: in order)"
}

func explainDistributed(w io.Writer, e *distributed.Entry) {
	hanging(w, e.Name+" — ", e.Title)
	hanging(w, "", "("+distributedStatus+")")
	fmt.Fprintln(w, "\nSource:")
	for _, r := range e.Refs {
		hanging(w, "  - ", r.String())
	}
	p := e.Props
	stabilizes := ""
	if e.Stabilizing != nil {
		stabilizes = e.Stabilizing.Why
	}
	fmt.Fprintln(w, "\nProperties (as the paper claims them; assumptions as the checks found them):")
	for _, kv := range [][2]string{
		{"converges", stabilizes},
		{"safety", p.Safety}, {"liveness", p.Liveness}, {"fairness", p.Fairness},
		{"messages", p.Messages}, {"delay", p.Delay}, {"space", p.Space}, {"channels", p.Channels + "; " + verifiedOver(e)}, {"steps", p.Steps},
		{"trylock", map[bool]string{true: "supported (when the acquire needs no message)", false: "not offered: " + e.NoTryLock}[e.NoTryLock == ""]},
		{"failures", "over natstransport, a process that crashes, pauses past its lease or restarts is removed, and the others start the algorithm again in a new epoch of the members left: " + e.Restart + " (docs/distributed.md)"},
	} {
		if kv[1] != "" {
			hanging(w, fmt.Sprintf("  %-10s", kv[0]), kv[1])
		}
	}
	a := e.Def()
	fmt.Fprintln(w, "\nAlgorithm (the deviations say where its labels come from):")
	var state []string
	for _, l := range a.Locals {
		if l.Scope == ir.Process {
			state = append(state, l.Name)
		}
	}
	hanging(w, "  state of each process: ", strings.Join(state, ", "))
	for _, m := range a.Messages {
		var ps []string
		for _, p := range m.Params {
			ps = append(ps, p.Name)
		}
		hanging(w, "  message: ", fmt.Sprintf("%s(%s): %s", m.Name, strings.Join(ps, ", "), m.Doc))
	}
	for _, body := range a.Bodies() {
		name := body.Name
		if r := e.Routines[body.Name]; r != "" {
			name = r + " (" + body.Name + ")"
		}
		fmt.Fprintf(w, "  %s:\n", name)
		for _, line := range ir.Listing(body.Code) {
			codeLine(w, "    "+strings.TrimRight(line, " "))
		}
	}
	if len(e.Deviations) > 0 {
		fmt.Fprintln(w, "\nDeviations from the paper:")
		for _, d := range e.Deviations {
			hanging(w, "  - ", d)
		}
	}
	for _, n := range e.Notes {
		fmt.Fprintln(w)
		hanging(w, "", "Note: "+n)
	}
}
