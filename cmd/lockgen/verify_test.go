package main

import (
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockgen/lockgen/lab/layers"
	"github.com/lockgen/lockgen/lab/spin"
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
	code, out, stderr = lockgen("verify", "-layers", "explore", "-expect-rejections", "testdata/verify/hyman.toml")
	if code != exitOK || !strings.Contains(out, "rejected (known incorrect), as required") {
		t.Errorf("verify -expect-rejections hyman = %d\n%s", code, out)
	}
	// The expected rejection is reported as one, with one line of what
	// was found, not as a failure with its whole trace.
	rejected := regexp.MustCompile(`(?m)^H\s+explore\s+rejected`)
	if !rejected.MatchString(stderr) || strings.Contains(stderr, "replay:") {
		t.Errorf("verify -expect-rejections hyman printed\n%s\nwant a line \"H explore rejected\" and no trace", stderr)
	}
	if !rejected.MatchString(out) {
		t.Errorf("verify -expect-rejections hyman's table:\n%s\nwant the verdict H explore rejected", out)
	}
	code, out, _ = lockgen("verify", "-layers", "explore", "-expect-rejections", "testdata/verify/ticket.toml")
	if code != exitOK || !strings.Contains(out, "T: verified") {
		t.Errorf("-expect-rejections changed a correct lock's outcome: %d\n%s", code, out)
	}
}

// needSpin skips a test that runs SPIN in -short mode or without spin.
func needSpin(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs SPIN")
	}
	if err := spin.Available(); err != nil {
		t.Skip(err)
	}
}

// spinStates runs lockgen verify's SPIN layer at n = 2 on file with args
// and returns the states it searched.
func spinStates(t *testing.T, file string, args ...string) int {
	t.Helper()
	statesRe := regexp.MustCompile(`spin +pass .*, ([0-9]+) states in all`)
	args = append(append([]string{"verify", "-layers", "spin", "-n", "2"}, args...), file)
	code, out, stderr := lockgen(args...)
	m := statesRe.FindStringSubmatch(out)
	if code != exitOK || m == nil {
		t.Fatalf("lockgen %q = %d\n%s\n%s", args, code, out, stderr)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestVerifySpinFold checks that -spin-fold reaches the SPIN models: the
// filter lock's loops are local work, so its folded models have fewer
// states, and the verdict stays.
func TestVerifySpinFold(t *testing.T) {
	needSpin(t)
	const file = "testdata/verify/filter.toml"
	plain, folded := spinStates(t, file), spinStates(t, file, "-spin-fold")
	if folded >= plain {
		t.Errorf("-spin-fold searched %d states, the plain models %d: folding did not reach the models", folded, plain)
	}
}

// TestVerifySpinQuiescence checks that -spin-quiescence reaches the SPIN
// suite: the bakery's liveness runs over bounded passages become safety
// searches, with other state counts (84,091 against 88,289), and the
// verdict stays.
func TestVerifySpinQuiescence(t *testing.T) {
	needSpin(t)
	const file = "testdata/verify/bakery.toml"
	if plain, quiet := spinStates(t, file), spinStates(t, file, "-spin-quiescence"); plain == quiet {
		t.Errorf("-spin-quiescence searched %d states, as many as the LTL claims: it did not reach the suite", quiet)
	}
}

// With SPIN alone, verify runs the files on every P, yet prints them as a
// sequential run would: in file order, each whole, and a lock whose model
// another file's lock shares waits for that search instead of repeating it.
func TestVerifySpinFilesInParallel(t *testing.T) {
	needSpin(t)
	files := []string{"testdata/verify/ticket.toml", "testdata/verify/filter.toml", "testdata/verify/ticket-again.toml"}
	code, out, stderr := lockgen(append([]string{"verify", "-layers", "spin", "-n", "2"}, files...)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	var order []string
	for _, line := range strings.Split(stderr, "\n") {
		// A result line, not a long search's progress ("  T: spin n=2 ...").
		if f := strings.Fields(line); len(f) > 1 && f[1] == "spin" && !strings.HasSuffix(f[0], ":") {
			order = append(order, f[0])
		}
	}
	if strings.Join(order, " ") != "T F TA" {
		t.Errorf("results printed in the order %v, want T F TA (the files')\n%s", order, stderr)
	}
	if !strings.Contains(stderr, "same model as T:") {
		t.Errorf("TA did not reuse T's search:\n%s", stderr)
	}
}

// TestVerifyChannels: -channels reaches the message-passing models, and
// the output says which channels each SPIN run had. Dijkstra's ring as the
// catalogue writes it assumes FIFO channels: it passes over them (the
// default, its paper's) and fails over channels that reorder.
func TestVerifyChannels(t *testing.T) {
	needSpin(t)
	const file = "testdata/verify/ring.toml"
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{nil, exitOK, "FIFO channels (the paper's)"},
		{[]string{"-channels", "reorder"}, exitFailed, "channels that reorder (-channels reorder)"},
	} {
		args := append(append([]string{"verify", "-layers", "spin", "-n", "2"}, c.args...), file)
		code, out, stderr := lockgen(args...)
		// The table wraps its details: compare words.
		words := strings.Join(strings.Fields(out), " ")
		if code != c.code || !strings.Contains(words, c.says) || !strings.Contains(stderr, "R: SPIN over "+c.says) {
			t.Errorf("lockgen %q = %d, want %d and output naming %q\n%s\n%s", args, code, c.code, c.says, out, stderr)
		}
	}
}

func TestVerifyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"verify"}, {"verify", "-layers", "fuzz", "x.toml"}, {"verify", "-n", "1", "x.toml"},
		{"verify", "-channels", "lossy", "x.toml"},
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

// TestVerifySpinSaysWhatItSearches: a SPIN layer reports its runs as it
// goes (every layers.ProgressEvery; here every time).
func TestVerifySpinSaysWhatItSearches(t *testing.T) {
	if _, err := exec.LookPath("spin"); err != nil {
		t.Skip("spin not installed")
	}
	defer func(d time.Duration) { layers.ProgressEvery = d }(layers.ProgressEvery)
	layers.ProgressEvery = 0
	code, _, stderr := lockgen("verify", "-layers", "spin", "-n", "2", "testdata/verify/ticket.toml")
	if code != exitOK || !strings.Contains(stderr, ": spin n=2 mutual-exclusion: searching (") {
		t.Errorf("verify = %d, stderr:\n%s\nwant progress lines like \"T: spin n=2 mutual-exclusion: searching (0s so far)\"", code, stderr)
	}
}

// A SPIN layer without a verdict (here every run stopped by a 1 ms limit)
// makes the lock unfinished, never verified, and the run exits 3; with
// -allow-incomplete it exits 0 and says what it accepted.
func TestVerifyIncompleteExitsThree(t *testing.T) {
	needSpin(t)
	args := []string{"verify", "-layers", "spin", "-n", "2", "-spin-timeout", "1ms", "testdata/verify/ticket.toml"}
	code, out, stderr := lockgen(args...)
	if code != exitIncomplete || !strings.Contains(out, "T: INCOMPLETE") || strings.Contains(out, "verified") ||
		!strings.Contains(out, "exit status 3 (incomplete)") {
		t.Errorf("verify with a 1 ms SPIN limit = %d, want %d and no \"verified\"\n%s\n%s", code, exitIncomplete, out, stderr)
	}
	code, out, stderr = lockgen(append([]string{"verify", "-allow-incomplete"}, args[1:]...)...)
	if code != exitOK || !strings.Contains(out, "T: INCOMPLETE") || !strings.Contains(out, "accepted by -allow-incomplete") {
		t.Errorf("verify -allow-incomplete = %d, want %d saying what it accepted\n%s\n%s", code, exitOK, out, stderr)
	}
}
