package main

import (
	"fmt"
	"io"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/spec"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "[-keys] [-o DIR] SPEC...", stderr)
	keys := fs.Bool("keys", false, "print the spec keys, their valid values and defaults")
	out := fs.String("o", "", "check as generate -o `DIR` would write (default: each spec's directory)")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if *keys {
		printKeys(stdout)
		return exitOK
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	// The checks are generate's own, short of writing: a spec that check
	// accepts generates, and one it rejects does not.
	plan, err := gen.Build(fs.Args(), gen.Options{OutDir: *out})
	if err != nil {
		return reportSpecErrors(err, stderr)
	}
	for _, l := range plan.Locks {
		fmt.Fprintf(stdout, "%s: ok: %s (%s, %s)\n", l.Pos, l.Name, l.Algorithm, l.Mode)
	}
	return exitOK
}

// printKeys lists the spec keys, each with its type and default on one
// line and its valid values wrapped beneath, to fit a terminal.
func printKeys(w io.Writer) {
	for i, k := range spec.Schema {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s)\n", k.Key, k.Type)
		hanging(w, "    ", "valid: "+k.Values)
		hanging(w, "    ", "default: "+k.Default)
	}
	fmt.Fprintln(w, "\nAlgorithms add their own keys: lockgen explain ALGORITHM.")
}
