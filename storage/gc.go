package storage

import (
	"bytes"
	"context"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// SweepStats count what one maintenance sweep did.
type SweepStats struct {
	TablesSwept  int
	CellsScanned int64
	CellsDeleted int64
	Splits       int
}

// sweepLoop runs Sweep every SweepInterval until the engine closes.
func (e *Engine) sweepLoop() {
	defer e.wg.Done()
	tick := time.NewTicker(e.opts.SweepInterval)
	defer tick.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-e.stop; cancel() }()
	for {
		select {
		case <-e.stop:
			return
		case <-tick.C:
			e.iters.dropStale() // releases what retired cached iterators pin
			if _, err := e.Sweep(ctx); err != nil && ctx.Err() == nil {
				e.opts.Logger.Error("storage: maintenance sweep failed", "err", err)
			}
		}
	}
}

// Sweep is one maintenance pass over every table that changed since the
// last pass, or whose GC policy depends on time: it deletes cells eligible
// under their family's GC policy and splits tablets that grew past
// SplitSize. It runs in the background; tests call it directly with a
// manual clock.
func (e *Engine) Sweep(ctx context.Context) (SweepStats, error) {
	var stats SweepStats
	if err := e.checkOpen(); err != nil {
		return stats, err
	}
	e.mu.RLock()
	tables := make([]*Table, 0, len(e.mu.tables))
	states := make([]*tableState, 0, len(e.mu.tables))
	for _, t := range e.mu.tables {
		tables = append(tables, t)
		states = append(states, e.mu.states[t.ID])
	}
	e.mu.RUnlock()
	for i, t := range tables {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		if !states[i].dirty.Swap(false) && !tableHasAgeGC(t) {
			continue
		}
		// Sweep with the descriptor current after clearing the flag: a GC
		// policy changed since the snapshot above set the flag again, and
		// must not be swept with the old policy and then forgotten.
		cur, _, err := e.lookup(t.Instance, t.Name)
		if err != nil || cur.ID != t.ID {
			continue // dropped meanwhile
		}
		t = cur
		stats.TablesSwept++
		sizes, err := e.sweepTable(ctx, t, &stats)
		if err != nil {
			states[i].dirty.Store(true)
			return stats, err
		}
		n, err := e.splitTablets(ctx, t, sizes)
		if err != nil {
			return stats, err
		}
		stats.Splits += n
		if n > 0 {
			// A tablet is split once per pass; the halves may still be too
			// large, so the next pass must look again even if nothing is
			// written meanwhile.
			states[i].dirty.Store(true)
		}
	}
	return stats, nil
}

func tableHasAgeGC(t *Table) bool {
	for i := range t.Families {
		if t.Families[i].GC.hasAge() {
			return true
		}
	}
	return false
}

// gcScanner walks cells in key order and decides which are eligible for
// deletion under their family's policy.
type gcScanner struct {
	t       *Table
	now     int64
	column  []byte // key prefix of the current column
	version int64
	buf     []byte
}

// eligible reports whether the cell at key is garbage; keys must come in
// order.
func (g *gcScanner) eligible(key []byte) (bool, error) {
	ck, buf, err := decodeCellKey(key, g.buf[:0])
	g.buf = buf
	if err != nil {
		return false, err
	}
	col := key[:len(key)-8]
	if !bytes.Equal(col, g.column) {
		g.column = append(g.column[:0], col...)
		g.version = 0
	} else {
		g.version++
	}
	f := g.t.Family(string(ck.family))
	if f == nil {
		return false, nil
	}
	return f.GC.eligible(ck.ts, g.version, g.now), nil
}

// sweepTable deletes the garbage of one table and returns the byte size of
// each of its tablets.
func (e *Engine) sweepTable(ctx context.Context, t *Table, stats *SweepStats) ([]int64, error) {
	tp := tablePrefix(t.ID)
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: tp, UpperBound: prefixSuccessor(tp)})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	sizes := make([]int64, len(t.Splits)+1)
	tablet := 0
	g := gcScanner{t: t, now: e.now()}
	var rowPrefix, rowKey, buf []byte
	garbage := false
	flush := func() error {
		if !garbage {
			return nil
		}
		garbage = false
		n, err := e.collectRow(t, rowKey, g.now)
		stats.CellsDeleted += n
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if rowPrefix == nil || !bytes.HasPrefix(k, rowPrefix) {
			if err := flush(); err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var ck cellKey
			ck, buf, err = decodeCellKey(k, buf[:0])
			if err != nil {
				return nil, err
			}
			rowPrefix = append(rowPrefix[:0], k[:ck.rowPrefixLen]...)
			rowKey = append(rowKey[:0], ck.row...)
			for tablet < len(t.Splits) && bytes.Compare(rowKey, t.Splits[tablet]) >= 0 {
				tablet++
			}
		}
		stats.CellsScanned++
		sizes[tablet] += int64(len(k) + len(it.Value()))
		gone, err := g.eligible(k)
		if err != nil {
			return nil, err
		}
		garbage = garbage || gone
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	return sizes, flush()
}

// collectRow deletes a row's garbage under the row lock, deciding afresh
// from the row's current cells so a concurrent write or delete is never
// undone.
func (e *Engine) collectRow(t *Table, row []byte, now int64) (int64, error) {
	stripes := e.locks.lock([]uint32{e.locks.stripe(t.ID, row)})
	defer e.locks.unlock(stripes)
	lo := appendRowPrefix(nil, t.ID, row)
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixSuccessor(lo)})
	if err != nil {
		return 0, err
	}
	defer it.Close()
	b := e.db.NewBatch()
	defer b.Close()
	g := gcScanner{t: t, now: now}
	var n int64
	for ok := it.First(); ok; ok = it.Next() {
		gone, err := g.eligible(it.Key())
		if err != nil {
			return 0, err
		}
		if gone {
			if err := b.Delete(it.Key(), nil); err != nil {
				return 0, err
			}
			n++
		}
	}
	if err := it.Error(); err != nil {
		return 0, err
	}
	// GC deletes need not be durable: one lost to a crash is redone.
	return n, e.commit(b, pebble.NoSync)
}
