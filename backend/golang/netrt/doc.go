// Package netrt is the runtime of lockgen's generated distributed locks:
// the part every message-passing lock shares (one process's mutual
// exclusion between its routines and its handlers, awaits, the outbox,
// the dispatcher with its resume-first order, cancellation, TryLock,
// fencing tokens, failure). The Go backend copies netrt.go into each
// generated package beside the lowered algorithm (package clause renamed),
// so it is ordinary Go, compiled, vetted and tested here; the generated
// package needs only the standard library.
package netrt
