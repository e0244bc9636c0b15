package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

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
	// SIGINT and SIGTERM stop the write and put back what it replaced.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	plan, rep, err := gen.Generate(ctx, fs.Args(), gen.Options{OutDir: *out}, func(dir string) {
		fmt.Fprintf(stderr, "lockgen: waiting for another lockgen generate writing %s\n", dir)
	})
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintln(stderr, "lockgen: interrupted:", err)
		return exitInterrupted
	case err != nil && plan == nil: // the specs, before anything was written
		return reportSpecErrors(err, stderr)
	case err != nil:
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
