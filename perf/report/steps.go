package report

// AtomicSteps is what one uncontended passage of a lock costs in atomic
// operations: its writes and read-modify-writes (sequentially consistent,
// so each waits for the store buffer to drain) and how many of them are on
// pointers (a runtime call carrying the garbage collector's write
// barrier), with the paper's line labels of those steps. Reads are left
// out: a read of a line the processor holds costs about what a plain load
// does.
type AtomicSteps struct {
	Writes, Pointer int
	Lines           string
}

// mutexSteps is sync.Mutex's uncontended passage: a CAS to lock and an
// add to unlock, both on an integer.
var mutexSteps = AtomicSteps{Writes: 2}

// uncontendedSteps is the uncontended passage of the locks that the
// uncontended targets name, as the catalogue generates them (default
// options, the steady state after a first passage). TestUncontendedSteps
// (-tags lockgen_check) counts them in the generated code. With nodes =
// "array" no step is on pointers (atomicSteps).
var uncontendedSteps = map[string]AtomicSteps{
	"tas":               {Writes: 2, Lines: "1, 2"},
	"ttas":              {Writes: 2, Lines: "2, 6"},
	"ticket":            {Writes: 2, Lines: "T1, T3"},
	"replace-add":       {Writes: 2, Lines: "2, 5"},
	"mcs":               {Writes: 2, Pointer: 2, Lines: "3, 13"},
	"clh":               {Writes: 3, Pointer: 1, Lines: "1, 2, 5"},
	"anderson":          {Writes: 3, Lines: "1, 4, 5"},
	"graunke-thakkar":   {Writes: 2, Lines: "2, 4"},
	"dvir-taubenfeld-1": {Writes: 4, Pointer: 2, Lines: "3, 4, 10, 12"},
	"dvir-taubenfeld-2": {Writes: 5, Lines: "1, 6, 7, 9, 11"}, // its records are in the lock: references are ids
}
