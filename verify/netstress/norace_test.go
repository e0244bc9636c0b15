//go:build !race

package netstress

const raceEnabled = false
