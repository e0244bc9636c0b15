package mutation

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/templates"
)

// TestRunnerOnTAS runs the whole pipeline on four mutants of the smallest
// catalogue lock (test-and-set) and checks each layer's verdict where it
// is deterministic.
func TestRunnerOnTAS(t *testing.T) {
	if err := spin.Available(); err != nil {
		t.Skip(err)
	}
	cfg := Config{
		Algorithms: []string{"tas"},
		Only:       regexp.MustCompile(`^tas/(Acquire/fas-write@1|Release/delete@2|TryAcquire/flip-ne@1|TryAcquire/delete@1#3)$`),
		Jobs:       3,
		Stress:     StressSettings{Passages: 100, Timeout: 5 * time.Second, Stall: time.Second},
		Explore:    ExploreSettings{Budget: time.Second, Stall: time.Second},
		Spin:       SpinSettings{Sizes: []int{2}, Timeout: 30 * time.Second},
	}
	var logs []string
	var inLog atomic.Int32
	cfg.Log = func(s string) { // not safe for concurrent use: Run must serialise it
		if inLog.Add(1) != 1 {
			t.Errorf("Log called concurrently (%q)", s)
		}
		time.Sleep(time.Millisecond) // widen the window an overlap would need
		logs = append(logs, s)
		inLog.Add(-1)
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Units) != 1 {
		t.Fatalf("%d units", len(rep.Units))
	}
	u := rep.Units[0]
	for _, e := range u.Errors {
		t.Errorf("runner error: %s", e)
	}
	if len(u.Results) != 4 {
		t.Fatalf("%d mutants run, want 4", len(u.Results))
	}
	for _, l := range Layers {
		if v := u.Baseline.Layer[l]; !v.Ran || v.Killed {
			t.Errorf("the original tas: %s ran %v killed %v (%s)", l, v.Ran, v.Killed, v.Detail)
		}
	}
	type want struct{ stress, explore, spin string } // "-": not checked (timing-dependent), else a kind substring
	wants := map[string]want{
		// The test and the set are two steps: two holders.
		"tas/Acquire/fas-write@1": {"-", "mutual exclusion", "mutual-exclusion"},
		// Nobody ever frees the lock. The Go layers see it first as
		// misuse: the release's misuse test reads the old value of an
		// exchange that no longer happens, and the first Unlock panics.
		// The model ignores misuse tests and deadlocks.
		"tas/Release/delete@2": {"panic", "panic", "deadlock"},
		// TryLock fails on a free lock and succeeds on a held one.
		"tas/TryAcquire/flip-ne@1": {"try-fresh", "-", "mutual-exclusion"},
		// TryLock never gives up.
		"tas/TryAcquire/delete@1#3": {"try-held", "-", "mutual-exclusion"},
	}
	for _, res := range u.Results {
		w, ok := wants[res.Mutant.ID]
		if !ok {
			t.Errorf("unexpected mutant %s", res.Mutant.ID)
			continue
		}
		if !res.Killed() {
			t.Errorf("%s: no layer killed it", res.Mutant.ID)
		}
		for l, k := range map[Layer]string{Stress: w.stress, Explore: w.explore, SPIN: w.spin} {
			v := res.Layer[l]
			switch {
			case !v.Ran:
				t.Errorf("%s: %s did not run: %s", res.Mutant.ID, l, v.Detail)
			case k == "-":
			case !v.Killed:
				t.Errorf("%s: %s let it through (%s), want %q", res.Mutant.ID, l, v.Detail, k)
			case !strings.Contains(v.Kind, k):
				t.Errorf("%s: %s found %q, want %q", res.Mutant.ID, l, v.Kind, k)
			}
		}
	}
	for _, l := range Layers {
		if u.Time[l] <= 0 {
			t.Errorf("no time recorded for %s", l)
		}
	}
	md := rep.Markdown()
	for _, s := range []string{"# Mutation testing", "| tas | 4 |", "## Survivors", "## Per operator"} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	// A saved run renders the same report again.
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadReport(data)
	if err != nil {
		t.Fatal(err)
	}
	if again := loaded.Markdown(); again != md {
		t.Errorf("a saved and loaded run renders differently:\n%s\n---\n%s", again, md)
	}
	if !strings.Contains(strings.Join(logs, "\n"), "tas") {
		t.Errorf("no progress logged: %v", logs)
	}
}

func TestScoresAndClassification(t *testing.T) {
	killed := &Result{Layer: map[Layer]*Verdict{Stress: {Ran: true, Killed: true}, Explore: {Ran: true}, SPIN: {}}}
	survivor := &Result{Layer: map[Layer]*Verdict{Stress: {Ran: true}, Explore: {Ran: true}, SPIN: {Ran: true}}}
	killed.Mutant.ID, survivor.Mutant.ID = "x/Acquire/delete@1", "x/Acquire/swap@1,2"
	Equivalences["x/Acquire/swap@1,2"] = "test"
	defer delete(Equivalences, "x/Acquire/swap@1,2")
	ls, any, ne := Scores([]*Unit{{Results: []*Result{killed, survivor}}})
	if ls[Stress] != (Score{1, 2}) || ls[Explore] != (Score{0, 2}) || ls[SPIN] != (Score{0, 1}) {
		t.Errorf("layer scores %v", ls)
	}
	if any != (Score{1, 2}) || ne != (Score{1, 1}) {
		t.Errorf("any %v, non-equivalent %v", any, ne)
	}
	if c, _ := Classify("x/Acquire/swap@1,2"); c != Equivalent {
		t.Errorf("class %s", c)
	}
	if c, _ := Classify("nobody/knows"); c != Unclassified {
		t.Errorf("class %s", c)
	}
	// Correct where checked is not equivalent: it stays in the score.
	delete(Equivalences, "x/Acquire/swap@1,2")
	CheckedOnly["x/Acquire/swap@1,2"] = "test"
	defer delete(CheckedOnly, "x/Acquire/swap@1,2")
	if c, _ := Classify("x/Acquire/swap@1,2"); c != CheckedCorrect {
		t.Errorf("class %s", c)
	}
	if _, _, ne := Scores([]*Unit{{Results: []*Result{killed, survivor}}}); ne != (Score{1, 2}) {
		t.Errorf("non-equivalent %v with the survivor correct where checked, want 1/2", ne)
	}
}

// TestClassificationsNameRealMutants: every ID in the tables is a mutant
// the current catalogue generates (a stale entry hides nothing, but it
// misleads a reader).
func TestClassificationsNameRealMutants(t *testing.T) {
	singleThreaded(t)
	t.Parallel()
	ids := map[string]bool{}
	for _, m := range allMutants(t) {
		ids[m.ID] = true
	}
	for _, tbl := range []map[string]string{Equivalences, CheckedOnly, Gaps} {
		for id, why := range tbl {
			if !ids[id] {
				t.Errorf("classified mutant %s is not generated any more", id)
			}
			if strings.TrimSpace(why) == "" {
				t.Errorf("%s: no reason recorded", id)
			}
		}
	}
	seen := map[string]int{}
	for _, tbl := range []map[string]string{Equivalences, CheckedOnly, Gaps} {
		for id := range tbl {
			if seen[id]++; seen[id] > 1 {
				t.Errorf("%s is classified twice", id)
			}
		}
	}
}

// TestEquivalenceRules: an equivalence recorded with a machine-checkable
// reason must satisfy the rule's conditions.
func TestEquivalenceRules(t *testing.T) {
	singleThreaded(t)
	t.Parallel()
	checked := 0
	for _, m := range allMutants(t) {
		why, ok := Equivalences[m.ID]
		if !ok || !strings.HasPrefix(why, LocalCommute) {
			continue
		}
		checked++
		if !commutes(m) {
			t.Errorf("%s is recorded as a local step moved across its neighbour, but %s", m.ID, m.Change)
		}
	}
	t.Logf("%d equivalences checked against their rule", checked)
}

// catalogueMutants generates the mutants of every unit of the catalogue
// once, for the tests that read them (about 1,300; generating them takes
// seconds, a minute or more under -race).
var catalogueMutants = sync.OnceValues(func() ([]mutate.Mutant, error) {
	units, err := selectUnits(nil)
	if err != nil {
		return nil, err
	}
	var all []mutate.Mutant
	for _, u := range units {
		all = append(all, generate(u).Kept...)
	}
	return all, nil
})

// allMutants is catalogueMutants, failing t on an error.
func allMutants(t *testing.T) []mutate.Mutant {
	t.Helper()
	all, err := catalogueMutants()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestUnboundedTicketsFail: the black-white bakery claims bounded
// registers; a mutant whose color never changes draws ever larger numbers,
// which SPIN must report as a failure (not fall back to bounded passages),
// while the original stays within the bound.
func TestUnboundedTicketsFail(t *testing.T) {
	if err := spin.Available(); err != nil {
		t.Skip(err)
	}
	units, err := selectUnits([]string{"black-white-bakery"})
	if err != nil {
		t.Fatal(err)
	}
	u := units[0]
	const id = "black-white-bakery/Release/delete@12"
	var mutant *mutate.Mutant
	for _, m := range generate(u).Kept {
		if m.ID == id {
			mutant = &m
		}
	}
	if mutant == nil {
		t.Fatalf("no mutant %s", id)
	}
	ctx := context.Background()
	run := spin.Options{Timeout: time.Minute, Optimize: "-O0"}
	orig, err := CheckModel(ctx, u.Entry, u.Options, u.Entry.MustDef(u.Options), 2, spin.MutualExclusion, false, 0, run)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Status != spin.Passed {
		t.Fatalf("the original: %s %s %s", orig.Status, orig.Message, orig.Reason)
	}
	// Both ways the runner checks a mutant: CheckModel (the try-acquire
	// models) and spin.CheckEntry (the entry's standard properties).
	viaModel, err := CheckModel(ctx, u.Entry, u.Options, mutant.Alg, 2, spin.MutualExclusion, false, 0, run)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := spin.CheckEntry(ctx, u.Entry.Name, spin.SuiteOptions{Sizes: []int{2},
		Properties: []spin.Property{spin.MutualExclusion}, Def: mutant.Alg, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 {
		t.Fatalf("spin.CheckEntry made %d runs, want 1", len(rep.Runs))
	}
	for how, got := range map[string]spin.Result{"CheckModel": viaModel, "CheckEntry": rep.Runs[0].Result} {
		if got.Status != spin.Failed || got.Failure != "unbounded register" || len(got.Trail) == 0 {
			t.Errorf("%s via %s: %s %q %s (trail of %d steps), want a failure for an unbounded register with its trail",
				id, how, got.Status, got.Failure, got.Message, len(got.Trail))
			continue
		}
		t.Logf("%s via %s: %s: %s (%d steps)", id, how, got.Failure, got.Message, len(got.Trail))
	}
}

// singleThreaded skips a test under -race (see raceEnabled).
func singleThreaded(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("single-threaded and slow under -race: make test-race runs it without")
	}
}

// TestDeepForKExclusion: a k-exclusion unit's survivors get DeepCrash (the
// crash phase unbounded, and the exhaustive search at its k-exclusion
// size), a mutex's get Deep, and neither when the layer is off.
func TestDeepForKExclusion(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Layers = append(Layers, Deep)
	r := &runner{cfg: cfg}
	e, ok := templates.Lookup("zehavi")
	if !ok {
		t.Fatal("no zehavi in the catalogue")
	}
	kx := &Unit{Entry: e, Options: templates.Options{Mode: mode.KExclusion}}
	mx := &Unit{Entry: e, Options: templates.Options{Mode: mode.Mutex}}
	if got := r.deepFor(kx); !slices.Equal(got.Options, cfg.DeepCrash.Options) || got.Budget != cfg.DeepCrash.Budget {
		t.Errorf("k-exclusion: %+v, want DeepCrash", got)
	}
	if !slices.Contains(cfg.DeepCrash.Options, "verify.ExploreCrashRuns(1000000)") {
		t.Errorf("DeepCrash %v does not lift the crash phase's cap", cfg.DeepCrash.Options)
	}
	for _, o := range cfg.DeepCrash.Options {
		if strings.HasPrefix(o, "verify.ExploreDFSSize(") || o == "verify.ExploreDFSLimit(0)" {
			t.Errorf("DeepCrash %v overrides or turns off the k-exclusion DFS (k + 1 goroutines × 1 passage)", cfg.DeepCrash.Options)
		}
	}
	if got := r.deepFor(mx); !slices.Equal(got.Options, cfg.Deep.Options) {
		t.Errorf("mutex: %+v, want Deep", got)
	}
	r.cfg.Layers = Layers
	if got := r.deepFor(kx); got.Budget != 0 {
		t.Errorf("deep layer off: %+v", got)
	}
}

// TestHuntOnReplaceAdd runs the spin-hunt layer alone on two mutants of
// replace-add's k-exclusion: with no other layer, every mutant is a
// survivor. The original must pass. The mutant that tests its old value
// (line 3) before taking it (line 2) lets three in with one passage each
// and must be killed, with a trail; the one that flips line 3's test
// admits a third holder only after passages that gave their slot back
// (the spin layer's unbounded search at n = 3 kills it), so one passage
// each must find nothing: the hunt is not a check that always bites.
func TestHuntOnReplaceAdd(t *testing.T) {
	if err := spin.Available(); err != nil {
		t.Skip(err)
	}
	cfg := Config{
		Algorithms: []string{"replace-add[kexclusion]"},
		Only:       regexp.MustCompile(`^replace-add\[kexclusion\]/Acquire/(swap@2,3|flip-lt@3)$`),
		Layers:     []Layer{Hunt},
		Jobs:       2,
		Hunt:       HuntSettings{Timeout: time.Minute, Passages: 1, HashBits: 20, MemLimitMB: 256},
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	u := rep.Units[0]
	for _, e := range u.Errors {
		t.Errorf("runner error: %s", e)
	}
	if v := u.Baseline.Layer[Hunt]; !v.Ran || v.Killed {
		t.Errorf("the original: ran %v killed %v (%s)", v.Ran, v.Killed, v.Detail)
	}
	got := map[string]*Verdict{}
	for _, res := range u.Results {
		got[res.Mutant.ID] = res.Layer[Hunt]
	}
	if v := got["replace-add[kexclusion]/Acquire/swap@2,3"]; v == nil || !v.Killed ||
		!strings.Contains(v.Kind, "n=3, 1 passage(s), bit-state") || !strings.Contains(v.Detail, "Acquire line 2") {
		t.Errorf("swap@2,3: %+v, want killed at n = 3 with a trail", v)
	}
	if v := got["replace-add[kexclusion]/Acquire/flip-lt@3"]; v == nil || !v.Ran || v.Killed {
		t.Errorf("flip-lt@3: %+v, want run and not killed", v)
	}
	if h := huntSize(u); h != 3 {
		t.Errorf("hunt size %d, want k + 1 = 3", h)
	}
}
