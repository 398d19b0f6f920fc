//go:build race

package pgwire

// raceEnabled: under the race detector sessions keep net.Conn's reads and
// writes (newRawSocket), whose annotations tell the detector that what a
// peer wrote before a write happens before the read that receives it; raw
// system calls carry no such annotation, and tests whose goroutines
// synchronize through a socket would report races that are not there.
const raceEnabled = true
