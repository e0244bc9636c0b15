package perf

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Inlining is the compiler's verdict on one method that a lock's benchmark
// loop calls (Lock, Unlock, RLock, RUnlock), read from its report
// (-gcflags=-m=2) when the benchmark is built. A call that does not inline
// costs a function call per passage that sync.Mutex's Lock and Unlock,
// which do inline, do not pay; the report says which locks pay it and why.
type Inlining struct {
	Type   string // the receiver type: the lock, or its handle type
	Method string
	// Cost is the compiler's measure of the method's body (0 when it gives
	// none); Budget is the limit it compared it with, when it printed one
	// (80 without a profile: github.com/golang/go, cmd/compile/internal/inline).
	Cost, Budget int
	Inlinable    bool   // the compiler may inline the method
	Reason       string // why not, when not for its cost (e.g. "unhandled op DEFER")
	Inlined      bool   // a call in the benchmark's loop was inlined
}

var (
	inlineDecl = regexp.MustCompile(`: (can|cannot) inline \(\*(\w+)\)\.(Lock|Unlock|RLock|RUnlock)(?: with cost (\d+)|: (.*))`)
	inlineCall = regexp.MustCompile(`_test\.go:\d+:\d+: inlining call to \(\*(\w+)\)\.(Lock|Unlock|RLock|RUnlock)$`)
	tooComplex = regexp.MustCompile(`^function too complex: cost (\d+) exceeds budget (\d+)$`)
)

// parseInlining reads the compiler's inlining report of the benchmark's
// package: the verdict on every Lock, Unlock, RLock and RUnlock method
// declared there, and whether a call to it in a test file (the benchmark's
// driver) was inlined. Sorted by type, then method.
func parseInlining(out string) []Inlining {
	byKey := map[string]*Inlining{}
	get := func(typ, method string) *Inlining {
		k := typ + "." + method
		if byKey[k] == nil {
			byKey[k] = &Inlining{Type: typ, Method: method}
		}
		return byKey[k]
	}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if m := inlineCall.FindStringSubmatch(line); m != nil {
			get(m[1], m[2]).Inlined = true
			continue
		}
		m := inlineDecl.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		in := get(m[2], m[3])
		if m[1] == "can" {
			in.Inlinable = true
			in.Cost, _ = strconv.Atoi(m[4])
			continue
		}
		if c := tooComplex.FindStringSubmatch(m[5]); c != nil {
			in.Cost, _ = strconv.Atoi(c[1])
			in.Budget, _ = strconv.Atoi(c[2])
		} else {
			in.Reason = m[5]
		}
	}
	var list []Inlining
	for _, in := range byKey {
		list = append(list, *in)
	}
	slices.SortFunc(list, func(a, b Inlining) int {
		return strings.Compare(a.Type+"."+a.Method, b.Type+"."+b.Method)
	})
	return list
}
