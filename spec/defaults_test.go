package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

func parseOne(t *testing.T, cat Catalogue, src string) Lock {
	t.Helper()
	f, err := ParseWith(cat, "t.toml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if len(f.Locks) != 1 {
		t.Fatalf("%d locks", len(f.Locks))
	}
	return f.Locks[0]
}

func TestDefaults(t *testing.T) {
	l := parseOne(t, fakes, lock("mcs"))
	want := Lock{
		Pos:     Pos{File: "t.toml", Line: 1, Col: 1},
		NamePos: Pos{File: "t.toml", Line: 2, Col: 1},
		Name:    "L", Package: "l", Algorithm: "mcs", Entry: fakes["mcs"],
		Mode: DefaultMode, Nodes: nodes.Handle, Padding: DefaultPadding,
		Wait: DefaultWait,
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", l, want)
	}
	if DefaultMode != mode.Mutex || DefaultPadding != 64 || DefaultWait != wait.Adaptive || DefaultSpin != 100 {
		t.Errorf("defaults changed: update the brief, README and Schema")
	}

	// Defaults that depend on the entry or on other keys.
	if l := parseOne(t, fakes, lock("ticket")); l.Nodes != nodes.None || l.Procs != 0 {
		t.Errorf("ticket: nodes %q procs %d, want none", l.Nodes, l.Procs)
	}
	if l := parseOne(t, fakes, lock("fake-rw", `mode = "rw"`)); l.Preference != templates.WriterPref {
		t.Errorf("preference %q, want the entry's first, writer", l.Preference)
	}
	if l := parseOne(t, fakes, lock("fake-rw")); l.Preference != "" {
		t.Errorf("preference %q outside rw", l.Preference)
	}
	if l := parseOne(t, fakes, lock("mcs", `wait = "park"`)); l.Spin != 0 {
		t.Errorf("spin %d with park", l.Spin)
	}
	if l := parseOne(t, fakes, lock("mcs", `wait = "spin-then-yield"`)); l.Spin != DefaultSpin {
		t.Errorf("spin %d with spin-then-yield", l.Spin)
	}
	l = parseOne(t, fakes, lock("fake-anon", "procs = 4"))
	if want := map[string]int64{"memory": 5, "backoff": 1500}; !reflect.DeepEqual(l.Params, want) {
		t.Errorf("params %v, want %v", l.Params, want)
	}
	if l.Nodes != nodes.Array {
		t.Errorf("nodes %q, want the entry's default array", l.Nodes)
	}
	l = parseOne(t, fakes, lock("fake-fischer", "procs = 3", `wait = "spin"`, `delta = "1.5ms"`))
	if l.Params["delta"] != 1500000 {
		t.Errorf("delta = %d ns, want 1500000", l.Params["delta"])
	}
	if !strings.Contains(l.TOML(), "delta = \"1500us\"\n") {
		t.Errorf("echo:\n%s", l.TOML())
	}
}

// literal returns the TOML literal a Schema default starts with, or "" for
// a default that is a rule.
func literal(def string) string {
	tok, _, _ := strings.Cut(def, " ")
	switch {
	case strings.HasPrefix(tok, `"`), tok == "true", tok == "false", tok != "" && tok[0] >= '0' && tok[0] <= '9':
		return tok
	}
	return ""
}

// TestSchemaDefaults keeps Schema honest: setting a key to the default
// Schema documents gives the same lock as leaving it out.
func TestSchemaDefaults(t *testing.T) {
	base := lock("mcs")
	implicit := parseOne(t, fakes, base)
	var checked []string
	for _, d := range Schema {
		lit := literal(d.Default)
		if lit == "" {
			continue
		}
		explicit := parseOne(t, fakes, base+d.Key+" = "+lit+"\n")
		if !reflect.DeepEqual(explicit, implicit) {
			t.Errorf("%s = %s (Schema's default) gives\n%+v\nleaving it out gives\n%+v", d.Key, lit, explicit, implicit)
		}
		checked = append(checked, d.Key)
	}
	if got, want := strings.Join(checked, " "), "mode padding wait trylock context tests allow_incorrect"; got != want {
		t.Errorf("keys with literal defaults: %s, want %s", got, want)
	}
	for _, d := range Schema {
		if d.Key == "" || d.Type == "" || d.Values == "" || d.Default == "" || d.Doc == "" {
			t.Errorf("Schema entry %q is incomplete", d.Key)
		}
	}
}

// TestEchoOrder checks that TOML writes keys in Schema order and round-trips.
func TestEchoOrder(t *testing.T) {
	for _, src := range []string{
		lock("filter", `mode = "kexclusion"`, "procs = 5", "k = 2", "trylock = false"),
		lock("fake-rw", `mode = "rw"`, `preference = "reader"`, `wait = "spin-then-yield"`, "spin = 7", "padding = 0"),
		lock("fake-hyman", "procs = 2", "allow_incorrect = true"),
		lock("fake-anon", "procs = 3", "memory = 9", `backoff = "2m"`, `nodes = "array"`),
		lock("mcs", `nodes = "caller"`, `wait = "spin"`, "trylock = true"),
	} {
		l := parseOne(t, fakes, src)
		roundTrip(t, fakes, l)
		var keys []string
		for _, line := range strings.Split(strings.TrimSpace(l.TOML()), "\n")[1:] {
			k, _, _ := strings.Cut(line, " = ")
			keys = append(keys, k)
		}
		order := schemaKeys()
		last := -1
		for _, k := range keys {
			i := indexOf(order, k)
			if i < 0 {
				i = len(order) // parameters come last
			}
			if i < last {
				t.Errorf("echo key %s out of Schema order:\n%s", k, l.TOML())
			}
			last = i
		}
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func TestFormatDuration(t *testing.T) {
	for ns, want := range map[int64]string{0: "0s", 1: "1ns", 1500: "1500ns", 10000: "10us", 1500000: "1500us", 2e9: "2s", 90e9: "90s", 120e9: "2m", 7200e9: "2h"} {
		if got := formatDuration(ns); got != want {
			t.Errorf("formatDuration(%d) = %q, want %q", ns, got, want)
		}
	}
}

func TestParseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locks.toml")
	data := []byte("\xef\xbb\xbf" + lock("mcs", "  padding = 0"))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ParseFile(path)
	if err != nil {
		if _, ok := templates.Lookup("mcs"); !ok {
			t.Skip("pending: mcs not registered")
		}
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if f.Path != path || f.Hash != hex.EncodeToString(sum[:]) || len(f.Locks) != 1 {
		t.Errorf("got %+v", f)
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.toml")); err == nil {
		t.Error("no error for a missing file")
	}
	// A BOM does not move positions.
	_, err = ParseWith(fakes, "b.toml", []byte("\xef\xbb\xbf"+lock("mcs", "  padding = 1")))
	if err == nil || err.Error() != "b.toml:5:3: padding = 1 is out of range; valid: 0, 64, 128" {
		t.Errorf("got %v", err)
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"name", "package", "algorithm", "mode", "k", "procs", "nodes", "padding", "wait", "spin"}
	for in, want := range map[string]string{
		"nodez": "nodes", "Mode": "mode", "algoritm": "algorithm", "wiat": "wait", "proc": "procs",
		"x": "", "kk": "", "colour": "", "": "", strings.Repeat("a", 200): "",
	} {
		if got := suggest(in, cands); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
