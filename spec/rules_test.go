package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/wait"
)

// lock is a [[lock]] table with a valid name, package and algorithm; extra
// lines start at line 5.
func lock(alg string, extra ...string) string {
	return "[[lock]]\nname = \"L\"\npackage = \"l\"\nalgorithm = " + quote(alg) + "\n" + strings.Join(extra, "\n") + "\n"
}

// problems parses src against the fakes and returns the error lines.
func problems(t *testing.T, src string) []string {
	t.Helper()
	f, err := ParseWith(fakes, "t.toml", []byte(src))
	if err == nil {
		if f == nil || len(f.Locks) == 0 {
			t.Fatalf("no error and no locks")
		}
		return nil
	}
	if f != nil {
		t.Errorf("a File came back with an error")
	}
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error is %T, not Errors: %v", err, err)
	}
	return strings.Split(es.Error(), "\n")
}

func TestRules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "line:col: message" without the file name; nil: valid
	}{
		// TOML and the top level
		{"syntax error", "[[lock]]\nname = \"A\nk = 1\n",
			[]string{`2:10: syntax error: strings cannot contain newlines`}},
		{"syntax error, duplicate key", lock("mcs", "name = \"B\""),
			[]string{`5:11: syntax error: Key 'lock.name' has already been defined.`}},
		{"empty file", "",
			[]string{`1:1: no [[lock]] table; a spec holds one or more [[lock]] tables`}},
		{"comments only", "# nothing\n\n",
			[]string{`1:1: no [[lock]] table; a spec holds one or more [[lock]] tables`}},
		{"[[locks]]", "[[locks]]\nname = \"A\"\n",
			[]string{`1:1: unknown top-level key "locks"; a spec holds only [[lock]] tables; did you mean "lock"?`}},
		{"keys above the header", "name = \"A\"\nversion = 2\n" + lock("mcs"),
			[]string{
				`1:1: name is outside any [[lock]] table; put a [[lock]] header above it`,
				`2:1: unknown top-level key "version"; a spec holds only [[lock]] tables`,
			}},
		{"[lock] as a plain table", "[lock]\nname = \"A\"\n",
			[]string{`1:1: lock is a plain table; write [[lock]] (an array of tables), one per lock`}},
		{"lock as dotted keys", "lock.name = \"A\"\n",
			[]string{`1:1: lock is a plain table; write [[lock]] (an array of tables), one per lock`}},
		{"lock = 5", "lock = 5\n",
			[]string{`1:1: lock = 5 must be written as [[lock]] tables`}},
		{"inline array of tables", "lock = [{name = \"A\", package = \"a\", algorithm = \"mcs\"}]\n",
			[]string{`1:1: lock (an array) must be written as [[lock]] tables`}},

		{"deep nesting", lock("mcs", "x = "+strings.Repeat("[", 50000)+strings.Repeat("]", 50000)),
			[]string{`5:37: nested deeper than 32 levels; spec values are plain strings, integers and booleans`}},
		{"deep inline tables", lock("mcs", "x = "+strings.Repeat("{a=", 20000)+"1"+strings.Repeat("}", 20000)),
			[]string{`5:101: nested deeper than 32 levels; spec values are plain strings, integers and booleans`}},
		{"long dotted key", lock("mcs", strings.Repeat("a.", 20000)+"b = 1"),
			[]string{`5:65: nested deeper than 32 levels; spec values are plain strings, integers and booleans`}},
		{"nesting at the limit", lock("mcs", "x = "+strings.Repeat("[", 32)+strings.Repeat("]", 32)),
			[]string{`5:1: unknown key "x"; valid keys: name, package, algorithm, mode, k, procs, nodes, padding, wait, spin, preference, trylock, context, tests, allow_incorrect`}},

		// unknown keys
		{"unknown key, suggestion", lock("mcs", "nodez = \"pool\""),
			[]string{`5:1: unknown key "nodez"; did you mean "nodes"?`}},
		{"unknown key, case", lock("mcs", "TryLock = true"),
			[]string{`5:1: unknown key "TryLock"; did you mean "trylock"?`}},
		{"unknown key, transposition", lock("mcs", "wiat = \"spin\""),
			[]string{`5:1: unknown key "wiat"; did you mean "wait"?`}},
		{"unknown key, no suggestion", lock("mcs", "colour = 1"),
			[]string{`5:1: unknown key "colour"; valid keys: name, package, algorithm, mode, k, procs, nodes, padding, wait, spin, preference, trylock, context, tests, allow_incorrect`}},
		{"unknown quoted key", lock("mcs", "  \"allow-incorrect\" = true"),
			[]string{`5:3: unknown key "allow-incorrect"; did you mean "allow_incorrect"?`}},
		{"unknown dotted key", lock("mcs", "params.delta = \"1us\""),
			[]string{`5:1: unknown key "params"; valid keys: name, package, algorithm, mode, k, procs, nodes, padding, wait, spin, preference, trylock, context, tests, allow_incorrect`}},
		{"unknown sub-table", lock("mcs") + "[lock.extra]\nx = 1\n",
			[]string{`6:1: unknown key "extra"; valid keys: name, package, algorithm, mode, k, procs, nodes, padding, wait, spin, preference, trylock, context, tests, allow_incorrect`}},
		{"another algorithm's parameter", lock("mcs", "delta = \"10us\""),
			[]string{`5:1: unknown key "delta": it is a parameter of fake-fischer, not of mcs`}},
		{"parameter with an unknown algorithm", lock("nope", "delta = \"10us\""),
			[]string{`4:1: algorithm = "nope" is unknown; valid: bakery, dvir-taubenfeld-1, fake-anon, fake-fischer, fake-hyman, fake-krw, fake-ksem, fake-parkless, fake-rw, fake-sized, filter, mcs, mcs-rw, ticket`}},
		{"parameter suggestion", lock("fake-fischer", "procs = 2", "wait = \"spin\"", "detla = \"1us\"", "delta = \"1us\""),
			[]string{`7:1: unknown key "detla"; did you mean "delta"?`}},

		// types
		{"k as a string", lock("fake-ksem", `mode = "kexclusion"`, `k = "3"`),
			[]string{`6:1: k = "3" must be an integer`}},
		{"name as an integer", "[[lock]]\nname = 7\npackage = \"l\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = 7 must be a string`}},
		{"padding as a float", lock("mcs", "padding = 64.0"),
			[]string{`5:1: padding = 64.0 must be an integer; valid: 0, 64, 128`}},
		{"trylock as a string", lock("mcs", `trylock = "yes"`),
			[]string{`5:1: trylock = "yes" must be a boolean (true or false)`}},
		{"nodes as an array", lock("mcs", `nodes = ["pool"]`),
			[]string{`5:1: nodes (an array) must be a string; valid: handle, pool, heap, caller, array`}},
		{"mode as a dotted table", lock("mcs", `mode.kind = "rw"`),
			[]string{`5:1: mode (a table) must be a string; valid: mutex, kexclusion, rw`}},
		{"procs as a date", lock("bakery", `procs = 1979-05-27`),
			[]string{`5:1: procs = 1979-05-27 must be an integer; valid: 2..1024`}},

		// required keys
		{"empty lock", "[[lock]]\n",
			[]string{
				`1:1: name is required: the lock's exported Go type name, e.g. name = "QueueLock"`,
				`1:1: package is required: the Go package name of the output, e.g. package = "queuelock"`,
				`1:1: algorithm is required; valid: bakery, dvir-taubenfeld-1, fake-anon, fake-fischer, fake-hyman, fake-krw, fake-ksem, fake-parkless, fake-rw, fake-sized, filter, mcs, mcs-rw, ticket`,
			}},

		// names
		{"name not exported", "[[lock]]\nname = \"queueLock\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "queueLock" is not exported: name must start with an upper-case letter; did you mean "QueueLock"?`}},
		{"name not an identifier", "[[lock]]\nname = \"Queue Lock\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "Queue Lock" is not a Go identifier; name must be an exported Go identifier, e.g. "QueueLock"`}},
		{"name a keyword", "[[lock]]\nname = \"type\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "type" is a Go keyword; name must be an exported Go identifier`}},
		{"name blank", "[[lock]]\nname = \"_\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "_" is not exported: name must start with an upper-case letter`}},
		{"name empty", "[[lock]]\nname = \"\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "" is not a Go identifier; name must be an exported Go identifier, e.g. "QueueLock"`}},
		{"long name", "[[lock]]\nname = \"" + strings.Repeat("x", 100) + "\"\npackage = \"q\"\nalgorithm = \"mcs\"\n",
			[]string{`2:1: name = "` + strings.Repeat("x", 60) + `..." is not exported: name must start with an upper-case letter; did you mean "X` + strings.Repeat("x", 59) + `..."?`}},
		{"unicode name", "[[lock]]\nname = \"Ünïcode\"\npackage = \"q\"\nalgorithm = \"mcs\"\n", nil},
		{"package keyword", "[[lock]]\nname = \"A\"\npackage = \"type\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "type" is a Go keyword`}},
		{"package main", "[[lock]]\nname = \"A\"\npackage = \"main\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "main" cannot be used: a lock package must be importable, and main is not`}},
		{"package upper case", "[[lock]]\nname = \"A\"\npackage = \"Queue\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "Queue" must be lower case: a letter a-z, then letters a-z, digits or _; did you mean "queue"?`}},
		{"package _test", "[[lock]]\nname = \"A\"\npackage = \"q_test\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "q_test" cannot be used: go test reserves the _test suffix for external test packages`}},
		{"package predeclared", "[[lock]]\nname = \"A\"\npackage = \"string\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "string" is a predeclared Go identifier; importing the package would shadow the built-in string`}},
		{"package not an identifier", "[[lock]]\nname = \"A\"\npackage = \"9lives\"\nalgorithm = \"mcs\"\n",
			[]string{`3:1: package = "9lives" is not a Go identifier; package must be a lower-case identifier, e.g. "queuelock"`}},
		{"package with digits and underscore", "[[lock]]\nname = \"A\"\npackage = \"q_2\"\nalgorithm = \"mcs\"\n", nil},
		{"duplicate names", lock("mcs") + lock("ticket"),
			[]string{`7:1: name = "L" is already used by the lock at t.toml:1:1; lock names in a spec file must be unique`}},
		{"duplicate names in other packages", lock("mcs") + strings.Replace(lock("ticket"), `"l"`, `"m"`, 1),
			[]string{`7:1: name = "L" is already used by the lock at t.toml:1:1; lock names in a spec file must be unique`}},
		{"file names collide", "[[lock]]\nname = \"Queue\"\npackage = \"q\"\nalgorithm = \"mcs\"\n[[lock]]\nname = \"QUEUE\"\npackage = \"q\"\nalgorithm = \"ticket\"\n",
			[]string{`6:1: name = "QUEUE" collides with "Queue" (the lock at t.toml:1:1): both are in package q, and generated file names are the lower-cased lock names`}},
		{"same lower-case names in other packages", "[[lock]]\nname = \"Queue\"\npackage = \"q\"\nalgorithm = \"mcs\"\n[[lock]]\nname = \"QUEUE\"\npackage = \"r\"\nalgorithm = \"ticket\"\n", nil},

		// algorithm
		{"unknown algorithm, suggestion", lock("mcss"),
			[]string{`4:1: algorithm = "mcss" is unknown; valid: bakery, dvir-taubenfeld-1, fake-anon, fake-fischer, fake-hyman, fake-krw, fake-ksem, fake-parkless, fake-rw, fake-sized, filter, mcs, mcs-rw, ticket; did you mean "mcs"?`}},
		{"incorrect without opt-in", lock("fake-hyman", "procs = 2"),
			[]string{`4:1: algorithm = "fake-hyman" is known to be incorrect: two processes can both enter (Raynal 1986); set allow_incorrect = true to generate it anyway`}},
		{"incorrect with opt-in = false", lock("fake-hyman", "procs = 2", "allow_incorrect = false"),
			[]string{`4:1: algorithm = "fake-hyman" is known to be incorrect: two processes can both enter (Raynal 1986); set allow_incorrect = true to generate it anyway`}},
		{"incorrect with opt-in", lock("fake-hyman", "procs = 2", "allow_incorrect = true"), nil},
		{"opt-in on a correct algorithm", lock("mcs", "allow_incorrect = true"),
			[]string{`5:1: allow_incorrect = true has no effect: mcs is not known to be incorrect`}},
		{"opt-in = false on a correct algorithm", lock("mcs", "allow_incorrect = false"), nil},

		// mode
		{"mode invalid", lock("mcs", `mode = "mutual"`),
			[]string{`5:1: mode = "mutual" is not a mode; valid: mutex, kexclusion, rw`}},
		{"mode suggestion", lock("mcs", `mode = "RW"`),
			[]string{`5:1: mode = "RW" is not a mode; valid: mutex, kexclusion, rw; did you mean "rw"?`}},
		{"mode not offered", lock("mcs", `mode = "rw"`),
			[]string{`5:1: mode = "rw" is not offered by mcs; valid: mutex`}},
		{"default mode: the only mode", lock("mcs-rw"), nil},
		{"default mode not offered", lock("fake-krw", "procs = 4"),
			[]string{`1:1: mode is not set, and fake-krw does not offer the default "mutex"; set mode to one of: kexclusion, rw`}},

		// k
		{"k on a mutex-only algorithm", lock("mcs", "k = 3"),
			[]string{`5:1: k = 3 has no effect: k applies only to mode = "kexclusion", which mcs does not offer (modes: mutex)`}},
		{"k with mode mutex", lock("filter", "procs = 4", "k = 3"),
			[]string{`6:1: k = 3 has no effect with mode = "mutex"; k applies only to mode = "kexclusion"`}},
		{"k missing", lock("filter", `mode = "kexclusion"`, "procs = 4"),
			[]string{`1:1: k is required with mode = "kexclusion"; valid: 2 <= k < procs`}},
		{"k >= procs", lock("filter", `mode = "kexclusion"`, "procs = 4", "k = 4"),
			[]string{`7:1: k = 4 is out of range; valid: 2..3 (k < procs = 4)`}},
		{"k = 1", lock("filter", `mode = "kexclusion"`, "procs = 4", "k = 1"),
			[]string{`7:1: k = 1 is out of range; valid: 2..3 (k < procs = 4)`}},
		{"k with procs = 2", lock("filter", `mode = "kexclusion"`, "procs = 2", "k = 2"),
			[]string{`7:1: k = 2 is out of range: 2 <= k < procs needs procs >= 3, and procs = 2`}},
		{"k without procs", lock("fake-ksem", "mode = \"kexclusion\"", "k = 1024"),
			[]string{`6:1: k = 1024 is out of range; valid: 2..1023`}},
		{"k with procs missing", lock("filter", `mode = "kexclusion"`, "k = 1"),
			[]string{
				`1:1: procs is required: filter addresses per-process registers by process id; valid: 2..1024`,
				`6:1: k = 1 is out of range; valid: 2 <= k < procs`,
			}},
		{"k valid", lock("filter", `mode = "kexclusion"`, "procs = 4", "k = 3"), nil},

		// procs
		{"procs missing", lock("bakery"),
			[]string{`1:1: procs is required: bakery addresses per-process registers by process id; valid: 2..1024`}},
		{"procs missing, size only", lock("fake-sized"),
			[]string{`1:1: procs is required: fake-sized sizes its shared arrays by the number of processes, and at most procs goroutines may use the lock at once; valid: 2..1024`}},
		{"procs missing with nodes = array", lock("mcs", `nodes = "array"`),
			[]string{`1:1: procs is required with nodes = "array"; valid: 2..1024`}},
		{"procs without ids", lock("ticket", "procs = 8"),
			[]string{`5:1: procs = 8 has no effect: ticket does not use process ids`}},
		{"procs without ids, array hint", lock("mcs", "procs = 8"),
			[]string{`5:1: procs = 8 has no effect: mcs does not use process ids; set nodes = "array" to index nodes by process id`}},
		{"procs too small", lock("bakery", "procs = 1"),
			[]string{`5:1: procs = 1 is out of range; valid: 2..1024`}},
		{"procs too large", lock("bakery", "procs = 1025"),
			[]string{`5:1: procs = 1025 is out of range; valid: 2..1024`}},
		{"procs above the entry's maximum", lock("fake-hyman", "procs = 3", "allow_incorrect = true"),
			[]string{`5:1: procs = 3 is out of range for fake-hyman; valid: 2..2`}},
		{"procs with a rejected nodes = array", lock("fake-parkless", `wait = "spin"`, `nodes = "array"`, "procs = 4"),
			[]string{`6:1: nodes = "array" is not valid for fake-parkless: records are not per id; valid: handle`}},
		{"procs with a rejected nodes", lock("fake-parkless", `wait = "spin"`, `nodes = "pool"`, "procs = 4"),
			[]string{
				`6:1: nodes = "pool" is not supported by fake-parkless; valid: handle`,
				`7:1: procs = 4 has no effect: fake-parkless does not use process ids`,
			}},
		{"procs with nodes = array", lock("mcs", `nodes = "array"`, "procs = 4"), nil},

		// nodes
		{"nodes invalid", lock("mcs", `nodes = "stack"`),
			[]string{`5:1: nodes = "stack" is not a node policy; valid: handle, pool, heap, caller, array`}},
		{"nodes rejected with a reason", lock("dvir-taubenfeld-1", `nodes = "pool"`),
			[]string{`5:1: nodes = "pool" is not valid for dvir-taubenfeld-1: a process's two nodes alternate across passages, and a released node may still be read by the next process; a pool could hand it out while in use; valid: handle, heap, array`}},
		{"nodes not listed", lock("fake-anon", `nodes = "heap"`, "procs = 3"),
			[]string{`5:1: nodes = "heap" is not supported by fake-anon; valid: array`}},
		{"nodes without records", lock("ticket", `nodes = "handle"`),
			[]string{`5:1: nodes = "handle" has no effect: ticket has no per-process records`}},

		// padding
		{"padding out of range", lock("mcs", "padding = 32"),
			[]string{`5:1: padding = 32 is out of range; valid: 0, 64, 128`}},
		{"padding 0", lock("mcs", "padding = 0"), nil},

		// wait and spin
		// The lists of policies are the wait table's (wait.All, and those
		// that never park, which fake-parkless is left with); the table's
		// own tests check its rows.
		{"wait invalid", lock("mcs", `wait = "sleep"`),
			[]string{`5:1: wait = "sleep" is not a wait policy; valid: ` + list(wait.All)}},
		{"wait suggestion", lock("mcs", `wait = "spin-then_park"`),
			[]string{`5:1: wait = "spin-then_park" is not a wait policy; valid: ` + list(wait.All) + `; did you mean "spin-then-park"?`}},
		{"wait rejected", lock("fake-parkless", `wait = "park"`),
			[]string{`5:1: wait = "park" is not valid for fake-parkless: no write to park on; valid: ` + list(neverParks)}},
		{"default wait rejected", lock("fake-parkless"),
			[]string{`1:1: wait is not set, and the default "adaptive" is not valid for fake-parkless: no write to park on; set wait to one of: ` + list(neverParks)}},
		{"spin with park", lock("mcs", `wait = "park"`, "spin = 10"),
			[]string{`6:1: spin = 10 has no effect with wait = "park"; spin applies only to ` + listAnd(wait.Where(wait.Policy.TakesSpin))}},
		{"spin with the default wait", lock("mcs", "spin = 10"),
			[]string{`5:1: spin = 10 has no effect with wait = "adaptive"; spin applies only to ` + listAnd(wait.Where(wait.Policy.TakesSpin))}},
		{"spin with spin-then-park", lock("mcs", `wait = "spin-then-park"`, "spin = 10"), nil},
		{"spin 0", lock("mcs", `wait = "spin-then-park"`, "spin = 0"),
			[]string{`6:1: spin = 0 is out of range; valid: 1..1000000`}},
		{"spin too large", lock("mcs", `wait = "spin-then-yield"`, "spin = 1000001"),
			[]string{`6:1: spin = 1000001 is out of range; valid: 1..1000000`}},

		// preference
		{"preference invalid", lock("mcs-rw", `mode = "rw"`, `preference = "readers"`),
			[]string{`6:1: preference = "readers" is not a preference; valid: reader, writer, fair; did you mean "reader"?`}},
		{"preference outside rw", lock("fake-rw", `preference = "reader"`),
			[]string{`5:1: preference = "reader" has no effect with mode = "mutex"; preference applies only to mode = "rw"`}},
		{"preference not offered", lock("fake-rw", `mode = "rw"`, `preference = "fair"`),
			[]string{`6:1: preference = "fair" is not offered by fake-rw; valid: writer, reader`}},

		// trylock
		{"trylock unsupported", lock("fake-rw", "trylock = true"),
			[]string{`5:1: trylock = true is not supported by fake-rw: no way back from the queue`}},
		{"trylock false where unsupported", lock("fake-rw", "trylock = false"), nil},

		// parameters
		{"parameter missing", lock("fake-fischer", "procs = 2", `wait = "spin"`),
			[]string{`1:1: delta is required by fake-fischer: the longest time a write may take`}},
		{"duration as an integer", lock("fake-fischer", "procs = 2", `wait = "spin"`, "delta = 10"),
			[]string{`7:1: delta = 10 must be a duration string such as "10us" or "1.5ms"`}},
		{"duration malformed", lock("fake-fischer", "procs = 2", `wait = "spin"`, `delta = "10 us"`),
			[]string{`7:1: delta = "10 us" is not a duration; write a Go duration such as "10us" or "1.5ms"`}},
		{"duration negative", lock("fake-fischer", "procs = 2", `wait = "spin"`, `delta = "-1ms"`),
			[]string{`7:1: delta = "-1ms" must not be negative`}},
		{"parameter check", lock("fake-anon", "procs = 8", "memory = 8"),
			[]string{`6:1: memory = 8 is out of range for fake-anon: memory must be greater than procs`}},
		{"parameter as a string", lock("fake-anon", "procs = 8", `memory = "9"`),
			[]string{`6:1: memory = "9" must be an integer`}},
		{"parameter check skipped when procs is wrong", lock("fake-anon", "procs = 99", "memory = 8"),
			[]string{`5:1: procs = 99 is out of range for fake-anon; valid: 2..16`}},

		// everything at once, sorted by position
		{"many problems", "[[lock]]\nname = \"queue\"\npackage = \"main\"\nalgorithm = \"dvir-taubenfeld-1\"\nnodes = \"pool\"\npadding = 32\nk = 3\nwiat = \"spin\"\n" +
			"[[lock]]\nname = \"Queue\"\npackage = \"q\"\nalgorithm = \"bakery\"\ntrylock = true\n",
			[]string{
				`2:1: name = "queue" is not exported: name must start with an upper-case letter; did you mean "Queue"?`,
				`3:1: package = "main" cannot be used: a lock package must be importable, and main is not`,
				`5:1: nodes = "pool" is not valid for dvir-taubenfeld-1: a process's two nodes alternate across passages, and a released node may still be read by the next process; a pool could hand it out while in use; valid: handle, heap, array`,
				`6:1: padding = 32 is out of range; valid: 0, 64, 128`,
				`7:1: k = 3 has no effect: k applies only to mode = "kexclusion", which dvir-taubenfeld-1 does not offer (modes: mutex)`,
				`8:1: unknown key "wiat"; did you mean "wait"?`,
				`9:1: procs is required: bakery addresses per-process registers by process id; valid: 2..1024`,
				`13:1: trylock = true is not supported by bakery: a process that took a ticket cannot withdraw it without a new passage`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := problems(t, tt.src)
			var want []string
			for _, w := range tt.want {
				want = append(want, "t.toml:"+w)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}
