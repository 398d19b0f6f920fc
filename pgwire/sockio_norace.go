//go:build !race

package pgwire

// raceEnabled reports a race-detector build (sockio_race.go).
const raceEnabled = false
