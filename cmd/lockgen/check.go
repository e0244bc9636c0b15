package main

import (
	"fmt"
	"io"
	"text/tabwriter"

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
	if _, err := gen.Build(fs.Args(), gen.Options{OutDir: *out}); err != nil {
		return reportSpecErrors(err, stderr)
	}
	for _, p := range fs.Args() {
		f, err := spec.ParseFile(p)
		if err != nil {
			return reportSpecErrors(err, stderr)
		}
		for _, l := range f.Locks {
			fmt.Fprintf(stdout, "%s: ok: %s (%s, %s)\n", l.Pos, l.Name, l.Algorithm, l.Mode)
		}
	}
	return exitOK
}

func printKeys(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tTYPE\tDEFAULT\tVALID VALUES")
	for _, k := range spec.Schema {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.Key, k.Type, k.Default, k.Values)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nAlgorithms add their own keys: lockgen explain ALGORITHM.")
}
