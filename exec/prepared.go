package exec

import (
	"sync"
	"sync/atomic"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql/types"
)

// Prepared is a plan to run many times: the execution side of a prepared
// statement. Operators are per-run state (a statement may run in several
// goroutines at once, and the rows of one run may still be read while the
// next one starts), so runs never share a tree; instead a Prepared keeps
// the trees of released runs and resets one for each new run, so that a
// run of a small query neither builds operators nor grows their buffers
// again. Only trees whose every operator is reusable (the streaming
// operators of invariant E2) are kept; the others are built for each run.
type Prepared struct {
	root planner.Node
	d    Deps // without Params
	// last is the run released last. A statement run by one caller at a
	// time, as most are, takes it back without the per-P set-up of a
	// sync.Pool, which a statement run only once never pays either. Runs
	// released while last is taken go to pool (pooled), which only a
	// statement that runs concurrently uses, and which the GC empties.
	last   atomic.Pointer[Run]
	pooled atomic.Bool
	pool   sync.Pool
}

// reusable is an operator that can run again. Its input is reset on its
// own (Run.ops), so neither method reaches below the operator.
type reusable interface {
	Operator
	// release readies the closed (or never opened) operator for the pool:
	// it drops what the run left (rows, values, sources, parameters), so
	// that it keeps nothing of the run alive, and trims its scratch.
	release()
	// bind readies a released operator for a run with params.
	bind(params map[string]types.Value)
}

// The streaming operators are reusable; sort, aggregate and distinct,
// which hold what they have read (invariant E2), are built for each run.
var (
	_ reusable = (*scanOp)(nil)
	_ reusable = (*valuesOp)(nil)
	_ reusable = (*filterOp)(nil)
	_ reusable = (*projectOp)(nil)
	_ reusable = (*limitOp)(nil)
	_ reusable = (*unnestOp)(nil)
	_ reusable = (*unpackOp)(nil)
)

// Prepare readies a plan to run many times with d's scanner and options.
// d.Params and d.Analyze are ignored: parameters come with each Start,
// and EXPLAIN ANALYZE builds a tree of its own (Build).
func Prepare(root planner.Node, d Deps) *Prepared {
	d.Params, d.Analyze = nil, false
	return &Prepared{root: root, d: d}
}

// Start returns a run with params, to Open then Close and Release.
func (p *Prepared) Start(params map[string]types.Value) (*Run, error) {
	if r := p.get(); r != nil {
		for _, op := range r.ops {
			op.bind(params)
		}
		return r, nil
	}
	d := p.d
	d.Params = params
	r, err := build(p.root, d, true)
	if err != nil {
		return nil, err
	}
	if r.ops != nil {
		r.from = p
	}
	return r, nil
}

// Release ends a closed (or never opened) run: its operators may go to a
// later run of the same Prepared, so neither r nor any batch or value it
// returned may be used afterwards, and r must be released only once.
func (r *Run) Release() {
	if r.from == nil {
		return
	}
	for _, op := range r.ops {
		op.release()
	}
	r.from.put(r)
}

// get takes a released run, or returns nil.
func (p *Prepared) get() *Run {
	if r := p.last.Swap(nil); r != nil {
		return r
	}
	if !p.pooled.Load() {
		return nil
	}
	r, _ := p.pool.Get().(*Run)
	return r
}

// put keeps a released run for a later Start.
func (p *Prepared) put(r *Run) {
	if p.last.CompareAndSwap(nil, r) {
		return
	}
	p.pooled.Store(true)
	p.pool.Put(r)
}

// Scratch larger than this is dropped when a tree is released, so that an
// idle statement keeps little memory (last is not emptied by the GC): the
// scratch of a point read or a short scan is kept, while a run that
// fills batches of wide rows grows its own, which its rows amortize.
const (
	maxPooledBytes  = 8 << 10
	maxPooledValues = 256
)

// trim empties a scratch slice for the pool, or drops it when its capacity
// is above max. A slice of values is zeroed, so that the pool keeps
// nothing of the run before alive; a byte slice (trimBytes) holds no
// pointers and is kept as it is.
func trim[T any](s []T, max int) []T {
	if cap(s) > max {
		return nil
	}
	clear(s[:cap(s)])
	return s[:0]
}

// trimBytes is trim for byte slices, which need no zeroing.
func trimBytes(b []byte, max int) []byte {
	if cap(b) > max {
		return nil
	}
	return b[:0]
}
