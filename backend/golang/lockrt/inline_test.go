package lockrt

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestInlineShapes asks the compiler which shapes (shapes_test.go) fit
// the inliner's budget, compiling this package's tests with -gcflags=-m=2
// in the default build (runtime.go's registers, whatever tags this test
// runs with), and fails when its verdict is not the one the project's
// account of its fast paths rests on (ARCHITECTURE.md, "Fast paths"):
// then the inliner or the registers have changed, and the generated fast
// paths are worth another look. Each shape's cost is logged (go test -v).
func TestInlineShapes(t *testing.T) {
	cmd := exec.Command("go", "test", "-c", "-o", filepath.Join(t.TempDir(), "lockrt.test"), "-gcflags=-m=2", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	verdict := regexp.MustCompile(`(can|cannot) inline \(\*(\w+)\)\.(\w+)(?: with cost (\d+)|: function too complex: cost (\d+) exceeds budget (\d+))`)
	type result struct {
		inlines bool
		cost    int
	}
	got := map[string]result{}
	budget := 0
	for _, m := range verdict.FindAllStringSubmatch(string(out), -1) {
		r := result{inlines: m[1] == "can"}
		if r.inlines {
			r.cost, _ = strconv.Atoi(m[4])
		} else {
			r.cost, _ = strconv.Atoi(m[5])
			budget, _ = strconv.Atoi(m[6])
		}
		got[m[2]+"."+m[3]] = r
	}
	for _, w := range []struct {
		shape   string
		inlines bool
		account string
	}{
		{"shapeCall.Lock", true, "a call that does not inline costs most of the budget by itself"},
		{"shapeTAS.Lock", true, "a swap, a call when it fails, and the misuse flag fit"},
		{"shapeTAS.Unlock", false, "an unguarded release: misuse check, write, separate test for sleepers"},
		{"shapeTAS.UnlockUnchecked", true, "a write and a separate test for sleepers fit only with no misuse check at all"},
		{"shapeTAS.UnlockFolded", true, "one swap whose old value tells both misuse and sleepers, as in sync.Mutex's Unlock, fits"},
		{"shapeTAS.UnlockFoldedFlagged", false, "the folded release does not fit with the misuse flag beside it"},
		{"shapeGuard.Lock", true, "a bitReg's exchange of 1, the test of the value it returned, and a call fit"},
		{"shapeGuard.Unlock", true, "a bitReg's exchange of 0, the test of the whole word it returned, and a call with that word fit"},
		{"shapeGuard.UnlockNested", false, "the same through the queue word's method, one call deeper, does not fit: bitReg's set and clear call the atomics themselves"},
		{"shapePadded.Unlock", false, "the same with the register after a cache line of padding does not fit: the field's offset costs 2"},
		{"shapeQueue.Lock", false, "one swap of a pointer and a call do not fit: no queue lock on pointers inlines its acquire"},
		{"shapeTicket.Lock", false, "a ticket lock's acquire, a fetch&add and a load on two registers, a call with the ticket and the misuse flag, does not fit"},
		{"shapeTicket.LockUnflagged", false, "nor without the misuse flag"},
		{"shapeTicket.LockNoTicket", false, "nor with a call that is not given the ticket: two steps and a call are over the budget"},
		{"shapeTicketDirect.Lock", false, "on bare words through sync/atomic, the same acquire with the misuse flag does not fit either"},
		{"shapeTicketDirect.LockUnflagged", true, "on bare words without the flag it fits: the register methods cost it 9"},
	} {
		r, ok := got[w.shape]
		if !ok {
			t.Errorf("%s: no verdict in the compiler's report", w.shape)
			continue
		}
		t.Logf("%-30s cost %3d, inlines %-5v: %s", w.shape, r.cost, r.inlines, w.account)
		if r.inlines != w.inlines {
			t.Errorf("%s: the compiler says inlines=%v (cost %d, budget %d), but the account is %q: the inliner changed", w.shape, r.inlines, r.cost, budget, w.account)
		}
	}
}
