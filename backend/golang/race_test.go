//go:build race

package golang

// raceEnabled: TestNoExclusiveWaitOnTheLockQueue generates every
// configuration of the catalogue in one goroutine: 21 s under -race, 1.5 s
// without. It skips itself under -race, and make test-race runs it again
// without.
const raceEnabled = true
