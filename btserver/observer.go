package btserver

// Observer is told how much data the Data API moved; the process wiring
// turns it into metrics. Mutations count as cells written.
type Observer interface {
	Read(rows, cells int64)
	Wrote(rows, cells int64)
}

// noObserver is the Observer of a server given none.
type noObserver struct{}

func (noObserver) Read(rows, cells int64)  {}
func (noObserver) Wrote(rows, cells int64) {}
