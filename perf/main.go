package perf

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// Environment of a driver run by lockgen bench.
const (
	ConfigEnv = "LOCKGEN_BENCH_CONFIG" // the Config, as JSON
	OutEnv    = "LOCKGEN_BENCH_OUT"    // where the Report goes, as JSON
)

// Main is the body of the test lockgen bench generates beside a spec's
// locks: it adds the baselines for the kinds of locks given, measures
// everything with the Config in ConfigEnv (reporting progress on stderr),
// and writes the Report to OutEnv. Without ConfigEnv it skips.
func Main(t *testing.T, locks []Subject) {
	raw := os.Getenv(ConfigEnv)
	if raw == "" {
		t.Skip(ConfigEnv + " is not set: run through lockgen bench")
	}
	var cfg Config
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatalf("%s: %v", ConfigEnv, err)
	}
	var subjects []Subject
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
	rep := Measure(cfg, subjects)
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv(OutEnv), data, 0o644); err != nil {
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
