// Package sync is the standard library's sync for code checked by
// verify.Explore, plus the blocking primitives hand-written locks are made
// of: Parker (park and unpark one goroutine), Sema (a counting semaphore)
// and Chan (a channel). In a normal build Mutex, RWMutex, Cond, WaitGroup
// and Once are sync's own types (aliases) and the extras are ordinary Go;
// under -tags lockgen_check every operation is a scheduling point of the
// controlled scheduler, labelled with the caller's file:line, and a
// goroutine blocked in one is not runnable until the wake it needs, so a
// lost wake-up is a deadlock verify.Explore reports and replays. Every
// checked sleep is a sched.Parker. See package verify/checked.
package sync
