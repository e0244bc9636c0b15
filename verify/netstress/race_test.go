//go:build race

package netstress

// raceEnabled: the race detector reports two writers' plain counter
// itself, failing the test that plants them.
const raceEnabled = true
