package storage

// arena hands out byte slices that stay valid until reset. Growing never
// moves bytes already handed out: a full chunk is kept and a new one begun.
type arena struct {
	cur  []byte
	full [][]byte
	size int // bytes handed out since reset
}

// Chunks start small (a point read allocates little) and double up to
// arenaMaxChunk as rows need more.
const (
	arenaMinChunk = 512
	arenaMaxChunk = 64 << 10
)

// copy returns a copy of b that lives in the arena.
func (a *arena) copy(b []byte) []byte {
	n := len(b)
	a.size += n
	if n == 0 {
		return b[:0:0]
	}
	if cap(a.cur)-len(a.cur) < n {
		if len(a.cur) > 0 {
			a.full = append(a.full, a.cur)
		}
		next := min(max(2*cap(a.cur), arenaMinChunk), arenaMaxChunk)
		a.cur = make([]byte, 0, max(next, n))
	}
	start := len(a.cur)
	a.cur = append(a.cur, b...)
	return a.cur[start:len(a.cur):len(a.cur)]
}

// copy2 copies a and b into one allocation; the hot path of a cell's
// qualifier and value.
func (a *arena) copy2(x, y []byte) ([]byte, []byte) {
	n := len(x) + len(y)
	if cap(a.cur)-len(a.cur) < n {
		return a.copy(x), a.copy(y)
	}
	a.size += n
	start := len(a.cur)
	a.cur = append(append(a.cur, x...), y...)
	mid := start + len(x)
	return a.cur[start:mid:mid], a.cur[mid:len(a.cur):len(a.cur)]
}

// reset makes the arena's memory reusable; slices handed out before are
// invalid afterwards. The current chunk is kept; full chunks are dropped so
// one large row does not pin its memory forever.
func (a *arena) reset() {
	a.cur = a.cur[:0]
	clear(a.full)
	a.full = a.full[:0]
	a.size = 0
}
