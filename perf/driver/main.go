// Package driver is the side of lockgen bench that runs inside the
// benchmark: the test lockgen bench generates beside a spec's locks calls
// Main, which adds the baselines (some of them xsync's and x/sync's) and
// measures. It is built in the user's module on a temporary copy of its
// go.mod (internal/tmpmod), so that those dependencies never reach the
// user's go.mod; the command's side is perf.RunDriver.
package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/lockgen/lockgen/perf"
)

// Main is the body of the test lockgen bench generates beside a spec's
// locks: it adds the baselines for the kinds of locks given, measures
// everything with the Config in perf.ConfigEnv (reporting progress on
// stderr), and writes the Report to perf.OutEnv. Without the Config it
// skips.
func Main(t *testing.T, locks []perf.Subject) {
	raw := os.Getenv(perf.ConfigEnv)
	if raw == "" {
		t.Skip(perf.ConfigEnv + " is not set: run through lockgen bench")
	}
	var cfg perf.Config
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatalf("%s: %v", perf.ConfigEnv, err)
	}
	var subjects []perf.Subject
	seen := map[string]bool{}
	for _, l := range locks {
		for _, b := range Baselines(l.Mode, l.K) {
			if !seen[b.Name] {
				seen[b.Name] = true
				subjects = append(subjects, b)
			}
		}
	}
	subjects = append(subjects, locks...)
	cfg.Progress = progressLine(os.Stderr)
	rep := perf.Measure(cfg, subjects)
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv(perf.OutEnv), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// progressLine reports progress on f: one line rewritten in place on a
// terminal, otherwise a line at every tenth of the way.
func progressLine(f *os.File) func(done, total int, what string) {
	info, err := f.Stat()
	tty := err == nil && info.Mode()&os.ModeCharDevice != 0
	last := -1
	return func(done, total int, what string) {
		switch {
		case tty:
			fmt.Fprintf(f, "\r\033[K[%d/%d] %s", done, total, what)
			if done == total {
				fmt.Fprintln(f)
			}
		case done*10/max(total, 1) != last:
			last = done * 10 / max(total, 1)
			fmt.Fprintf(f, "[%d/%d] %s\n", done, total, what)
		}
	}
}
