package golang

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// The wait analysis decides, for the park policies, where each wait sleeps
// and which writes wake it (the runtime side is lockrt/wait.go):
//
//   - a wait whose reads are all fields of one record (a queue node) sleeps
//     on that record's queue, one that reads a single element of a shared
//     array (at an index computed without reading shared memory) on that
//     element's, one that reads a single scalar register on that register's;
//     any other wait on the lock's. Local spinning stays local: a release
//     wakes only the process it signals;
//   - a wait whose reads are all one location and whose end is that
//     location equal to one value (await NOW = my; a test-and-set loop
//     ending when its swap returns FREE) is keyed by that value;
//   - a wait on a queue of its location's own (a register's, an element's,
//     a field's) whose next step is a swap, CAS or fetch&add on what it
//     read is exclusive: woken, it competes to consume what the write made
//     available, so a write wakes one such waiter;
//   - a register whose every wait is for a ticket (keyed by a value only
//     fetch&add results are assigned to, neither exclusive nor mod
//     anything) gets a ticketq: the waiter for ticket t sleeps alone on
//     slot t mod 64, and a write of v wakes slot v, taking no lock;
//   - a write wakes a queue only if the value it writes can end one of the
//     queue's waits: statically, where the value and the condition are
//     constants (a test-and-set swapping BUSY in wakes nobody, nor does an
//     MCS node's next reset to ⊥), by key at run time otherwise.

// domKind is what a wait's reads are confined to.
type domKind uint8

const (
	domRecord domKind = iota // several fields of one record
	domField                 // one field of one record
	domElem                  // one element of a shared array
	domReg                   // one scalar shared register
	domLock                  // anything else: the lock's queue
)

// waitSite is one wait: an await, or a busy-wait loop.
type waitSite struct {
	kind  domKind
	name  string  // domReg: the register; domElem: the array; domRecord, domField: the record type
	field string  // domField: the field
	ref   ir.Expr // domRecord, domField: the reference read through
	index ir.Expr // domElem: the element
	keys  map[string]bool
	one   ir.Loc  // the one location every read reads, or nil
	cond  ir.Expr // with one: the condition, on one, that ends the wait (nil if unknown)
	key   ir.Expr // keyed: the one value of one (mod mod, when set) that ends the wait
	mod   ir.Expr // keyed by one mod mod: a constant modulus, nil for one itself
	// unique: the key is a value no other waiter can hold, a local set
	// only by fetch&add results (a ticket)
	unique bool
	excl   bool
}

// solo reports whether s may wait on a soloq: a wait on a record or an
// array element (a queue node's flag, an array lock's slot, which one
// process at a time waits on), neither exclusive nor keyed by a unique
// ticket. A queue is a soloq when every wait on it may be.
func (s *waitSite) solo() bool {
	switch s.kind {
	case domRecord, domField, domElem:
		return !s.excl && !(s.keyed() && s.unique)
	}
	return false
}

// queueID names the queue s sleeps on, as the declarations know it.
func (s *waitSite) queueID() string {
	switch s.kind {
	case domRecord:
		return "rec:" + s.name
	case domField:
		return "field:" + s.name + "." + s.field
	case domElem:
		return "elem:" + s.name
	case domReg:
		return "reg:" + s.name
	}
	return "lock"
}

// ticket reports whether s waits for a ticket: a value of its register
// that no other waiter waits for (await NOW = my), and nothing else.
func (s *waitSite) ticket() bool {
	return s.kind == domReg && s.keyed() && s.unique && s.mod == nil && !s.excl
}

// queueType is the runtime type of the queue named id (a queueID) and its
// size.
func (g *gen) queueType(id string) (string, int) {
	if g.ticketQ[id] {
		return "ticketq", ticketqSize
	}
	if g.sharedQ[id] {
		return "waitq", waitqSize
	}
	return "soloq", soloqSize
}

// keyed reports whether only a write of s.key can end s.
func (s *waitSite) keyed() bool { return s.key != nil }

// analyseWaits finds every wait of the operations the lock uses.
func (g *gen) analyseWaits() {
	g.sites = map[int]*waitSite{}
	g.inBusy = map[int]bool{}
	g.regQ = map[string]string{}
	g.elemQ, g.recQ = map[string]bool{}, map[string]bool{}
	g.boundInWaits = map[string]bool{}
	for _, op := range g.ops {
		walk(op.nodes, func(n *node) {
			if f, ok := n.s.(ir.For); ok {
				g.boundInWaits[f.Var] = true
			}
			for _, e := range ir.StmtExprs(n.s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					if q, ok := x.(ir.Quant); ok {
						g.boundInWaits[q.Var] = true
					}
				})
			}
			if n.busy() {
				walk(n.body, func(m *node) { g.inBusy[m.id] = true })
			}
		})
	}
	for _, op := range g.ops {
		g.analyseList(op.nodes)
	}
	if !g.c.Wait.Parks() {
		return
	}
	taken := map[string]bool{}
	for _, f := range g.fieldNames {
		taken[f] = true
	}
	g.fieldQ = map[string]map[string]string{}
	g.sharedQ = map[string]bool{}
	g.ticketQ = map[string]bool{}
	g.mixedQ = map[string]bool{}
	firstExcl := map[string]bool{} // queueID -> whether its first wait is exclusive
	for _, s := range g.sites {
		id := s.queueID()
		if excl, seen := firstExcl[id]; !seen {
			firstExcl[id] = s.excl
		} else if excl != s.excl {
			g.mixedQ[id] = true
		}
		if !s.solo() {
			g.sharedQ[id] = true
		}
		if isTicket, seen := g.ticketQ[id]; isTicket || !seen {
			g.ticketQ[id] = s.ticket() // a ticketq only if every wait on it is for a ticket
		}
		switch s.kind {
		case domReg:
			if _, ok := g.regQ[s.name]; !ok {
				name := g.fieldNames[s.name] + "Sleepers"
				for taken[name] {
					name += "_"
				}
				taken[name] = true
				g.regQ[s.name] = name
			}
		case domElem:
			g.elemQ[s.name] = true
		case domRecord:
			g.recQ[s.name] = true
		case domField:
			if g.fieldQ[s.name] == nil {
				g.fieldQ[s.name] = map[string]string{}
			}
			g.fieldQ[s.name][s.field] = ""
		case domLock:
			g.lockQ = true
		}
	}
	for rec, fields := range g.fieldQ {
		used := map[string]bool{"sleepers": true}
		for _, f := range g.a.Record(rec).Fields {
			used[goIdent(f.Name)] = true
		}
		names := make(map[string]bool, len(fields))
		for f := range fields {
			names[f] = true
		}
		for _, f := range sortedKeys(names) {
			name := goIdent(f) + "Sleepers"
			for used[name] {
				name += "_"
			}
			used[name] = true
			fields[f] = name
		}
	}
}

// analyseList records the waits of one statement list (and, recursively,
// of nested lists); a wait's next sibling decides whether it is exclusive.
func (g *gen) analyseList(ns []*node) {
	for i, n := range ns {
		switch s := n.s.(type) {
		case ir.Await:
			site := g.siteOf(ir.Loads(s.Cond))
			if site.one != nil {
				site.cond = s.Cond
				site.key, site.mod = g.keyOf(s.Cond, site.one)
			}
			site.excl = g.consumes(ns[i+1:], site)
			site.unique = site.key != nil && site.mod == nil && g.ticketLocal(site.key)
			g.sites[n.id] = site
		case ir.While, ir.Repeat:
			if n.busy() {
				var exit ir.Expr
				if w, ok := s.(ir.While); ok {
					exit = ir.Not{X: w.Cond}
					g.sites[n.id] = g.siteOf(loopReads(w.Cond, w.Body))
				} else {
					r := s.(ir.Repeat)
					exit = r.Until
					g.sites[n.id] = g.siteOf(loopReads(r.Until, r.Body))
				}
				site := g.sites[n.id]
				site.excl = g.consumes(n.body, site)
				if site.one != nil {
					site.cond, site.key = g.loopKey(n.body, exit, site.one)
				}
			}
		}
		g.analyseList(n.then)
		g.analyseList(n.els)
		g.analyseList(n.body)
		g.analyseList(n.abort)
	}
}

// siteOf classifies a wait by what it reads.
func (g *gen) siteOf(reads []ir.Loc) *waitSite {
	s := &waitSite{kind: domLock, keys: map[string]bool{}}
	for _, l := range reads {
		s.keys[g.a.LocKey(l)] = true
	}
	if one, ok := sameLoc(reads); ok {
		s.one = one
	}
	// One location gets a queue of its own, so that a keyed wake compares
	// values of that location only.
	if f, ok := s.one.(ir.Fld); ok {
		s.kind, s.ref, s.name, s.field = domField, f.Ref, g.a.RefRecord(f.Ref), f.Name
		return s
	}
	if v, ok := g.oneElement(reads); ok {
		s.kind, s.index, s.name = domElem, v.Index, v.Name
		return s
	}
	if v, ok := s.one.(ir.Var); ok && v.Index == nil {
		s.kind, s.name = domReg, v.Name
		return s
	}
	if ref, ok := g.oneRecord(reads); ok {
		s.kind, s.ref, s.name = domRecord, ref, g.a.RefRecord(ref)
	}
	return s
}

// sameLoc reports whether every read is of the same location.
func sameLoc(reads []ir.Loc) (ir.Loc, bool) {
	if len(reads) == 0 {
		return nil, false
	}
	first := locString(reads[0])
	for _, l := range reads[1:] {
		if locString(l) != first {
			return nil, false
		}
	}
	return reads[0], true
}

func locString(l ir.Loc) string {
	switch l := l.(type) {
	case ir.Var:
		if l.Index == nil {
			return l.Name
		}
		return l.Name + "[" + ir.FormatExpr(l.Index) + "]"
	case ir.Fld:
		return ir.FormatExpr(l.Ref) + "." + l.Name
	}
	return fmt.Sprintf("%v", l)
}

// keyOf returns the one value of loc that makes cond hold, if cond is
// loc = value (value read from no register) or a boolean loc itself; or
// the one value of loc mod M, if cond is (loc mod M) = value with M a
// constant (a reader/writer lock's readers wait for one field of a word).
func (g *gen) keyOf(cond ir.Expr, loc ir.Loc) (key, mod ir.Expr) {
	isLoc := func(e ir.Expr) bool {
		l, ok := e.(ir.Load)
		return ok && locString(l.From) == locString(loc)
	}
	isMod := func(e ir.Expr) (ir.Expr, bool) {
		b, ok := e.(ir.Bin)
		if !ok || b.Op != ir.Mod || !isLoc(b.X) {
			return nil, false
		}
		if m, ok := g.constValue(b.Y, nil, 0); !ok || m <= 0 {
			return nil, false
		}
		return b.Y, true
	}
	switch c := cond.(type) {
	case ir.Bin:
		if c.Op != ir.Eq {
			return nil, nil
		}
		switch {
		case isLoc(c.X) && !ir.HasLoad(c.Y):
			return keyValue(c.Y), nil
		case isLoc(c.Y) && !ir.HasLoad(c.X):
			return keyValue(c.X), nil
		}
		if m, ok := isMod(c.X); ok && !ir.HasLoad(c.Y) && keyValue(c.Y) != nil {
			return c.Y, m
		}
		if m, ok := isMod(c.Y); ok && !ir.HasLoad(c.X) && keyValue(c.X) != nil {
			return c.X, m
		}
	case ir.Load:
		if isLoc(c) {
			return ir.BoolConst{V: true}, nil
		}
	case ir.Not:
		if isLoc(c.X) {
			return ir.BoolConst{V: false}, nil
		}
	}
	return nil, nil
}

// keyValue accepts the key expressions the runtime can compare: integers
// and booleans (references are never keyed).
func keyValue(e ir.Expr) ir.Expr {
	if _, ok := e.(ir.Nil); ok {
		return nil
	}
	if _, ok := e.(ir.Mine); ok {
		return nil
	}
	return e
}

// loopKey derives a busy loop's end from its one access: a loop that
// swaps v into loc until the old value is c ends when loc = c; one that
// CASes loc from c until the CAS succeeds, likewise.
func (g *gen) loopKey(body []*node, exit ir.Expr, loc ir.Loc) (cond, key ir.Expr) {
	var access *node
	for _, n := range body {
		if ir.WrittenLoc(n.s) == nil && !stmtLoads(n.s) {
			continue
		}
		if access != nil {
			return nil, nil
		}
		access = n
	}
	if access == nil || len(access.then)+len(access.els)+len(access.body) > 0 {
		return nil, nil
	}
	eq := func(v ir.Expr) (ir.Expr, ir.Expr) {
		if k := keyValue(v); k != nil && !ir.HasLoad(v) && !mentionsAny(v, g.assignedIn(body)) {
			return ir.Bin{Op: ir.Eq, X: ir.Load{From: loc}, Y: v}, k
		}
		return nil, nil
	}
	switch s := access.s.(type) {
	case ir.Swap:
		if x, ok := exit.(ir.Bin); ok && x.Op == ir.Eq {
			if r, ok := x.X.(ir.LocalRef); ok && r.Name == s.Dst && r.Index == nil {
				return eq(x.Y)
			}
		}
	case ir.CAS:
		if r, ok := exit.(ir.LocalRef); ok && r.Name == s.Dst && r.Index == nil {
			return eq(s.Old)
		}
	}
	return nil, nil
}

// ticketLocal reports whether e is a local that only fetch&add results
// with a non-zero constant increment are assigned to: no two processes
// ever hold the same value.
func (g *gen) ticketLocal(e ir.Expr) bool {
	r, ok := e.(ir.LocalRef)
	if !ok || r.Index != nil {
		return false
	}
	if l := g.a.LocalVar(r.Name); l == nil || l.Scope != ir.Step {
		return false
	}
	only := true
	for _, op := range g.ops {
		walk(op.nodes, func(n *node) {
			if assignedLocal(n.s) != r.Name && !setsIndexed(n.s, r.Name) {
				return
			}
			fa, ok := n.s.(ir.FetchAdd)
			if !ok {
				only = false
				return
			}
			if d, ok := g.constValue(fa.Delta, nil, 0); !ok || d == 0 {
				only = false
			}
		})
	}
	return only
}

func setsIndexed(s ir.Stmt, name string) bool {
	set, ok := s.(ir.Set)
	return ok && set.Dst == name
}

// assignedIn returns the locals assigned in code.
func (g *gen) assignedIn(code []*node) map[string]bool {
	out := map[string]bool{}
	walk(code, func(n *node) {
		switch s := n.s.(type) {
		case ir.Set:
			out[s.Dst] = true
		case ir.Swap:
			out[s.Dst] = true
		case ir.CAS:
			out[s.Dst] = true
		case ir.FetchAdd:
			out[s.Dst] = true
		}
	})
	return out
}

func stmtLoads(s ir.Stmt) bool {
	for _, e := range ir.StmtExprs(s) {
		if ir.HasLoad(e) {
			return true
		}
	}
	return false
}

// consumes reports whether the first step of next (skipping local work)
// is a swap, CAS or fetch&add on something the wait read: woken, the
// waiter competes to consume what the write made available.
func (g *gen) consumes(next []*node, s *waitSite) bool {
	// A write wakes one exclusive waiter: right only when every waiter on
	// the queue waits for the location written, that is when the queue is
	// the location's own. On a shared queue (the lock's, a record's) the
	// one woken may wait for another location, and the wake is lost
	// (anonymous at 64 goroutines deadlocked so in make bench: every
	// waiter at line 6 parked on the lock's queue).
	switch s.kind {
	case domLock, domRecord:
		return false
	}
	for _, n := range next {
		if ir.WrittenLoc(n.s) == nil && !stmtLoads(n.s) && len(n.then)+len(n.els)+len(n.body) == 0 {
			continue
		}
		switch st := n.s.(type) {
		case ir.Swap:
			return s.keys[g.a.LocKey(st.To)]
		case ir.CAS:
			return s.keys[g.a.LocKey(st.To)]
		case ir.FetchAdd:
			return s.keys[g.a.LocKey(st.To)]
		}
		return false
	}
	return false
}

// wakeTarget is a queue a write must wake, with whether any of its waits
// that the write may end is keyed, and, when each of those waits is keyed
// by a constant (a writer's await L = 0, a reader's L mod 2 = 0), those
// keys: the write then wakes only if the value it wrote is one of them, a
// test on a local instead of a load of the queue's word. That is the test
// the queue's wake would make of each sleeper, on the writes whose values
// are known only at run time (a fetch&add's).
type wakeTarget struct {
	q      *jen.Statement
	keyed  bool
	guards []keyGuard // nil: wake whatever the value
	ticket bool       // q is a ticketq: wake the slot of the value written
	mixed  bool       // q holds exclusive waits and others: test with mustWake
}

// keyGuard is one constant key a wait ends on: the value itself, or the
// value mod mod when mod is not 0.
type keyGuard struct{ key, mod int64 }

// wakeTargets returns the queues a write of val (nil: not known before run
// time) to loc must wake; for a fetch&add, val is nil and delta its
// increment.
func (g *gen) wakeTargets(loc ir.Loc, val, delta ir.Expr) []wakeTarget {
	if !g.c.Wait.Parks() {
		return nil
	}
	key := g.a.LocKey(loc)
	type acc struct {
		q         *jen.Statement
		keyed     bool
		guards    []keyGuard
		unguarded bool
		mixed     bool
	}
	var order []string
	found := map[string]*acc{}
	add := func(id string, q func() *jen.Statement, s *waitSite) {
		a := found[id]
		if a == nil {
			a = &acc{q: q(), mixed: g.mixedQ[s.queueID()]}
			found[id] = a
			order = append(order, id)
		}
		a.keyed = a.keyed || s.keyed()
		if kg, ok := g.constKey(s); ok && !a.unguarded {
			if !slices.Contains(a.guards, kg) {
				a.guards = append(a.guards, kg)
			}
		} else {
			a.unguarded, a.guards = true, nil
		}
	}
	for _, id := range sortedSiteIDs(g.sites) {
		s := g.sites[id]
		if !s.keys[key] || !g.mayEnable(s, val) || delta != nil && !g.mayChange(s, delta) {
			continue
		}
		switch s.kind {
		case domReg:
			add("reg:"+s.name, func() *jen.Statement { return jen.Id("l").Dot(g.regQ[s.name]) }, s)
		case domElem:
			v := loc.(ir.Var)
			if ir.HasLoad(v.Index) {
				panic("golang: a write naming its element through a load to an array awaited element by element")
			}
			add("elem:"+s.name, func() *jen.Statement {
				return jen.Id("l").Dot(g.fieldNames[v.Name]).Index(g.expr(v.Index, "")).Dot("sleepers")
			}, s)
		case domRecord:
			f := loc.(ir.Fld)
			add("rec:"+ir.FormatExpr(f.Ref), func() *jen.Statement { return g.deref(g.expr(f.Ref, ""), s.name).Dot("sleepers") }, s)
		case domField:
			f := loc.(ir.Fld)
			add("field:"+ir.FormatExpr(f.Ref)+"."+f.Name, func() *jen.Statement {
				return g.deref(g.expr(f.Ref, ""), s.name).Dot(g.fieldQ[s.name][s.field])
			}, s)
		case domLock:
			add("lock", func() *jen.Statement { return jen.Id("l").Dot("sleepers") }, s)
		}
	}
	var out []wakeTarget
	for _, id := range order {
		a := found[id]
		out = append(out, wakeTarget{q: a.q, keyed: a.keyed, guards: impliedDropped(a.guards), ticket: g.ticketQ[id], mixed: a.mixed})
	}
	return out
}

// impliedDropped drops each key that another key of the list already
// admits (a value equal to 0 is also 0 mod 2).
func impliedDropped(gs []keyGuard) []keyGuard {
	var out []keyGuard
	for _, a := range gs {
		implied := a.mod == 0 && slices.ContainsFunc(gs, func(b keyGuard) bool { return b.mod != 0 && a.key%b.mod == b.key })
		if !implied {
			out = append(out, a)
		}
	}
	return out
}

// constKey returns the constant key of a wait keyed by an integer
// register (mod a constant, or the value itself).
func (g *gen) constKey(s *waitSite) (keyGuard, bool) {
	if !s.keyed() || g.locType(s.one).Kind != ir.Int {
		return keyGuard{}, false
	}
	k, ok := g.constValue(s.key, nil, 0)
	if !ok {
		return keyGuard{}, false
	}
	if s.mod == nil {
		return keyGuard{key: k}, true
	}
	m, ok := g.constValue(s.mod, nil, 0)
	return keyGuard{key: k, mod: m}, ok && m != 0
}

// mayEnable reports whether writing val (nil: unknown) to the location a
// site reads can end the site's wait.
func (g *gen) mayEnable(s *waitSite, val ir.Expr) bool {
	if s.one == nil || s.cond == nil || val == nil {
		return true
	}
	v, ok := g.constValue(val, nil, 0)
	if !ok {
		return true
	}
	r, ok := g.constValue(s.cond, s.one, v)
	return !ok || r != 0
}

// mayChange reports whether adding delta to the location a site reads can
// change whether the site's wait ends: not when the site is keyed by the
// location mod M and delta is a constant multiple of M (a reader's
// increment leaves the writers' field of the word as it was).
//
// A decrement under "await S > 0" cannot end the wait, yet keeps its wake
// test: it is how an exclusive waiter's consuming step passes a wake on.
// While one is awake, writes skip the wake (waitq.wake), trusting it to
// see them; if they made two places, it takes one, and only its own
// decrement's wake test rouses a sleeper for the other. Without it,
// verify.Explore finds a 2-exclusion replace-add with a place free, a
// waiter asleep for good and the holder of the other place crashed.
func (g *gen) mayChange(s *waitSite, delta ir.Expr) bool {
	if !s.keyed() || s.mod == nil {
		return true
	}
	d, ok1 := g.constValue(delta, nil, 0)
	m, ok2 := g.constValue(s.mod, nil, 0)
	return !ok1 || !ok2 || d%m != 0
}

// constValue evaluates e when it is a constant, reading loc as v (pass nil
// for no location). Booleans are 0 and 1, ⊥ is 0.
func (g *gen) constValue(e ir.Expr, loc ir.Loc, v int64) (int64, bool) {
	switch e := e.(type) {
	case ir.Const:
		return e.V, true
	case ir.BoolConst:
		return ir.BoolValue(e.V), true
	case ir.Nil:
		return 0, true
	case ir.Param:
		return g.c.Params.Get(e.Name), true
	case ir.Load:
		if loc != nil && locString(e.From) == locString(loc) {
			return v, true
		}
	case ir.Not:
		if x, ok := g.constValue(e.X, loc, v); ok {
			return 1 - x, true
		}
	case ir.Bin:
		x, ok1 := g.constValue(e.X, loc, v)
		y, ok2 := g.constValue(e.Y, loc, v)
		switch {
		case e.Op == ir.And && ok1 && x == 0, e.Op == ir.And && ok2 && y == 0:
			return 0, true
		case e.Op == ir.Or && ok1 && x != 0, e.Op == ir.Or && ok2 && y != 0:
			return 1, true
		case !ok1 || !ok2:
			return 0, false
		}
		return e.Op.Apply(x, y)
	}
	return 0, false
}

func sortedSiteIDs(m map[int]*waitSite) []int { return slices.Sorted(maps.Keys(m)) }

// waitKind is the runtime constant of the lock's policy (lockrt/wait.go):
// wait, then the policy's name in camel case (waitSpinThenPark).
func (g *gen) waitKind() string {
	kind := "wait"
	for _, word := range strings.Split(string(g.c.Wait), "-") {
		kind += exportName(word)
	}
	return kind
}

// queueOf is the queue a site sleeps on (nil under the spin and yield
// policies).
func (g *gen) queueOf(s *waitSite) jen.Code {
	if !g.c.Wait.Parks() {
		return jen.Nil()
	}
	switch s.kind {
	case domReg:
		return jen.Op("&").Id("l").Dot(g.regQ[s.name])
	case domElem:
		return jen.Op("&").Id("l").Dot(g.fieldNames[s.name]).Index(g.expr(s.index, "")).Dot("sleepers")
	case domRecord:
		return jen.Op("&").Add(g.deref(g.expr(s.ref, ""), s.name)).Dot("sleepers")
	case domField:
		return jen.Op("&").Add(g.deref(g.expr(s.ref, ""), s.name)).Dot(g.fieldQ[s.name][s.field])
	}
	return jen.Op("&").Id("l").Dot("sleepers")
}

// spinnersRef is the lock's spinner count for the adaptive policy.
func (g *gen) spinnersRef() jen.Code {
	if !g.c.Wait.CountsSpinners() {
		return jen.Nil()
	}
	return jen.Op("&").Id("l").Dot("spinners")
}

// beginCall starts a wait at site s on waiter w.
func (g *gen) beginCall(w *jen.Statement, lbl string, s *waitSite) jen.Code {
	var key jen.Code = jen.Lit(0)
	if s.keyed() && g.c.Wait.Parks() {
		key = g.keyExpr(s.key, g.locType(s.one), lbl)
	}
	var flags []jen.Code
	if g.c.Wait.Parks() {
		if s.keyed() {
			flags = append(flags, jen.Id("waitKeyed"))
		}
		if s.keyed() && s.unique {
			flags = append(flags, jen.Id("waitUniqueKey"))
		}
		if s.excl {
			flags = append(flags, jen.Id("waitExclusive"))
		}
	}
	f := jen.Code(jen.Lit(0))
	for i, fl := range flags {
		if i == 0 {
			f = fl
		} else {
			f = jen.Add(f).Op("|").Add(fl)
		}
	}
	var mod jen.Code = jen.Lit(0)
	if s.keyed() && s.mod != nil && g.c.Wait.Parks() {
		mod = g.expr(s.mod, lbl)
	}
	if g.c.Wait.Parks() && g.ticketQ[s.queueID()] {
		// Its own slot of the register's ticket queue, a solo queue.
		slot := jen.Id("l").Dot(g.regQ[s.name]).Dot("slot").Call(key)
		return w.Clone().Dot("beginSolo").Call(jen.Lit(lbl), slot, g.spinnersRef(), jen.Id(g.waitKind()), jen.Lit(g.c.Spin))
	}
	if g.c.Wait.Parks() && !g.sharedQ[s.queueID()] {
		return w.Clone().Dot("beginSolo").Call(jen.Lit(lbl), g.queueOf(s), g.spinnersRef(), jen.Id(g.waitKind()), jen.Lit(g.c.Spin))
	}
	return w.Clone().Dot("begin").Call(jen.Lit(lbl), g.queueOf(s), g.spinnersRef(), jen.Id(g.waitKind()),
		jen.Lit(g.c.Spin), key, mod, f)
}

// keyExpr is a key, or a written value, of a register of type t as the
// runtime's int64 (references are never keyed: 0).
func (g *gen) keyExpr(e ir.Expr, t ir.Type, lbl string) jen.Code {
	switch t.Kind {
	case ir.Bool:
		return jen.Id("b2i").Call(g.expr(e, lbl))
	case ir.Ref:
		return jen.Lit(0)
	}
	return g.expr(e, lbl)
}
