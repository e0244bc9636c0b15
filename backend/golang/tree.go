package golang

import "github.com/lockgen/lockgen/ir"

// node is a statement of an operation with its nested code as nodes,
// numbered in pre-order. The lowering duplicates code (an operation's fast
// path inline, the rest in continuations), so statements need an identity
// that survives: the wait analysis is keyed by it, and the doorway ends
// after one particular statement.
type node struct {
	s               ir.Stmt
	id              int
	then, els, body []*node
	abort           []*node // a wait's abort code (only in LockContext's tree)
}

// tree numbers code's statements from *next on.
func tree(code ir.Code, next *int) []*node { return treeOf(code, next, false) }

// abortTree is tree with the waits' abort code (LockContext's acquire).
func abortTree(code ir.Code, next *int) []*node { return treeOf(code, next, true) }

func treeOf(code ir.Code, next *int, aborts bool) []*node {
	out := make([]*node, 0, len(code))
	for _, s := range code {
		n := &node{s: s, id: *next}
		*next++
		switch s := s.(type) {
		case ir.If:
			n.then = treeOf(s.Then, next, aborts)
			n.els = treeOf(s.Else, next, aborts)
		case ir.While:
			n.body = treeOf(s.Body, next, aborts)
		case ir.Repeat:
			n.body = treeOf(s.Body, next, aborts)
		case ir.For:
			n.body = treeOf(s.Body, next, aborts)
		}
		if abort, ok := ir.AbortOf(s); ok && aborts {
			n.abort = treeOf(abort, next, aborts)
		}
		out = append(out, n)
	}
	return out
}

// walk calls fn on every node of ns, parents first.
func walk(ns []*node, fn func(*node)) {
	for _, n := range ns {
		fn(n)
		walk(n.then, fn)
		walk(n.els, fn)
		walk(n.body, fn)
		walk(n.abort, fn)
	}
}

// busy reports whether n is a busy-wait loop.
func (n *node) busy() bool {
	switch s := n.s.(type) {
	case ir.While:
		return s.Busy
	case ir.Repeat:
		return s.Busy
	}
	return false
}

// loop reports whether n is a While or Repeat loop.
func (n *node) loop() bool {
	switch n.s.(type) {
	case ir.While, ir.Repeat:
		return true
	}
	return false
}
