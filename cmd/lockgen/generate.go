package main

import (
	"fmt"
	"io"

	"github.com/lockgen/lockgen/gen"
)

func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("generate", "[-o DIR] [-v] SPEC...", stderr)
	out := fs.String("o", "", "write the packages to `DIR` (default: each spec's directory)")
	verbose := fs.Bool("v", false, "list the files written, left unchanged and removed")
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	plan, err := gen.Build(fs.Args(), gen.Options{OutDir: *out})
	if err != nil {
		return reportSpecErrors(err, stderr)
	}
	rep, err := plan.Write()
	if err != nil {
		fmt.Fprintln(stderr, "lockgen:", err)
		return exitFailed
	}
	if *verbose {
		for _, l := range []struct {
			verb  string
			paths []string
		}{{"wrote", rep.Written}, {"unchanged", rep.Unchanged}, {"removed", rep.Removed}} {
			for _, p := range l.paths {
				fmt.Fprintln(stdout, l.verb, p)
			}
		}
	}
	return exitOK
}
