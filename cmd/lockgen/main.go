// Command lockgen generates specialised Go locks from TOML specs and checks
// them.
//
//	lockgen generate [-o DIR] [-v] SPEC...   write the lock packages
//	lockgen check SPEC...                    validate specs only
//	lockgen list                             the catalogue with its properties
//	lockgen explain ALGORITHM                paper, steps and properties of one algorithm
//	lockgen verify [flags] SPEC...           stress, controlled scheduler and SPIN on the specs' locks
//	lockgen bench [flags] SPEC               the spec's locks measured next to the standard locks
//	lockgen simulate [flags] SPEC            the spec's distributed locks in the message-passing simulator
//	lockgen tune [flags] SPEC                the spec's lock variants measured on your own benchmarks
//
// Exit status: 0 success, 1 a check or verification failed, 2 a usage or
// spec error, 3 (verify) nothing failed but a run gave no verdict, 130
// interrupted (SIGINT or SIGTERM). From a go:generate line:
//
//	//go:generate go run github.com/lockgen/lockgen/cmd/lockgen generate locks.toml
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/lockgen/lockgen/spec"
)

// Exit codes.
const (
	exitOK         = 0
	exitFailed     = 1 // a check or verification failed
	exitUsage      = 2 // bad usage or a bad spec
	exitIncomplete = 3 // verify: nothing failed, but a run gave no verdict
	// exitInterrupted: SIGINT or SIGTERM stopped the run (128 + SIGINT's
	// number, as a shell reports a process an interrupt ended).
	exitInterrupted = 130
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one verb. usage shows the synopsis the verb's own -h gives;
// args is the short form, for a verb without one.
type command struct {
	name, args, summary string
	run                 func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"generate", "[-o DIR] [-v] SPEC...", "write the lock packages described by the specs", runGenerate},
		{"check", "SPEC...", "validate specs without generating", runCheck},
		{"list", "", "list the catalogue with each algorithm's properties", runList},
		{"explain", "ALGORITHM", "show an algorithm's paper, steps, properties and options", runExplain},
		{"verify", "[flags] SPEC...", "check the specs' locks: stress, controlled scheduler, SPIN", runVerify},
		{"bench", "[flags] SPEC", "measure a spec's locks next to the standard locks", runBench},
		{"simulate", "[flags] SPEC", "simulate a spec's distributed locks: messages, waiting", runSimulate},
		{"tune", "[flags] SPEC", "choose a spec's lock variants on your own benchmarks", runTune},
		{"version", "", "print lockgen's version and the revision it was built from", runVersion},
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return exitOK
	}
	if args[0] == "-version" || args[0] == "--version" {
		return runVersion(nil, stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	hint := ""
	if m := spec.Suggest(args[0], names); m != "" {
		hint = fmt.Sprintf("; did you mean %q?", m)
	}
	fmt.Fprintf(stderr, "lockgen: unknown command %q%s\n\n", args[0], hint)
	usage(stderr)
	return exitUsage
}

// usage lists every verb with its synopsis, flags included, as the verb's
// own -h gives it (one source: the verb's flag set), and what it does.
func usage(w io.Writer) {
	fmt.Fprintln(w, "lockgen generates specialised Go locks from TOML specs and checks them.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands() {
		lead := "  lockgen " + c.name + " "
		hang(w, termWidth, lead, spaces(lead), synopsis(c))
		hanging(w, "      ", c.summary)
	}
	fmt.Fprintln(w, "\nlockgen VERB -h describes a verb's flags.")
	fmt.Fprintln(w, "Exit status: 0 ok, 1 a check or verification failed, 2 usage or spec error,")
	fmt.Fprintln(w, "3 (verify) nothing failed but a run gave no verdict, 130 interrupted.")
	fmt.Fprintln(w, "Spec keys and defaults: lockgen check -keys")
}

// synopsis is what follows "lockgen VERB" in the verb's usage: the head
// of its -h, before the flags, as the verb's newFlags writes it.
func synopsis(c command) string {
	var b strings.Builder
	c.run([]string{"-h"}, &b, io.Discard)
	var words []string
	for i, line := range strings.Split(b.String(), "\n") {
		if i > 0 && !strings.HasPrefix(line, "       ") {
			break // a flag's line, or the end
		}
		words = append(words, strings.Fields(line)...)
	}
	if len(words) < 3 {
		return c.args // a verb without a flag set
	}
	return strings.Join(words[3:], " ") // after "usage: lockgen VERB"
}

// newFlags makes a verb's flag set that reports usage errors the same way.
// Its usage is the synopsis (every flag, then the arguments), then each
// flag with its description, wrapped within termWidth.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("lockgen "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		w := fs.Output()
		lead := "usage: lockgen " + name + " "
		hang(w, termWidth, lead, spaces(lead), args)
		fs.VisitAll(func(f *flag.Flag) {
			kind, text := flag.UnquoteUsage(f)
			fmt.Fprintln(w, strings.TrimRight("  -"+f.Name+" "+kind, " "))
			if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" {
				if kind == "string" {
					def = strconv.Quote(def)
				}
				text += " (default " + def + ")"
			}
			hang(w, termWidth, "      ", "      ", text)
		})
	}
	return fs
}

// reportSpecErrors prints spec problems, one per line, and returns the exit
// code for err.
func reportSpecErrors(err error, stderr io.Writer) int {
	var se spec.Errors
	if errors.As(err, &se) {
		for _, e := range se {
			fmt.Fprintln(stderr, e)
		}
		return exitUsage
	}
	fmt.Fprintln(stderr, "lockgen:", err)
	return exitUsage
}
