package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestVerify runs the Go layers on a correct lock and on Hyman's: the
// first must be verified, the second rejected (and, with
// -expect-rejections, its rejection is the success).
func TestVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs generated packages")
	}
	code, out, stderr := lockgen("verify", "-layers", "stress,explore", "testdata/verify/ticket.toml")
	if code != exitOK || !strings.Contains(out, "T: verified") || !strings.Contains(out, "explore  pass") {
		t.Errorf("verify ticket = %d\n%s\n%s", code, out, stderr)
	}

	code, out, stderr = lockgen("verify", "-layers", "explore", "testdata/verify/hyman.toml")
	if code != exitFailed || !strings.Contains(out, "H: FAILED") || !strings.Contains(stderr, "replay:") {
		t.Errorf("verify hyman = %d, want %d with a replayable trace\n%s\n%s", code, exitFailed, out, stderr)
	}
	code, out, _ = lockgen("verify", "-layers", "explore", "-expect-rejections", "testdata/verify/hyman.toml")
	if code != exitOK || !strings.Contains(out, "rejected (known incorrect), as required") {
		t.Errorf("verify -expect-rejections hyman = %d\n%s", code, out)
	}
	code, out, _ = lockgen("verify", "-layers", "explore", "-expect-rejections", "testdata/verify/ticket.toml")
	if code != exitOK || !strings.Contains(out, "T: verified") {
		t.Errorf("-expect-rejections changed a correct lock's outcome: %d\n%s", code, out)
	}
}

func TestVerifyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"verify"}, {"verify", "-layers", "fuzz", "x.toml"}, {"verify", "-n", "1", "x.toml"},
		{"verify", "testdata/verify/missing.toml"},
	} {
		if code, _, stderr := lockgen(args...); code != exitUsage || stderr == "" {
			t.Errorf("lockgen %q = %d (%q), want %d", args, code, stderr, exitUsage)
		}
	}
}

func TestCommandLineNamesTheFlagsSet(t *testing.T) {
	fs := newFlags("verify", "", io.Discard)
	fs.String("n", "2,3,4", "")
	fs.Bool("expect-rejections", false, "")
	fs.Duration("spin-timeout", time.Minute, "")
	if err := fs.Parse([]string{"-expect-rejections", "-n", "2,3", "a.toml"}); err != nil {
		t.Fatal(err)
	}
	if got, want := commandLine(fs), "lockgen verify -expect-rejections -n 2,3"; got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
}
