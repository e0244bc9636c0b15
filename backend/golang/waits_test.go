package golang

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/templates"
)

// TestNoExclusiveWaitOnTheLockQueue: a write wakes one exclusive waiter,
// which is right only when every waiter on the queue waits for the
// location written. The lock's queue holds waits on different locations
// (anonymous's line 6 waits on R[perm[j]], a different element for each
// waiter): an exclusive wait there lost a wake-up and deadlocked 64
// goroutines in make bench. No configuration of any entry may generate one.
func TestNoExclusiveWaitOnTheLockQueue(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded and slow under -race: make test-race runs it without")
	}
	checked := 0
	for _, e := range templates.All() {
		for _, c := range configs(e) {
			c.Name, c.Package, c.ImportPath = "L", "p", "example.com/p"
			c.SpecPath, c.SpecHash, c.SpecEcho = "waits", "0", c.describe()
			f, err := Lock(c)
			if err != nil {
				t.Fatalf("%s: %v", c.describe(), err)
			}
			for _, line := range strings.Split(string(f.Data), "\n") {
				if strings.Contains(line, ".begin(") && strings.Contains(line, "&l.sleepers") {
					checked++
					if strings.Contains(line, "waitExclusive") {
						t.Errorf("%s: an exclusive wait on the lock's queue: %s", c.describe(), strings.TrimSpace(line))
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no wait on the lock's queue in the whole catalogue: the test looks at nothing")
	}
	t.Logf("%d waits on the lock's queue checked", checked)
}
