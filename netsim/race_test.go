//go:build race

package netsim

// raceEnabled: the simulator is one goroutine, so the race detector adds
// nothing to its tests and makes them several times slower; make
// test-race runs them without -race instead (see the Makefile).
const raceEnabled = true
