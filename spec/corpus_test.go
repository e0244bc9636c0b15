package spec

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

var (
	update  = flag.Bool("update", false, "rewrite the golden files of testdata/bad and testdata/good")
	standin = flag.Bool("standin", false, "run corpus cases whose catalogue entries are not registered yet against stand-ins (fake_test.go) instead of skipping them")
)

// corpusCatalogue returns the catalogue a corpus file runs against: the real
// one (nil), or the stand-ins with -standin. A file lists the real entries it
// needs in a "# needs: a, b" line; if one is missing the case is pending and
// skipped.
func corpusCatalogue(t *testing.T, src string) Catalogue {
	t.Helper()
	var missing []string
	for _, line := range strings.Split(src, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "# needs:")
		if !ok {
			continue
		}
		for _, n := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' }) {
			if _, ok := templates.Lookup(n); !ok {
				missing = append(missing, n)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if !*standin {
		t.Skipf("pending: catalogue entries not registered yet: %s; once they land, run `go test ./spec -run Corpus -update` and review the golden", strings.Join(missing, ", "))
	}
	return overlay{standIns}
}

// corpus lists testdata/DIR/*.toml and checks each has a golden with the
// extension ext (and that no golden is orphaned).
func corpus(t *testing.T, dir, ext string) []string {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in testdata/%s: %v", dir, err)
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", dir, "*"+ext))
	for _, g := range goldens {
		if _, err := os.Stat(strings.TrimSuffix(g, ext) + ".toml"); err != nil {
			t.Errorf("%s has no .toml beside it", g)
		}
	}
	return files
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden %s (run go test ./spec -run Corpus -update): %v", path, err)
	}
	if got != string(want) {
		t.Errorf("%s differs (-update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// stableNames replaces the catalogue's full list of names, and the lists
// of wait policies, which messages about the algorithm, wait and spin keys
// quote, by placeholders, so that goldens do not change each time the
// catalogue or the wait table grows. The rules tests check the lists.
func stableNames(cat Catalogue, msgs string) string {
	if cat == nil {
		cat = registry{}
	}
	return strings.NewReplacer(
		"valid: "+list(algorithmNames(cat)), "valid: <catalogue names>",
		"valid: "+list(wait.All), "valid: <wait policies>",
		"applies only to "+listAnd(wait.Where(wait.Policy.TakesSpin)), "applies only to <wait policies that take spin>",
	).Replace(msgs)
}

var errLine = regexp.MustCompile(`^[^:]+\.toml:(\d+):(\d+): \S.*$`)

// TestCorpusBad checks every testdata/bad/NAME.toml fails with exactly the
// messages in NAME.err.
func TestCorpusBad(t *testing.T) {
	for _, path := range corpus(t, "bad", ".err") {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".toml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cat := corpusCatalogue(t, string(data))
			f, err := ParseWith(cat, name, data)
			if err == nil {
				t.Fatalf("parsed without error: %d locks", len(f.Locks))
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, not Errors", err)
			}
			for _, line := range strings.Split(es.Error(), "\n") {
				if !errLine.MatchString(line) {
					t.Errorf("malformed problem line %q", line)
				}
			}
			golden(t, strings.TrimSuffix(path, ".toml")+".err", stableNames(cat, es.Error())+"\n")
		})
	}
}

// TestCorpusGood checks every testdata/good/NAME.toml parses, that its
// canonical echo is NAME.canonical, and that the echo parses back to the
// same locks.
func TestCorpusGood(t *testing.T) {
	for _, path := range corpus(t, "good", ".canonical") {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".toml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cat := corpusCatalogue(t, string(data))
			f, err := ParseWith(cat, name, data)
			if err != nil {
				t.Fatalf("%v", err)
			}
			var echo []string
			for _, l := range f.Locks {
				echo = append(echo, l.TOML())
				roundTrip(t, cat, l)
			}
			golden(t, strings.TrimSuffix(path, ".toml")+".canonical", strings.Join(echo, "\n"))
		})
	}
}

// roundTrip checks that l's canonical echo parses to l again.
func roundTrip(t *testing.T, cat Catalogue, l Lock) {
	t.Helper()
	f, err := ParseWith(cat, "echo.toml", []byte(l.TOML()))
	if err != nil {
		t.Fatalf("echo of %s does not parse: %v\n%s", l.Name, err, l.TOML())
	}
	if len(f.Locks) != 1 {
		t.Fatalf("echo of %s has %d locks", l.Name, len(f.Locks))
	}
	back := f.Locks[0]
	back.Pos, l.Pos = Pos{}, Pos{}
	back.NamePos, l.NamePos = Pos{}, Pos{}
	if !reflect.DeepEqual(back, l) {
		t.Errorf("echo of %s parses to\n%+v\nwant\n%+v", l.Name, back, l)
	}
}
