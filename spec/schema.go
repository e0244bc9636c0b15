package spec

import (
	"strings"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/wait"
)

// Defaults of the optional keys whose default does not depend on the
// algorithm. Schema documents every default, including these; the tests keep
// the two in sync.
const (
	DefaultMode    = mode.Mutex    // mode
	DefaultPadding = 64            // padding, in bytes
	DefaultWait    = wait.Adaptive // wait
	DefaultSpin    = 100           // spin, with a policy that takes it (wait.Policy.TakesSpin)
)

// Limits of the numeric keys.
const (
	MinProcs = 2       // procs >= max(MinProcs, Entry.MinProcs)
	MaxProcs = 1024    // procs <= Entry.MaxProcs, or MaxProcs when the entry sets none
	MinK     = 2       // 2 <= k < procs (k <= MaxProcs-1 when the lock has no procs)
	MinSpin  = 1       // 1 <= spin <= MaxSpin
	MaxSpin  = 1000000 //
)

// Paddings are the valid values of padding, in bytes.
var Paddings = []int{0, 64, 128}

// KeyDoc documents one key of a [[lock]] table.
type KeyDoc struct {
	Key     string
	Type    string // TOML type
	Values  string // what is valid
	Default string // the default, or "required" and when
	Doc     string
}

// Schema is the one place that documents the keys of a [[lock]] table and
// their defaults, in the order the canonical echo (Lock.TOML) writes them.
// Each algorithm adds its own keys (templates.Entry.Params); `lockgen
// explain ALGORITHM` lists those.
var Schema = []KeyDoc{
	{"name", "string", "an exported Go identifier, unique in the file; as a file name (lower-cased) not *_test, *_GOOS, *_GOARCH, lockgen_*, nor over 241 bytes", "required", "the lock's Go type name"},
	{"package", "string", "a lower-case Go identifier; not a keyword, a predeclared identifier, main, init, documentation or *_test", "required", "the Go package name of the output"},
	{"algorithm", "string", "a catalogue name (lockgen list)", "required", "the algorithm"},
	{"mode", "string", "mutex | kexclusion | rw, among those the algorithm offers", `"mutex" (an algorithm without mutex: its only mode)`, "what the lock offers: one holder, at most k holders, or shared readers and exclusive writers"},
	{"k", "integer", "2 <= k < procs (2 <= k <= 1023 without procs)", `required with mode = "kexclusion"; not allowed otherwise`, "how many processes may hold the lock at once"},
	{"procs", "integer", "max(2, the algorithm's minimum) <= procs <= the algorithm's maximum, or 1024", `required when the algorithm needs it (process ids, or arrays sized by n) or nodes = "array"; not allowed otherwise`, "the number of processes n; ids are 0..n-1"},
	{"nodes", "string", "handle | pool | heap | caller | array, among those the algorithm supports", "the algorithm's default (lockgen explain); not allowed for algorithms without per-process records", "where per-process records (queue nodes) live; with array they live in the lock and references to them are ids, so the queue's swaps and CASes are integer ones (a pointer's carries the garbage collector's write barrier)"},
	{"padding", "integer", "0 | 64 | 128", "64", "bytes separating hot shared words (false-sharing padding)"},
	{"wait", "string", alternatives(wait.All) + ", among those the algorithm allows", `"adaptive"`, "how a process waits in an await (lockgen explain lists which fits which workload)"},
	{"spin", "integer", "1..1000000", "with wait = " + wait.Or(wait.Where(wait.Policy.TakesSpin)) + ": 100; not allowed otherwise", "how many times to spin before yielding or parking"},
	{"preference", "string", "reader | writer | fair, among those the algorithm offers", `the algorithm's first preference with mode = "rw"; not allowed otherwise`, "who goes first when readers and writers contend"},
	{"trylock", "boolean", "true only if the algorithm supports TryLock", "false", "generate TryLock"},
	{"context", "boolean", "true only if a waiting process of the algorithm can give up (lockgen explain: context), and not yet for a reader/writer lock (RLockContext is not lowered yet)", "false", "generate LockContext(ctx) error (LockContext(ctx, id), or through the handle or node, as Lock): a wait that gives up when ctx is done, running the paper's abort code and returning ctx.Err() with the lock not held; Lock is unchanged; message-passing locks always have it"},
	{"tests", "boolean", "true | false", "true", "generate the lock's tests, which import github.com/lockgen/lockgen/verify; with false the package imports the standard library only and has no lockgen_check build"},
	{"allow_incorrect", "boolean", "true only for an algorithm known to be incorrect", "false", "opt in to generating a known-incorrect algorithm (negative controls)"},
}

// alternatives is a key's values as Schema lists them: "a | b | c".
func alternatives[S ~string](vals []S) string {
	ss := make([]string, len(vals))
	for i, v := range vals {
		ss[i] = string(v)
	}
	return strings.Join(ss, " | ")
}

// schemaKeys lists the keys of Schema in order.
func schemaKeys() []string {
	keys := make([]string, len(Schema))
	for i, d := range Schema {
		keys[i] = d.Key
	}
	return keys
}

func isSchemaKey(k string) bool {
	for _, d := range Schema {
		if d.Key == k {
			return true
		}
	}
	return false
}
