//go:build race

package main

// raceEnabled: the simulator is one goroutine, so the race detector adds
// nothing to the document's test but a tenfold slowdown; make test runs
// it without -race instead (see the Makefile's test-race).
const raceEnabled = true
