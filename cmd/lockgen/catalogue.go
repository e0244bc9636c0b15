package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/ir"
)

func runList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "", stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ALGORITHM\tMODES\tLIVENESS\tFAIRNESS\tEXIT\tRMR (CC / DSM)\tIDENTITY\tTITLE")
	for _, e := range templates.All() {
		title := e.Title
		if e.Incorrect != "" {
			title = "INCORRECT (opt-in): " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s / %s\t%s\t%s\n", e.Name, joinModes(e.Modes), e.Props.Liveness,
			e.Props.Fairness, firstWord(e.Props.Exit), e.Props.RMRCC, e.Props.RMRDSM, firstWord(e.Props.Identity), title)
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\nDetails: lockgen explain ALGORITHM")
	return exitOK
}

func joinModes(ms []templates.Mode) string {
	var s []string
	for _, m := range ms {
		s = append(s, string(m))
	}
	return strings.Join(s, ",")
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " ("); i > 0 {
		return s[:i]
	}
	return s
}

func runExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explain", "ALGORITHM", stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	e, ok := templates.Lookup(fs.Arg(0))
	if !ok {
		fmt.Fprintf(stderr, "lockgen: unknown algorithm %q; known: %s\n", fs.Arg(0), strings.Join(templates.Names(), ", "))
		return exitUsage
	}
	explain(stdout, e)
	return exitOK
}

func explain(w io.Writer, e *templates.Entry) {
	fmt.Fprintf(w, "%s — %s\n", e.Name, e.Title)
	if e.Incorrect != "" {
		fmt.Fprintf(w, "\nKNOWN INCORRECT: %s\nGenerating it needs allow_incorrect = true; verify must reject it.\n", e.Incorrect)
	}
	fmt.Fprintln(w, "\nSource:")
	for _, r := range e.Refs {
		fmt.Fprintf(w, "  %s\n", r)
	}
	p := e.Props
	fmt.Fprintln(w, "\nProperties (as the paper claims them):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, kv := range [][2]string{
		{"liveness", p.Liveness}, {"fairness", p.Fairness}, {"exit code", p.Exit},
		{"RMR, CC model", p.RMRCC}, {"RMR, DSM model", p.RMRDSM}, {"space", p.Space},
		{"instructions", strings.Join(p.Instructions, ", ")}, {"identity", p.Identity},
	} {
		fmt.Fprintf(tw, "  %s\t%s\n", kv[0], kv[1])
	}
	tw.Flush()

	fmt.Fprintln(w, "\nOptions:")
	fmt.Fprintf(w, "  mode: %s\n", joinModes(e.Modes))
	if len(e.Preferences) > 0 {
		var ps []string
		for _, p := range e.Preferences {
			ps = append(ps, string(p))
		}
		fmt.Fprintf(w, "  preference (rw): %s\n", strings.Join(ps, ", "))
	}
	switch {
	case e.NeedsProcs:
		lim := fmt.Sprintf("procs required (process ids 0..procs-1), at least %d", max(2, e.MinProcs))
		if e.ProcsSizeOnly {
			lim = fmt.Sprintf("procs required: it sizes the lock (no ids; at most procs goroutines at once), at least %d", max(2, e.MinProcs))
		}
		if e.MaxProcs > 0 {
			lim += fmt.Sprintf(", at most %d", e.MaxProcs)
		}
		fmt.Fprintf(w, "  %s\n", lim)
	default:
		fmt.Fprintln(w, "  no process ids")
	}
	if e.HasNodes() {
		fmt.Fprintf(w, "  nodes (default %s):\n", e.DefaultNodes)
		for _, n := range templates.AllNodePolicies {
			if why, ok := e.Nodes[n]; ok && why == "" {
				fmt.Fprintf(w, "    %-7s supported\n", n)
			} else {
				if !ok {
					why = "not offered"
				}
				fmt.Fprintf(w, "    %-7s rejected: %s\n", n, why)
			}
		}
	}
	fmt.Fprintln(w, "  wait:")
	for _, wp := range templates.AllWaitPolicies {
		if why, bad := e.Waits[wp]; bad {
			fmt.Fprintf(w, "    %-16s rejected: %s\n", wp, why)
		} else {
			fmt.Fprintf(w, "    %-16s supported\n", wp)
		}
	}
	if e.TryLock == "" {
		fmt.Fprintln(w, "  trylock: supported")
	} else {
		fmt.Fprintf(w, "  trylock: not supported: %s\n", e.TryLock)
	}
	for _, p := range e.Params {
		def := "required"
		if !p.Required {
			def = fmt.Sprintf("default %d", p.Default)
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", p.Key, def, p.Doc)
	}

	for _, o := range explainOptions(e) {
		a := e.MustDef(o)
		head := "Algorithm"
		if len(e.Modes) > 1 || o.Preference != "" {
			head += fmt.Sprintf(" (mode %s", o.Mode)
			if o.Preference != "" {
				head += ", preference " + string(o.Preference)
			}
			head += ")"
		}
		fmt.Fprintf(w, "\n%s — line labels are the paper's:\n", head)
		printDef(w, a)
	}
	if len(e.Deviations) > 0 {
		fmt.Fprintln(w, "\nDeviations from the paper:")
		for _, d := range e.Deviations {
			fmt.Fprintf(w, "  - %s\n", d)
		}
	}
	for _, n := range e.Notes {
		fmt.Fprintf(w, "\nNote: %s\n", n)
	}
}

// explainOptions lists one definition per mode and preference.
func explainOptions(e *templates.Entry) []templates.Options {
	var out []templates.Options
	for _, m := range e.Modes {
		if m == templates.RW && len(e.Preferences) > 0 {
			for _, p := range e.Preferences {
				out = append(out, templates.Options{Mode: m, Preference: p})
			}
			continue
		}
		out = append(out, templates.Options{Mode: m})
	}
	return out
}

func printDef(w io.Writer, a *ir.Algorithm) {
	if len(a.Shared) > 0 {
		var names []string
		for _, s := range a.Shared {
			names = append(names, s.Name)
		}
		sort.Strings(names)
		fmt.Fprintf(w, "  shared: %s\n", strings.Join(names, ", "))
	}
	for _, op := range a.Ops() {
		fmt.Fprintf(w, "  %s:\n", strings.ToLower(op.Name))
		for _, line := range ir.Listing(op.Code) {
			fmt.Fprintf(w, "    %s\n", strings.TrimRight(line, " "))
		}
	}
	if a.DoorwayEnd != "" {
		fmt.Fprintf(w, "  doorway: acquire up to and including line %s\n", a.DoorwayEnd)
	}
}
