package storage

import (
	"hash/maphash"
	"slices"
	"sync"
)

// rowLockStripes is the number of mutexes rows hash onto. Two rows that share
// a stripe serialize their writes, which is harmless; a row never maps to
// two stripes, which is what atomicity needs.
const rowLockStripes = 512

// rowLocks serializes writers of the same row: every write to a row holds its
// stripe from validation until its batch commits, which makes
// CheckAndMutateRow and ReadModifyWriteRow atomic against every other write.
type rowLocks struct {
	seed    maphash.Seed
	once    sync.Once
	stripes [rowLockStripes]struct {
		sync.Mutex
		_ [56]byte // one stripe per cache line
	}
}

func (l *rowLocks) stripe(table uint64, key []byte) uint32 {
	l.once.Do(func() { l.seed = maphash.MakeSeed() })
	var h maphash.Hash
	h.SetSeed(l.seed)
	var tb [8]byte
	for i := range tb {
		tb[i] = byte(table >> (8 * i))
	}
	h.Write(tb[:])
	h.Write(key)
	return uint32(h.Sum64() % rowLockStripes)
}

// lock locks the stripes in idx (sorted and de-duplicated in place, so that
// concurrent multi-row writers never deadlock) and returns them.
func (l *rowLocks) lock(idx []uint32) []uint32 {
	slices.Sort(idx)
	idx = slices.Compact(idx)
	for _, i := range idx {
		l.stripes[i].Lock()
	}
	return idx
}

// unlock releases stripes taken by lock.
func (l *rowLocks) unlock(idx []uint32) {
	for _, i := range idx {
		l.stripes[i].Unlock()
	}
}
