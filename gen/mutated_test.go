package gen

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/tools/txtar"

	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
)

// The mutated-spec corpus: specs made by mutating the catalogue's own specs
// (generated/*/lock.toml) the way users get specs wrong, kept in
// testdata/mutated.txtar so that every run sees the same ones. Every spec
// that Build accepts must give a package that vets under both build tags
// and for another GOOS; every one it rejects must name a line of the spec.
var (
	updateMutated = flag.Bool("update-mutated", false, "regenerate testdata/mutated.txtar from the catalogue's specs")
	mutatedAll    = flag.Bool("mutated-all", os.Getenv("LOCKGEN_MUTATED") == "all", "vet every accepted spec of the corpus, not a sample (about 15 minutes; or LOCKGEN_MUTATED=all)")
)

const (
	mutatedFile   = "testdata/mutated.txtar"
	mutatedSpecs  = 1200
	mutatedSample = 40 // specs vetted in the default run
)

// kv is one key of a [[lock]] table, its value a TOML literal.
type kv struct{ key, val string }

type specLock []kv

func (l specLock) get(key string) string {
	for _, p := range l {
		if p.key == key {
			return p.val
		}
	}
	return ""
}

func (l specLock) set(key, val string) specLock {
	out := append(specLock(nil), l...)
	for i := range out {
		if out[i].key == key {
			out[i].val = val
			return out
		}
	}
	return append(out, kv{key, val})
}

func (l specLock) del(key string) specLock {
	var out specLock
	for _, p := range l {
		if p.key != key {
			out = append(out, p)
		}
	}
	return out
}

func render(locks []specLock) string {
	var b strings.Builder
	for i, l := range locks {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[[lock]]\n")
		for _, p := range l {
			fmt.Fprintf(&b, "%s = %s\n", p.key, p.val)
		}
	}
	return b.String()
}

func q(s string) string { return strconv.Quote(s) }

// seedSpecs reads the catalogue's specs into ordered key lists.
func seedSpecs(t *testing.T) [][]specLock {
	paths, _ := filepath.Glob("../generated/*/lock.toml")
	sort.Strings(paths)
	var seeds [][]specLock
	for _, p := range paths {
		var doc struct{ Lock []map[string]any }
		md, err := toml.DecodeFile(p, &doc)
		if err != nil {
			t.Fatal(err)
		}
		var order []string // the keys in the order the file writes them
		for _, k := range md.Keys() {
			if len(k) == 2 && k[0] == "lock" && !slices.Contains(order, k[1]) {
				order = append(order, k[1])
			}
		}
		var locks []specLock
		for _, m := range doc.Lock {
			var l specLock
			for _, k := range order {
				switch v := m[k].(type) {
				case nil:
				case string:
					l = append(l, kv{k, q(v)})
				default:
					l = append(l, kv{k, fmt.Sprint(v)})
				}
			}
			locks = append(locks, l)
		}
		seeds = append(seeds, locks)
	}
	if len(seeds) == 0 {
		t.Fatal("no catalogue specs in ../generated")
	}
	return seeds
}

// valuePools are the values a mutation puts in a key: valid ones, ones that
// are valid for some algorithms only, and wrong ones.
func valuePools() map[string][]string {
	long := "L" + strings.Repeat("o", spec.MaxNameBytes-1)
	pools := map[string][]string{
		"name": {q("Q"), q("QNode"), q("NewQ"), q("QProcs"), q("QHandle"), q("QK"), q("X_test"),
			q("Lock_windows"), q("Lock_js"), q("Lock_amd64"), q("Lock_unix"), q("Lockgen_runtime"), q("Lockgen_wait"),
			q(long), q(long + "o"), q("Main"), q("Init"), q("Sync"), q("Atomic"), q("Testing"), q("Verify"),
			q("Runtime"), q("Error"), q("String"), q("Lock"), q("Mutex"), q("Ünicode"), q("lock"), q("_X"),
			q("1X"), q("X-Y"), q(""), "42"},
		"package": {q("locks"), q("init"), q("documentation"), q("main"), q("sync"), q("atomic"), q("testing"),
			q("verify"), q("runtime"), q("unsafe"), q("p_test"), q("string"), q("internal"), q("vendor"),
			q("testdata"), q("ünicode"), q("Locks"), q("func"), q(""), q(strings.Repeat("p", 300)), "true"},
		"mode":            {q("mutex"), q("kexclusion"), q("rw"), q("RW"), q("")},
		"k":               {"0", "1", "2", "3", "4", "8", "-1", "1000", q("2")},
		"procs":           {"0", "1", "2", "3", "4", "8", "64", "1024", "1025", "-2", "2.5"},
		"nodes":           {q("handle"), q("pool"), q("heap"), q("caller"), q("array"), q("stack")},
		"padding":         {"0", "64", "128", "7", "-64", "4096", "1099511627776", q("64")},
		"wait":            {q("spin"), q("yield"), q("park"), q("spin-then-yield"), q("spin-then-park"), q("adaptive"), q("sleep")},
		"spin":            {"1", "100", "10000", "10001", "0", "-5"},
		"preference":      {q("reader"), q("writer"), q("fair"), q("none")},
		"trylock":         {"true", "false", q("yes")},
		"allow_incorrect": {"true", "false"},
		"tests":           {"false", "true", "0"},
		"delta":           {q("1us"), q("10ns"), q("0s"), q("-1s"), q("soon"), "5"},
		"memory":          {"1", "2", "3", "5", "0", "64"},
		"backoff_min":     {q("1us"), q("0s"), q("1h")},
		"backoff_max":     {q("1us"), q("100us"), q("0s")},
	}
	var algs []string
	for _, n := range templates.Names() {
		algs = append(algs, q(n))
	}
	pools["algorithm"] = append(algs, q("MCS"), q("tiket"), q("mcs-lock"))
	return pools
}

// derivedNames are names whose generated identifiers meet those of a lock
// named n.
func derivedNames(n string) []string {
	return []string{n + "Node", "New" + n, n + "Procs", n + "Handle", n + "K", n + "Reader", n + "Writer",
		n + "Subject", n + "_test", n, strings.ToUpper(n), n + "Lock", n + "2", "X" + n}
}

// mutate applies one or two random mutations to a copy of one of seeds.
// Most keep each lock valid on its own and aim at what only the generated
// package shows (a second lock whose identifiers meet the first's, another
// package in the same directory, another valid value); the rest are the
// usual mistakes, which validation must reject at their line.
func mutate(r *rand.Rand, seeds [][]specLock, pools map[string][]string) []specLock {
	pick := func() []specLock { return seeds[r.IntN(len(seeds))] }
	locks := append([]specLock(nil), pick()...)
	keys := make([]string, 0, len(pools))
	for k := range pools {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for n := 1 + r.IntN(2); n > 0; n-- {
		i := r.IntN(len(locks))
		l := locks[i]
		switch op := r.IntN(20); {
		case op < 9: // a second lock, valid alone, its name derived from this one's
			name, _ := strconv.Unquote(l.get("name"))
			d := derivedNames(name)
			other := pick()
			add := other[r.IntN(len(other))].set("name", q(d[r.IntN(len(d))])).set("package", l.get("package"))
			if r.IntN(6) == 0 {
				add = add.set("package", q("other"))
			}
			locks = append(locks, add)
		case op < 11: // another name or package
			k := []string{"name", "package"}[r.IntN(2)]
			locks[i] = l.set(k, pools[k][r.IntN(len(pools[k]))])
		case op < 16: // another value of a key
			k := keys[r.IntN(len(keys))]
			locks[i] = l.set(k, pools[k][r.IntN(len(pools[k]))])
		case op < 17: // a key deleted
			if len(l) > 0 {
				locks[i] = l.del(l[r.IntN(len(l))].key)
			}
		case op < 18: // a key no lock has
			locks[i] = l.set([]string{"pading", "timeout", "Name", "lock", "procs.max"}[r.IntN(5)], "1")
		default: // a value of the wrong type
			k := l[r.IntN(len(l))].key
			locks[i] = l.set(k, []string{"1", "true", q("x"), "[1, 2]", "{ a = 1 }", "1.5"}[r.IntN(6)])
		}
	}
	return locks
}

func TestMutatedSpecs(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded and slow under -race: make test-race runs it without")
	}
	if *updateMutated {
		r := rand.New(rand.NewPCG(2026, 11))
		seeds, pools := seedSpecs(t), valuePools()
		ar := &txtar.Archive{Comment: []byte("Mutated specs for TestMutatedSpecs; regenerate with go test ./gen -run TestMutatedSpecs -update-mutated.\n")}
		seen := map[string]bool{}
		for len(ar.Files) < mutatedSpecs {
			src := render(mutate(r, seeds, pools))
			if seen[src] {
				continue
			}
			seen[src] = true
			ar.Files = append(ar.Files, txtar.File{Name: fmt.Sprintf("s%04d/locks.toml", len(ar.Files)), Data: []byte(src)})
		}
		if err := os.WriteFile(mutatedFile, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ar, err := txtar.ParseFile(mutatedFile)
	if err != nil {
		t.Fatalf("%v (go test ./gen -run TestMutatedSpecs -update-mutated makes it)", err)
	}

	// One module holds a package per accepted spec, so that one go vet per
	// configuration checks them all.
	root := t.TempDir()
	repo, _ := filepath.Abs("..")
	write(t, filepath.Join(root, "go.mod"), "module example.com/corpus\n\ngo 1.26\n\nrequire github.com/lockgen/lockgen v0.0.0\n\nreplace github.com/lockgen/lockgen => "+repo+"\n")
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "go.sum"), string(sum))

	var accepted, rejected []string
	for _, f := range ar.Files {
		dir := filepath.Join(root, filepath.Dir(f.Name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		specPath := filepath.Join(dir, "locks.toml")
		write(t, specPath, string(f.Data))
		plan, err := Build([]string{specPath}, Options{})
		var se spec.Errors
		switch {
		case errors.As(err, &se):
			lines := bytes.Count(f.Data, []byte("\n")) + 1
			for _, e := range se {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Errorf("%s: rejected without naming a line of the spec: %v", f.Name, e)
				}
			}
			rejected = append(rejected, f.Name)
			os.RemoveAll(dir)
		case err != nil:
			t.Errorf("%s: rejected with an error that names no line: %v\n%s", f.Name, err, f.Data)
			os.RemoveAll(dir)
		default:
			if _, err := plan.Write(); err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			// Every accepted lock must get its type.
			for _, l := range plan.Locks {
				src, _ := os.ReadFile(filepath.Join(dir, strings.ToLower(l.Name)+".go"))
				if !bytes.Contains(src, []byte("\ntype "+l.Name+" ")) {
					t.Errorf("%s: accepted, but no type %s in %s.go", f.Name, l.Name, strings.ToLower(l.Name))
				}
			}
			accepted = append(accepted, filepath.Dir(f.Name))
		}
	}
	t.Logf("%d mutated specs: %d accepted, %d rejected", len(ar.Files), len(accepted), len(rejected))
	if len(accepted) == 0 || len(rejected) == 0 {
		t.Fatalf("the corpus should hold both accepted and rejected specs")
	}

	vetted := accepted
	if !*mutatedAll && len(vetted) > mutatedSample {
		// An even sample, the same each run.
		var sample []string
		for i := 0; i < mutatedSample; i++ {
			sample = append(sample, vetted[i*len(vetted)/mutatedSample])
		}
		for _, d := range accepted {
			if !slices.Contains(sample, d) {
				os.RemoveAll(filepath.Join(root, d))
			}
		}
		vetted = sample
	}
	for _, cfg := range []struct {
		name string
		env  []string
		args []string
	}{
		{"default tags", nil, nil},
		{"-tags lockgen_check", nil, []string{"-tags", "lockgen_check"}},
		// One other OS for what is platform-specific (js/wasm was a
		// second, dropped: with an empty build cache its standard library
		// alone took a large share of make test's 15 minutes).
		{"GOOS=windows", []string{"GOOS=windows"}, nil},
	} {
		args := append([]string{"vet"}, cfg.args...)
		cmd := exec.Command("go", append(args, "./...")...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=-mod=mod", "GOWORK=off"}, cfg.env...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go vet (%s) of %d generated packages: %v\n%s", cfg.name, len(vetted), err, firstLines(string(out), 40))
		}
	}
	t.Logf("vetted %d accepted specs under default tags, lockgen_check and windows", len(vetted))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}
