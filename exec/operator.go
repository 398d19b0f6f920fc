package exec

import (
	"context"
	"time"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Batch is a set of rows; see invariant E1 for its lifetime.
type Batch struct {
	Rows [][]types.Value
}

// Operator is a node of a running query (STYLE P7).
type Operator interface {
	// Open prepares the operator; ctx governs the whole run.
	Open(ctx context.Context) error
	// Next returns the next non-empty batch, or nil at the end.
	Next() (*Batch, error)
	Close() error
}

// Options tune execution.
type Options struct {
	// BatchSize is the number of rows per batch; default 256.
	BatchSize int
	// MemoryLimit caps the bytes a sort, aggregation or DISTINCT may
	// hold; default 256 MiB.
	MemoryLimit int64
}

func (o Options) withDefaults() Options {
	if o.BatchSize <= 0 {
		o.BatchSize = 256
	}
	if o.MemoryLimit <= 0 {
		o.MemoryLimit = 256 << 20
	}
	return o
}

// Deps are what a run needs besides the plan.
type Deps struct {
	Scanner Scanner
	Params  map[string]types.Value
	Options Options
	// Analyze collects per-operator statistics (EXPLAIN ANALYZE).
	Analyze bool
}

// Run is a built plan: its root operator and, with Deps.Analyze, the
// statistics of every operator.
type Run struct {
	Root  Operator
	stats map[planner.Node]*OpStats
	// ops are the operators of the tree when every one is reusable
	// (Prepared), nil otherwise.
	ops []reusable
	// from is the Prepared whose pool Release returns the run to; nil for
	// a run that is not reused.
	from *Prepared
}

// OpStats are what EXPLAIN ANALYZE reports for one operator.
type OpStats struct {
	Rows  int64
	Time  time.Duration
	Scan  *ScanStats // scans only
	nanos int64
}

// Build builds the operators of a plan.
func Build(root planner.Node, d Deps) (*Run, error) { return build(root, d, false) }

// build builds the operators of a plan; with reuse, for a Prepared, it
// lists them in Run.ops when every one is reusable.
func build(root planner.Node, d Deps, reuse bool) (*Run, error) {
	d.Options = d.Options.withDefaults()
	r := &Run{}
	if d.Analyze {
		r.stats = map[planner.Node]*OpStats{}
	}
	b := &builder{d: d, run: r}
	if reuse {
		n := 0
		for x := root; x != nil; x = planner.Input(x) {
			n++
		}
		b.ops = make([]reusable, 0, n)
	}
	op, err := b.build(root)
	if err != nil {
		return nil, err
	}
	r.Root, r.ops = op, b.ops
	return r, nil
}

type builder struct {
	d   Deps
	run *Run
	// ops are the operators built so far, while they are all reusable
	// and wanted (build's reuse); nil otherwise.
	ops []reusable
}

func (b *builder) build(n planner.Node) (Operator, error) {
	op, err := b.buildNode(n)
	if err != nil {
		return nil, err
	}
	if b.run.stats != nil {
		st := &OpStats{}
		b.run.stats[n] = st
		if s, ok := op.(*scanOp); ok {
			s.stats = &ScanStats{}
			st.Scan = s.stats
		}
		op = &statsOp{in: op, st: st}
	}
	if r, ok := op.(reusable); ok && b.ops != nil {
		b.ops = append(b.ops, r)
	} else {
		b.ops = nil
	}
	return op, nil
}

func (b *builder) buildNode(n planner.Node) (Operator, error) {
	switch n := n.(type) {
	case *planner.Scan:
		return newScanOp(n, b)
	case *planner.Values:
		return &valuesOp{}, nil
	}
	input := planner.Input(n)
	if input == nil {
		return nil, sqlerr.New(sqlerr.Internal, "exec: unhandled plan node %T", n)
	}
	in, err := b.build(input)
	if err != nil {
		return nil, err
	}
	switch n := n.(type) {
	case *planner.Filter:
		return &filterOp{in: in, pred: n.Pred, env: sql.Env{Params: b.d.Params}}, nil
	case *planner.Project:
		return &projectOp{in: in, exprs: n.Exprs, env: sql.Env{Params: b.d.Params}}, nil
	case *planner.Limit:
		return &limitOp{in: in, count: n.Count, offset: n.Offset, params: b.d.Params}, nil
	case *planner.Aggregate:
		return newAggOp(in, n, b.d), nil
	case *planner.Sort:
		return newSortOp(in, n, b.d), nil
	case *planner.Distinct:
		return newDistinctOp(in, b.d), nil
	case *planner.Unnest:
		return &unnestOp{in: in, arr: n.Array, offset: n.WithOffset, env: sql.Env{Params: b.d.Params}, size: b.d.Options.BatchSize}, nil
	case *planner.Unpack:
		return &unpackOp{in: in, kinds: n.Kinds, size: b.d.Options.BatchSize}, nil
	}
	return nil, sqlerr.New(sqlerr.Internal, "exec: unhandled plan node %T", n)
}

// Format renders the plan annotated with the statistics of a finished
// run (EXPLAIN ANALYZE); hideTime leaves durations out (tests).
func (r *Run) Format(root planner.Node, hideTime bool) string {
	return planner.Format(root, func(n planner.Node) string {
		st := r.stats[n]
		if st == nil {
			return ""
		}
		s := "(rows=" + itoa(st.Rows)
		if st.Scan != nil {
			s += " rows_read=" + itoa(st.Scan.RowsRead) + " cells_read=" + itoa(st.Scan.CellsRead)
		}
		if !hideTime {
			s += " time=" + st.Time.Round(time.Microsecond).String()
		}
		return s + ")"
	})
}

type statsOp struct {
	in Operator
	st *OpStats
}

func (s *statsOp) Open(ctx context.Context) error {
	t := time.Now()
	err := s.in.Open(ctx)
	s.st.Time += time.Since(t)
	return err
}

func (s *statsOp) Next() (*Batch, error) {
	t := time.Now()
	b, err := s.in.Next()
	s.st.Time += time.Since(t)
	if b != nil {
		s.st.Rows += int64(len(b.Rows))
	}
	return b, err
}

func (s *statsOp) Close() error { return s.in.Close() }

func itoa(n int64) string {
	return types.Int64Value(n).String()
}
