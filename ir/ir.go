// Package ir is the algorithm language of lockgen: every catalogue algorithm
// is written once as an ir.Algorithm, and the backends (Go, Promela, the
// mutation engine, the docs) lower that one definition.
//
// The language follows the papers' model: processes communicate through
// shared registers; each access to a shared location (a Load inside an
// expression, a Write, Swap, CAS or FetchAdd statement) is one atomic step,
// and nothing else is. Statements carry the papers' line labels, so
// generated code, Promela models and failure traces all name the same lines.
package ir

import "fmt"

// Kind is the kind of a value.
type Kind uint8

const (
	Int  Kind = iota // an integer (Go: int64)
	Bool             // a boolean
	Ref              // a reference to a record (Go: pointer; Promela: index); Nil is the null reference
)

// Type is a value type. Rec names the record a Ref points to.
type Type struct {
	Kind Kind
	Rec  string
}

// Common types.
var (
	TInt  = Type{Kind: Int}
	TBool = Type{Kind: Bool}
)

// TRef is a reference to record rec.
func TRef(rec string) Type { return Type{Kind: Ref, Rec: rec} }

func (t Type) String() string {
	switch t.Kind {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case Ref:
		return "*" + t.Rec
	}
	return fmt.Sprintf("Kind(%d)", t.Kind)
}

// Params are the generation-time parameters of an instance of an algorithm.
// Sizes and initial values are functions of them.
type Params struct {
	N     int              // number of processes (0 when the algorithm does not need it)
	K     int              // k of k-exclusion (1 for mutual exclusion)
	Extra map[string]int64 // algorithm-specific parameters (e.g. "m" memory size; durations in ns)
}

// Get returns a named parameter: "n", "k" or an Extra entry.
func (p Params) Get(name string) int64 {
	switch name {
	case "n":
		return int64(p.N)
	case "k":
		return int64(p.K)
	}
	return p.Extra[name]
}

// Shared declares a shared register or an array of them.
type Shared struct {
	Name string // the paper's name (e.g. "FLAG", "TAIL")
	Type Type
	// Len is the array length as a function of the parameters; nil for a
	// scalar register.
	Len func(Params) int
	// Init is the initial value of element i (i = 0 for a scalar); nil means
	// the zero value (0, false, Nil).
	Init func(p Params, i int) int64
	// Owner is "proc" when element i belongs to process i (an SWMR register
	// local to p_i in the DSM model); "" when it is multi-writer.
	Owner string
	Doc   string
}

// IsArray reports whether s is an array.
func (s *Shared) IsArray() bool { return s.Len != nil }

// Record declares a record type (a queue node) whose fields are shared
// registers reached through references.
type Record struct {
	Name   string
	Fields []Field
	Doc    string
}

// Field is one register of a record.
type Field struct {
	Name string
	Type Type
	Init int64 // initial value of a fresh record (0, 0/1 for bool, 0 = Nil for refs)
	Doc  string
}

// Field returns the field named name, or nil.
func (r *Record) Field(name string) *Field {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return &r.Fields[i]
		}
	}
	return nil
}

// ProcRecords declares records owned by each process (q_p in the papers):
// Count records of type Rec per process. Where they live is the node
// allocation policy, decided at lowering (see Algorithm.Nodes).
type ProcRecords struct {
	Name  string
	Rec   string
	Count int
	Doc   string
}

// Scope says how long a local variable lives.
type Scope uint8

const (
	// Step locals live within one operation (one acquire, one release).
	Step Scope = iota
	// Passage locals are set by acquire and read by the matching release.
	Passage
	// Process locals persist across a process's passages (e.g. DT alg. 1's
	// current, CLH's node). Under a policy without process identity they
	// degrade to Passage scope, which the algorithm must declare safe.
	Process
)

// Local declares a local variable of a process.
type Local struct {
	Name  string
	Type  Type
	Scope Scope
	// Len, when set, makes the local an array of Len(params) elements
	// (e.g. the anonymous algorithm's myview_i[1..m]); it is private to
	// the process, so its elements are not shared registers.
	Len func(Params) int
	// Init is the initial value for Process-scoped locals (nil: zero, or for
	// a Ref, see InitMine).
	Init func(p Params) int64
	// InitMine, for a Process-scoped Ref, initialises it to the process's
	// own record InitMine[0] index InitMine[1] (e.g. CLH: my node).
	InitMine *Mine
	// InitSelf, for a Process-scoped local of a message-passing
	// algorithm, is each process's initial value as an expression of Self
	// and the parameters (where the token starts, the tree each process
	// points along): every backend evaluates it per process (EvalConst).
	// It overrides Init.
	InitSelf Expr
	Doc      string
}

// Algorithm is one catalogue algorithm, as data.
type Algorithm struct {
	Name string // catalogue key, e.g. "mcs"

	Shared  []Shared
	Records []Record
	Procs   []ProcRecords
	Locals  []Local

	// The operations. Acquire and Release are required; the rest are
	// optional. Reader/writer algorithms set the R* operations: Acquire and
	// Release are then the writer's.
	Acquire     Code
	Release     Code
	TryAcquire  Code // returns through Succeed or Fail
	RAcquire    Code
	RRelease    Code
	TryRAcquire Code

	// RReleaseMisuse, for reader/writer algorithms whose reader release
	// can tell, is true after RRelease when no reader held the lock: an
	// expression over RRelease's locals and the registers (for example the
	// reader count that its fetch&add returned was already 0). The Go
	// backend panics on it, as sync.RWMutex does; models ignore it, since
	// they only use the lock correctly. Nil: no check.
	RReleaseMisuse Expr

	// ReleaseMisuse, for anonymous algorithms whose release can tell, is
	// true after Release when no process held the lock: an expression over
	// Release's locals and the registers (for example the count of free
	// places that its fetch&add returned was already k, or the lock word
	// that its exchange returned was already FREE). The Go backend panics
	// on it instead of keeping a misuse flag: a k-exclusion lock's holders
	// share a Locker, so it has no per-holder flag, and a count of holders
	// would cost every passage two atomic steps on a word they all write;
	// a mutex's flag costs a plain write each way, which a fast path that
	// is one atomic step (Go backend, guards) cannot afford. Models ignore
	// it. Required for k-exclusion through Lock()/Unlock().
	ReleaseMisuse Expr

	// DoorwayEnd is the label of the last statement of the doorway (the
	// wait-free prefix of Acquire); "" when the algorithm has no doorway.
	// The FIFO/FCFS checks compare doorway order with entry order; the
	// bounded-waiting check counts the entries that overtake a process
	// after its doorway. Only simple statements end it (see EndsDoorway):
	// a loop that carries its first line's label does not.
	DoorwayEnd string

	// Messages and Handlers make a message-passing algorithm (see
	// messages.go); shared-memory algorithms leave them empty.
	Messages []Message
	Handlers []Handler
	// Start, for a message-passing algorithm, is what every process runs
	// once before its first routine or message: sends only, the messages
	// in the network when the processes start (Le Lann's token). Nil:
	// the network starts empty.
	Start Code
	// Joins, for a message-passing algorithm that claims FCFS, are where
	// requests join its order (see Join).
	Joins []Join
}

// EndsDoorway reports whether s is a statement of the label DoorwayEnd
// that the doorway ends with. A doorway inside a loop (Knuth's L0, redone
// on every retry) ends each time round; the checks count from the first.
func (a *Algorithm) EndsDoorway(s Stmt) bool {
	if a.DoorwayEnd == "" || s.Label() != a.DoorwayEnd {
		return false
	}
	switch s.(type) {
	case If, While, Repeat, For:
		return false
	}
	return true
}

// Code is a statement list.
type Code []Stmt

// Stmt is a statement. Every statement has the paper's line label (may be
// empty for statements the paper does not number).
type Stmt interface {
	Label() string
	stmt()
}

// At carries a statement's label.
type At struct{ L string }

// Label returns the statement's line label.
func (a At) Label() string { return a.L }
func (At) stmt()           {}

// Loc is a shared location: an element of a shared array, a shared scalar,
// or a field of a record reached through a reference.
type Loc interface{ loc() }

// Var is shared register Name, element Index (nil for a scalar).
type Var struct {
	Name  string
	Index Expr
}

// Fld is field Name of the record Ref points to. Ref must not contain a Load:
// following a reference held in a local is free, reading one is a step.
type Fld struct {
	Ref  Expr
	Name string
}

func (Var) loc() {}
func (Fld) loc() {}

// Expr is an expression. Loads are the only expressions that touch shared
// memory; each Load is one atomic read step.
type Expr interface{ expr() }

type (
	// Const is an integer constant; Name, when set, is how the paper
	// writes it (LOCKED, WAFLAG).
	Const struct {
		V    int64
		Name string
	}
	// BoolConst is true or false.
	BoolConst struct{ V bool }
	// Nil is the null reference.
	Nil struct{}
	// Param is a generation-time parameter ("n", "k", an Extra name).
	Param struct{ Name string }
	// Self is the process's identity, 0..n-1. (The papers number processes
	// 1..n; the catalogue entry says where that shift matters.)
	Self struct{}
	// LocalRef reads local variable Name, or element Index of a local array.
	LocalRef struct {
		Name  string
		Index Expr
	}
	// Load reads a shared location: one atomic step.
	Load struct{ From Loc }
	// Mine is a reference to the process's own record Procs[Name][Index].
	Mine struct {
		Name  string
		Index Expr
	}
	// Bin is a binary operation.
	Bin struct {
		Op   Op
		X, Y Expr
	}
	// Not negates a boolean.
	Not struct{ X Expr }
	// Quant is ∀ (All) or ∃ over Var from From to To inclusive, skipping
	// Var = Self when SkipSelf is set. Body is evaluated element by
	// element, left to right, and evaluation stops at the first element
	// that decides: the papers' "∀ j ≠ i : P(j)" is n-1 separate reads,
	// not one atomic snapshot.
	Quant struct {
		All      bool
		Var      string
		From, To Expr
		SkipSelf bool
		Body     Expr
	}
)

func (Const) expr()     {}
func (BoolConst) expr() {}
func (Nil) expr()       {}
func (Param) expr()     {}
func (Self) expr()      {}
func (LocalRef) expr()  {}
func (Load) expr()      {}
func (Mine) expr()      {}
func (Bin) expr()       {}
func (Not) expr()       {}
func (Quant) expr()     {}

// Op is a binary operator.
type Op uint8

const (
	Add Op = iota
	Sub
	Mul
	Div // integer division (truncating)
	Mod
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	And // short-circuit, left to right
	Or  // short-circuit, left to right
)

var opNames = [...]string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}

func (o Op) String() string { return opNames[o] }

// IsCompare reports whether o is a comparison.
func (o Op) IsCompare() bool { return o >= Eq && o <= Ge }

// Statements.
type (
	// Write stores Val into a shared location.
	Write struct {
		At
		To  Loc
		Val Expr
	}
	// Set assigns a local variable, or element Index of a local array (Val
	// may contain Loads: each is a step).
	Set struct {
		At
		Dst   string
		Index Expr
		Val   Expr
	}
	// Swap is fetch-and-store: Dst := old value of To; To := Val.
	// Dst may be "" when the old value is unused.
	Swap struct {
		At
		Dst string
		To  Loc
		Val Expr
	}
	// CAS is compare-and-swap: if To = Old then To := New and Dst := true,
	// else Dst := false. Dst may be "".
	CAS struct {
		At
		Dst      string
		To       Loc
		Old, New Expr
	}
	// FetchAdd is fetch-and-add: Dst := old value of To; To := To + Delta.
	FetchAdd struct {
		At
		Dst   string
		To    Loc
		Delta Expr
	}
	// If is a conditional.
	If struct {
		At
		Cond Expr
		Then Code
		Else Code
	}
	// While loops while Cond holds. A Busy loop is a busy-wait written as a
	// loop (its iterations only re-read shared state until another process
	// writes): lowering applies the waiting policy at its back edge. A busy
	// loop may be abandoned before any iteration (Abort, see Await).
	While struct {
		At
		Cond  Expr
		Body  Code
		Busy  bool
		Abort Code
	}
	// Repeat runs Body until Until holds (checked after each iteration).
	// A Busy one may be abandoned before any iteration (Abort, see Await).
	Repeat struct {
		At
		Body  Code
		Until Expr
		Busy  bool
		Abort Code
	}
	// For runs Body with local Var from From to To inclusive, skipping Var =
	// Self when SkipSelf is set. Var is a Step local.
	For struct {
		At
		Var      string
		From, To Expr
		SkipSelf bool
		Body     Code
	}
	// Await blocks until Cond holds: the papers' "wait(P)" / "await P". Its
	// reads are repeated; the waiting policy decides how the process waits.
	//
	// Abort, when set, is the paper's abort code for this wait: a process
	// that gives up waiting (its context is cancelled) may leave before any
	// check of Cond, run Abort with its locals as they are, and end it with
	// Fail (it gave up) or Succeed (the lock came to it after all, as
	// CLH-try's abort may find). Nil: the wait cannot be abandoned. Leaving
	// between two reads of one check is leaving before it: reads change
	// nothing another process sees. See abort.go.
	Await struct {
		At
		Cond  Expr
		Abort Code
	}
	// Succeed ends an acquire: the process enters the critical section.
	Succeed struct{ At }
	// Fail ends a try-acquire without entering (abortable variants).
	Fail struct{ At }
	// Delay pauses for the duration named by parameter Param (Fischer's
	// Δ), or, when Param is "", for Dur nanoseconds (a backoff).
	Delay struct {
		At
		Param string
		Dur   Expr
	}
	// FreeRecord returns a record the process no longer references to the
	// allocator (a no-op except under the pool node policy).
	FreeRecord struct {
		At
		Ref Expr
	}
)

// Record returns the record declaration named name, or nil.
func (a *Algorithm) Record(name string) *Record {
	for i := range a.Records {
		if a.Records[i].Name == name {
			return &a.Records[i]
		}
	}
	return nil
}

// SharedVar returns the shared declaration named name, or nil.
func (a *Algorithm) SharedVar(name string) *Shared {
	for i := range a.Shared {
		if a.Shared[i].Name == name {
			return &a.Shared[i]
		}
	}
	return nil
}

// LocalVar returns the local declaration named name, or nil.
func (a *Algorithm) LocalVar(name string) *Local {
	for i := range a.Locals {
		if a.Locals[i].Name == name {
			return &a.Locals[i]
		}
	}
	return nil
}

// ProcRecs returns the per-process record declaration named name, or nil.
func (a *Algorithm) ProcRecs(name string) *ProcRecords {
	for i := range a.Procs {
		if a.Procs[i].Name == name {
			return &a.Procs[i]
		}
	}
	return nil
}

// Ops returns the algorithm's non-empty operations by name, in a fixed order.
func (a *Algorithm) Ops() []NamedCode {
	all := []NamedCode{
		{"Acquire", a.Acquire}, {"Release", a.Release}, {"TryAcquire", a.TryAcquire},
		{"RAcquire", a.RAcquire}, {"RRelease", a.RRelease}, {"TryRAcquire", a.TryRAcquire},
	}
	var out []NamedCode
	for _, c := range all {
		if c.Code != nil {
			out = append(out, c)
		}
	}
	return out
}

// NamedCode is an operation with its name.
type NamedCode struct {
	Name string
	Code Code
}
