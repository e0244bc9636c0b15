// Package golang is lockgen's Go backend: it lowers an ir.Algorithm, with
// the choices of one spec lock (node policy, padding, waiting policy, API
// shape), to a standalone Go source file using jennifer, plus the lock's
// tests and the package runtime (register types and waiting primitives).
package golang

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/nodes"
	"github.com/lockgen/lockgen/shape"
	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/wait"
)

// Config is everything the backend needs to emit one lock.
type Config struct {
	Name       string // exported type name
	Package    string // Go package name
	ImportPath string // import path of the generated package (for its tests)
	Entry      *templates.Entry
	Alg        *ir.Algorithm // the definition to lower (a mutant, for mutation runs)
	Params     ir.Params
	Mode       mode.Mode
	Preference templates.Preference
	Nodes      nodes.Policy
	Padding    int
	Wait       wait.Policy
	Spin       int
	TryLock    bool
	// Context asks for LockContext (context.go): the acquire lowered once
	// more, its abandonable waits watching a context and running the
	// paper's abort code when it is done first.
	Context bool

	// WaitControl plants a known bug in the waiting layer's lowering, for
	// the negative controls that prove the checks catch it:
	// "check-before-announce" checks an await's condition before queuing
	// the waiter and sleeps without checking again (the classic lost
	// wake-up); "wrong-key-guard" lets a write whose value is known only
	// at run time wake a queue only on a key one above the waits' own (a
	// release that skips the wake it owes, planted in the generated code
	// rather than the runtime); "stale-fused-check" gives an await's
	// first check, fused with the fetch&add before it (fuse.go), 0 for the
	// register's value; "wrong-ticket-slot" makes a write of v wake the
	// sleeper of ticket v+1's slot instead of v's; "one-kind-wake" wakes
	// a queue of exclusive waiters and others with the test made for
	// queues of one kind (waitq.wake instead of mustWake);
	// "shared-record-ids" gives every process process 0's record ids
	// (ids.go), so that processes share queue nodes. "" lowers correctly.
	WaitControl string

	SpecPath string // as recorded in the header (relative to the output directory)
	SpecHash string // sha256 of the spec file, hex
	Command  string // the command that writes the package again (Header.Command)
	SpecEcho string // the lock's canonical TOML
}

// File is one generated file.
type File struct {
	Name string
	Data []byte
}

// gen holds the state of one lowering.
type gen struct {
	c   *Config
	a   *ir.Algorithm
	api shape.Shape // the API: the algorithm's and the node policy's (templates.Entry.Shape)
	low string      // lower-camel form of the lock name, prefix of internal names

	ops         []opInfo           // the operations the lock uses, as trees
	trees       map[string][]*node // by operation name
	doorwayNode int                // the statement after which the doorway ends (-1: none)
	ctxDoorway  int                // the same statement in LockContext's acquire (-1: none)

	// The wait analysis (waits.go).
	sites        map[int]*waitSite            // by node id: awaits and busy loops
	inBusy       map[int]bool                 // nodes inside a busy loop's body
	regQ         map[string]string            // scalar registers with a queue of their own: the queue's field
	elemQ        map[string]bool              // shared arrays whose elements carry a queue
	recQ         map[string]bool              // records that carry a queue for waits on several fields
	fieldQ       map[string]map[string]string // record -> field -> its queue's field, for waits on one field
	lockQ        bool                         // the lock carries a queue
	sharedQ      map[string]bool              // queues (queueID) some wait on which may not use a soloq
	ticketQ      map[string]bool              // per queue (queueID): every wait on it is for a ticket, so it is a ticketq
	mixedQ       map[string]bool              // queues (queueID) with exclusive waits and others: a write tests with mustWake
	boundInWaits map[string]bool              // quantifier and loop variables
	waitDepth    int                          // waiters a process needs at once (nested waits)

	fusions map[int]*fusion   // by node id, both ends: awaits that first check a fetch&add's result (fuse.go)
	guards  map[string]*guard // by operation: its uncontended passage, the exchange and one comparison (guard.go)
	bitRegs map[string]bool   // registers folded into their queue's word (guard.go)
	known   map[string]string // while lowering a fused check: locations whose value a local holds
	named   paperConsts       // the paper's named constants the code names (paperconst.go)

	stateLocals []ir.Local // Passage and Process locals, in declaration order
	fieldNames  map[string]string
	recIDs      map[string]recID // records named by ids instead of pointers (ids.go); nil: by pointers

	// Per-operation context.
	op        opInfo
	loopVars  map[string]bool
	stepReads map[string]bool // locals the current operation reads
	armed     []armedLoop     // enclosing busy loops
	conts     []cont          // the current operation's continuations
	fnWaiters int             // waiters the function being lowered uses
	err       error           // a lowering error found deep in an expression or loop

	// standard: the standard lock stands in for this one (standard.go),
	// which claims none of the algorithm's properties.
	standard bool
}

func newGen(c *Config) (*gen, error) {
	if err := ir.Check(c.Alg); err != nil {
		return nil, err
	}
	g := &gen{c: c, a: c.Alg, api: c.Entry.Shape(c.Nodes), low: lowerName(c.Name), trees: map[string][]*node{}, doorwayNode: -1, ctxDoorway: -1}
	for _, l := range c.Alg.Locals {
		if l.Scope != ir.Step {
			g.stateLocals = append(g.stateLocals, l)
		}
	}
	if err := g.checkShape(); err != nil {
		return nil, err
	}
	g.nameFields()
	g.recIDs = g.numberRecords()
	next := 0
	for _, op := range c.Alg.Ops() {
		if !g.wants(op.Name) {
			continue
		}
		nodes := tree(op.Code, &next)
		g.trees[op.Name] = nodes
		g.ops = append(g.ops, opInfo{name: op.Name, nodes: nodes, try: op.Name == "TryAcquire" || op.Name == "TryRAcquire"})
		if op.Name == "Acquire" {
			walk(nodes, func(n *node) {
				if c.Alg.EndsDoorway(n.s) {
					g.doorwayNode = n.id
				}
			})
		}
	}
	if c.Context {
		g.contextOp(&next)
	}
	g.analyseWaits()
	g.deriveGuards()
	g.analyseFusions()
	for _, op := range g.ops {
		g.waitDepth = max(g.waitDepth, waitNesting(op.nodes))
	}
	return g, nil
}

// waitNesting is how many waits of code can be under way at once: a busy
// loop's waiter stays queued while its body runs, so a wait inside it
// needs a second waiter.
func waitNesting(ns []*node) int {
	d := 0
	for _, n := range ns {
		inner := max(waitNesting(n.then), waitNesting(n.els), waitNesting(n.body), waitNesting(n.abort))
		switch n.s.(type) {
		case ir.Await:
			d = max(d, 1)
		case ir.While, ir.Repeat:
			if n.busy() {
				inner++
			}
		}
		d = max(d, inner)
	}
	return d
}

// checkShape rejects definitions the chosen API cannot carry; the spec
// validation should have refused them already.
func (g *gen) checkShape() error {
	c := g.c
	k := c.Params.K
	if g.api.HolderState() && k > 1 && len(g.stateLocals) > 0 {
		return fmt.Errorf("%s: %d-exclusion through Lock()/Unlock() cannot keep per-passage state; use handles or ids", c.Name, k)
	}
	if g.api.HolderState() && k > 1 && g.a.ReleaseMisuse == nil {
		// Holders share the lock: only the algorithm's own registers can
		// tell a release without one at no extra atomic step.
		return fmt.Errorf("%s: %d-exclusion through Lock()/Unlock() needs a release that tells misuse (ir.Algorithm.ReleaseMisuse); use handles or ids", c.Name, k)
	}
	if g.api.HolderState() && c.Mode.Readers() {
		for _, op := range []ir.Code{g.a.RAcquire, g.a.RRelease, g.a.TryRAcquire} {
			if usesState(op, g.stateLocals) {
				return fmt.Errorf("%s: readers need per-passage state; use handles or ids", c.Name)
			}
		}
	}
	if g.api.ZeroNodes() {
		for _, r := range g.a.Records {
			for _, f := range r.Fields {
				if f.Init != 0 {
					return fmt.Errorf("%s: caller-owned nodes must be ready as zero values, but %s.%s starts at %d", c.Name, r.Name, f.Name, f.Init)
				}
			}
		}
		for _, l := range g.stateLocals {
			if l.Init != nil || l.InitMine != nil {
				return fmt.Errorf("%s: caller-owned nodes must be ready as zero values, but local %s has an initial value", c.Name, l.Name)
			}
		}
	}
	if c.TryLock && g.a.TryAcquire == nil {
		return fmt.Errorf("%s: algorithm %s has no try-acquire", c.Name, g.a.Name)
	}
	if c.Mode.Readers() && g.a.RAcquire == nil {
		return fmt.Errorf("%s: algorithm %s has no reader operations", c.Name, g.a.Name)
	}
	return nil
}

func usesState(code ir.Code, state []ir.Local) bool {
	names := map[string]bool{}
	for _, l := range state {
		names[l.Name] = true
	}
	used := false
	ir.WalkStmts(code, func(s ir.Stmt) {
		switch s := s.(type) {
		case ir.Set:
			used = used || names[s.Dst]
		case ir.Swap:
			used = used || names[s.Dst]
		case ir.CAS:
			used = used || names[s.Dst]
		case ir.FetchAdd:
			used = used || names[s.Dst]
		}
		for _, e := range ir.StmtExprs(s) {
			ir.WalkExpr(e, func(x ir.Expr) {
				if r, ok := x.(ir.LocalRef); ok && names[r.Name] {
					used = true
				}
			})
		}
	})
	return used
}

// reservedFields are the lock struct's own fields.
var reservedFields = map[string]bool{"held": true, "holder": true, "sleepers": true, "spinners": true, "procs": true, "pool": true, "setupDone": true, "setupOnce": true}

func (g *gen) nameFields() {
	g.fieldNames = map[string]string{}
	for _, s := range g.a.Shared {
		n := fieldIdent(s.Name)
		if reservedFields[n] {
			n = "reg" + exportName(n)
		}
		g.fieldNames[s.Name] = n
	}
}

func loopReads(cond ir.Expr, body ir.Code) []ir.Loc {
	reads := ir.Loads(cond)
	ir.WalkStmts(body, func(s ir.Stmt) {
		for _, e := range ir.StmtExprs(s) {
			reads = append(reads, ir.Loads(e)...)
		}
		if l := ir.WrittenLoc(s); l != nil {
			reads = append(reads, l) // swap/CAS/add read their location too
		}
	})
	return reads
}

// oneElement reports whether all reads are one element of a shared array,
// at an index the process computes without reading shared memory (a writer
// must be able to name the element again without an extra step): Anderson's
// VALID[my mod n]. Such an await parks on that element.
func (g *gen) oneElement(reads []ir.Loc) (ir.Var, bool) {
	var first ir.Var
	for i, l := range reads {
		v, ok := l.(ir.Var)
		if !ok || v.Index == nil || ir.HasLoad(v.Index) || mentionsAny(v.Index, g.boundInWaits) {
			return ir.Var{}, false
		}
		if i == 0 {
			first = v
		} else if v.Name != first.Name || ir.FormatExpr(v.Index) != ir.FormatExpr(first.Index) {
			return ir.Var{}, false
		}
	}
	return first, len(reads) > 0
}

// mentionsAny reports whether e reads one of the locals in names.
func mentionsAny(e ir.Expr, names map[string]bool) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, ok := x.(ir.LocalRef); ok && names[r.Name] {
			found = true
		}
	})
	return found
}

// elemStruct reports whether shared array name's elements are structs
// (padded, or carrying a queue) rather than bare registers.
func (g *gen) elemStruct(name string) bool { return g.c.Padding > 0 || g.elemQ[name] }

// oneRecord reports whether all reads are fields reached through the same
// reference expression, returning it.
func (g *gen) oneRecord(reads []ir.Loc) (ir.Expr, bool) {
	var ref ir.Expr
	for _, l := range reads {
		f, ok := l.(ir.Fld)
		if !ok {
			return nil, false
		}
		if ref == nil {
			ref = f.Ref
		} else if ir.FormatExpr(ref) != ir.FormatExpr(f.Ref) {
			return nil, false
		}
	}
	return ref, ref != nil
}

// props are the entry's properties for the configured mode and preference.
func (g *gen) props() templates.Properties {
	if g.standard {
		return templates.Properties{}
	}
	return g.c.Entry.PropsFor(templates.Options{Mode: g.c.Mode, Preference: g.c.Preference})
}

// Names.

func (g *gen) recType(rec string) string { return g.low + exportName(goIdent(rec)) }
func (g *gen) stateType() string         { return g.low + "State" }
func (g *gen) procType() string          { return g.low + "Proc" }
func (g *gen) handleType() string        { return g.c.Name + "Handle" }
func (g *gen) nodeType() string          { return g.c.Name + "Node" }
func (g *gen) procsConst() string        { return g.c.Name + "Procs" }
func (g *gen) kConst() string            { return g.c.Name + "K" }

// lowerName lower-cases the leading capital run: MCS -> mcs, QueueLock ->
// queueLock, TTASLock -> ttasLock, DT1 -> dt1.
func lowerName(s string) string {
	r := []rune(s)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n-- // keep the capital that starts the next word
	}
	for j := 0; j < n; j++ {
		r[j] = unicode.ToLower(r[j])
	}
	return string(r)
}

// goIdent turns a paper name (FLAG, q_p, AFTERYOU) into a Go identifier.
func goIdent(s string) string {
	var b strings.Builder
	upper := false
	for i, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.':
			upper = i > 0
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if upper {
				b.WriteRune(unicode.ToUpper(r))
				upper = false
			} else {
				b.WriteRune(r)
			}
		}
	}
	id := b.String()
	if id == strings.ToUpper(id) {
		id = strings.ToLower(id)
	}
	id = lowerName(id)
	if isGoReserved(id) {
		id += "_"
	}
	return id
}

// fieldIdent is goIdent for struct fields, which cannot clash with the
// generated methods' local names (L stays l, not l_).
func fieldIdent(s string) string {
	id := goIdent(s)
	if t := strings.TrimSuffix(id, "_"); t != id && !goKeywords[t] {
		return t
	}
	return id
}

func exportName(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true,
	"var": true,
}

// goReserved are the names a generated local must not take: keywords,
// the names the generated methods use for themselves, and predeclared
// identifiers they call.
var goReserved = map[string]bool{
	"l": true, "st": true, "id": true, "spins": true, "tok": true, "h": true, "nd": true,
	"len": true, "cap": true, "new": true, "nil": true, "true": true, "false": true,
	"max": true, "min": true, "delay": true, "prevVal": true, "newVal": true, "pause": true, "yield": true, "doorway": true,
	"casOK": true, "delta": true, "b2i": true, "sleepers": true, "waiters": true, "getWaiter": true, "putWaiter": true, "readyWaiters": true, "soloq": true, "waitq": true, "ticketq": true,
}

// generatedLocal matches the locals the lowering numbers by nesting depth.
var generatedLocal = regexp.MustCompile(`^(w|armed|first)[0-9]+$`)

func isGoReserved(s string) bool {
	return goKeywords[s] || goReserved[s] || generatedLocal.MatchString(s)
}

// Register types and sizes.

func (g *gen) goType(t ir.Type) jen.Code {
	switch t.Kind {
	case ir.Int:
		return jen.Int64()
	case ir.Bool:
		return jen.Bool()
	}
	if g.recIDs != nil {
		return jen.Int64()
	}
	return jen.Op("*").Id(g.recType(t.Rec))
}

func (g *gen) regType(t ir.Type) jen.Code {
	switch t.Kind {
	case ir.Int:
		return jen.Id("intReg")
	case ir.Bool:
		return jen.Id("boolReg")
	}
	if g.recIDs != nil {
		return jen.Id("intReg")
	}
	return jen.Id("refReg").Types(jen.Id(g.recType(t.Rec)))
}

// regSize is a register's size in the normal build (the padding is computed
// for it; the lockgen_check build is larger and only slower).
func regSize(t ir.Type) int {
	if t.Kind == ir.Bool {
		return 4
	}
	return 8
}

// waitqSize, soloqSize and ticketqSize are the sizes of lockrt's waitq
// (a word, two pointers and a count), soloq (a pointer) and ticketq
// (ticketSlots, 64, soloqs).
const (
	waitqSize   = 32
	soloqSize   = 8
	ticketqSize = 64 * soloqSize
)

func padBytes(pad, used int) int {
	if pad == 0 {
		return 0
	}
	rem := used % pad
	if rem == 0 {
		return 0
	}
	return pad - rem
}

// render formats a jennifer file.
func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// FileBase is the base of the files generated for a lock (lower-cased name).
func FileBase(name string) string { return strings.ToLower(name) }

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// aName is a name with its indefinite article, by its first letter: "an
// Anderson", "a Ticket".
func aName(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
