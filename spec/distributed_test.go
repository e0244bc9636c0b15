package spec

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
)

func TestDistributedLock(t *testing.T) {
	f, err := Parse("d.toml", []byte("[[lock]]\nname = \"D\"\npackage = \"d\"\nalgorithm = \"dcrew\"\ntests = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := f.Locks[0]
	if l.Distributed == nil || l.Entry != nil || l.Mode != mode.RW || !l.NoTests {
		t.Fatalf("got %+v", l)
	}
	// The canonical echo parses back to the same lock.
	g, err := Parse("echo.toml", []byte(l.TOML()))
	if err != nil {
		t.Fatalf("echo %q: %v", l.TOML(), err)
	}
	if g.Locks[0].TOML() != l.TOML() {
		t.Errorf("echo changed: %q then %q", l.TOML(), g.Locks[0].TOML())
	}
}

// Every shared-memory key is rejected on its own line, saying why.
func TestDistributedLockRejects(t *testing.T) {
	src := "[[lock]]\nname = \"D\"\npackage = \"d\"\nalgorithm = \"dcrew\"\nprocs = 3\nwait = \"park\"\nmode = \"mutex\"\nbogus = 1\n"
	_, err := Parse("d.toml", []byte(src))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`d.toml:5:1: "procs" does not apply to the message-passing lock dcrew: the processes of a distributed lock are chosen at run time`,
		`d.toml:6:1: "wait" does not apply to the message-passing lock dcrew: it is a choice of shared-memory locks`,
		`d.toml:7:1: mode = "mutex" is not offered by dcrew`,
		`d.toml:8:1: "bogus" does not apply`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if _, err := Parse("d.toml", []byte("[[lock]]\nname = \"D\"\npackage = \"d\"\nalgorithm = \"dcrw\"\n")); err == nil || !strings.Contains(err.Error(), `did you mean "dcrew"?`) {
		t.Errorf("a misspelt distributed algorithm: %v", err)
	}
}
