package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/lockgen/lockgen/spec"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "[-keys] SPEC...", stderr)
	keys := fs.Bool("keys", false, "print the spec keys, their valid values and defaults")
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
	code := exitOK
	for _, p := range fs.Args() {
		f, err := spec.ParseFile(p)
		var se spec.Errors
		switch {
		case errors.As(err, &se):
			for _, e := range se {
				fmt.Fprintln(stderr, e)
			}
			code = exitUsage
		case err != nil:
			fmt.Fprintln(stderr, "lockgen:", err)
			code = exitUsage
		default:
			for _, l := range f.Locks {
				fmt.Fprintf(stdout, "%s: ok: %s (%s, %s)\n", l.Pos, l.Name, l.Algorithm, l.Mode)
			}
		}
	}
	return code
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
