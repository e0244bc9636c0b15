//go:build race

package faults

// raceEnabled: the suite's children are the test binary, which the race
// detector would slow several times over; make test runs it without.
const raceEnabled = true
