//go:build race

package natstransport

const raceEnabled = true
