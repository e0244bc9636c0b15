package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
)

// parseArgs parses a verb's flags wherever they stand among its arguments
// (lockgen check x.toml -keys), as far as a "--", and leaves the other
// arguments in fs.Args(). -h prints the verb's usage on stdout: help is
// output, not an error. ok is false when the verb should exit with code.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, ok bool) {
	end := slices.Index(args, "--")
	if end < 0 {
		end = len(args)
	}
	for _, a := range args[:end] {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
			fs.Usage()
			return exitOK, false
		}
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return exitUsage, false
	}
	return exitOK, true
}

// runVersion prints the module version and the VCS revision the binary
// was built from, as the Go tool recorded them.
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", stderr)
	if code, ok := parseArgs(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	fmt.Fprintln(stdout, versionString())
	return exitOK
}

func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "lockgen: no build information (the binary was built without module support)"
	}
	return versionOf(bi)
}

// modulePath is lockgen's module.
const modulePath = "github.com/lockgen/lockgen"

// versionOf says which lockgen bi describes: the module version (and
// what replaced it), the VCS revision, the Go version; where there is no
// revision, why.
func versionOf(bi *debug.BuildInfo) string {
	m := &bi.Main
	if m.Path != modulePath { // lockgen as a tool or dependency of another module
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lockgen %s", m.Version)
	if r := m.Replace; r != nil {
		fmt.Fprintf(&b, " => %s", r.Path)
		if r.Version != "" {
			fmt.Fprintf(&b, " %s", r.Version)
		}
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	switch rev := settings["vcs.revision"]; {
	case rev != "":
		fmt.Fprintf(&b, " (%s %s", settings["vcs"], rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, ", %s", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	case m.Version == "(devel)" || m.Replace != nil:
		why := "built by go run or go test, from a git worktree, or with -buildvcs=false"
		if m.Replace != nil {
			why = "built from the directory a replace directive names"
		} else if settings["-buildvcs"] == "false" {
			why = "built with -buildvcs=false"
		}
		fmt.Fprintf(&b, " (no VCS revision recorded: %s)", why)
	}
	fmt.Fprintf(&b, " %s", bi.GoVersion)
	return b.String()
}

// parseList reads a comma-separated list, each value valid by ok.
func parseList[T any](s string, parse func(string) (T, error), ok func(T) bool) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil || !ok(v) {
			return nil, fmt.Errorf("%q", f)
		}
		out = append(out, v)
	}
	return out, nil
}
