//go:build race

package gen

// raceEnabled: Build and Write are single-threaded, and TestMutatedSpecs
// runs them over 1,200 specs: under -race that took 70 of its 95 s for
// nothing the race detector could see. It skips itself there, and make
// test-race runs it again without -race.
const raceEnabled = true
