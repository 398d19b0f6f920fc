package exec

import (
	"context"
	"errors"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// scanOp reads a table through the Scanner and builds SQL rows.
type scanOp struct {
	n       *planner.Scan
	scanner Scanner
	size    int
	stats   *ScanStats // EXPLAIN ANALYZE; nil otherwise
	// req is the part of every read's request that the plan fixes.
	req ScanRequest
	mem storageMemory // req.mem
	// resolver resolves the plan's key set each run, in memory that the
	// run's req.Spans (and so its read) use until the next run.
	resolver planner.Resolver

	src   RowSource
	env   sql.Env
	batch Batch
	vals  []types.Value // slab the batch's rows and maps live in
	buf   []byte        // slab the batch's bytes are copied into
	kv    []types.Value // scratch: one family's map entries
	done  bool
}

func newScanOp(n *planner.Scan, b *builder) (*scanOp, error) {
	if b.d.Scanner == nil {
		return nil, sqlerr.New(sqlerr.Internal, "exec: no scanner")
	}
	s := &scanOp{n: n, scanner: b.d.Scanner, size: b.d.Options.BatchSize,
		env: sql.Env{Params: b.d.Params}}
	s.req = ScanRequest{Instance: n.Table.Instance, Table: n.Table.Name, Reverse: n.Reverse,
		AllColumns: len(n.Reads) == len(n.Table.Families), mem: &s.mem,
		Columns: make([]ColumnSelection, 0, len(n.Reads))}
	for _, r := range n.Reads {
		s.req.Columns = append(s.req.Columns, ColumnSelection{Family: r.Family.Name, Qualifiers: r.Qualifiers})
		s.req.AllColumns = s.req.AllColumns && r.Qualifiers == nil
	}
	return s, nil
}

func (s *scanOp) bind(params map[string]types.Value) { s.env.Params = params }

func (s *scanOp) release() {
	s.env.Params, s.env.Row, s.done = nil, nil, false
	s.batch.Rows = trim(s.batch.Rows, maxPooledValues)
	s.vals = trim(s.vals, maxPooledValues)
	s.buf = trimBytes(s.buf, maxPooledBytes)
	s.kv = trim(s.kv, maxPooledValues)
	s.mem.release()
	s.resolver.Reset()
}

func (s *scanOp) Open(ctx context.Context) error {
	req, empty, err := s.request()
	if err != nil {
		return err
	}
	if empty {
		s.src = emptySource{}
		return nil
	}
	src, err := s.scanner.Scan(ctx, req)
	if err != nil {
		return storageError(err)
	}
	s.src = src
	return nil
}

// request resolves the plan's key set, time bounds and limit with this
// execution's parameters.
func (s *scanOp) request() (ScanRequest, bool, error) {
	n := s.n
	eval := func(e sql.Expr) (types.Value, error) { return sql.Eval(e, &s.env) }
	spans, err := s.resolver.Resolve(n.Keys, eval)
	if err != nil {
		return ScanRequest{}, false, err
	}
	req := s.req
	req.Spans = spans
	if err := s.timeBounds(&req, eval); err != nil {
		return req, false, err
	}
	if n.Limit != nil {
		lim, err := limitValue(n.Limit, n.Offset, s.env.Params)
		if err != nil {
			return req, false, err
		}
		if lim == 0 {
			return req, true, nil
		}
		req.Limit = lim
	}
	return req, len(spans) == 0, nil
}

func (s *scanOp) timeBounds(req *ScanRequest, eval func(sql.Expr) (types.Value, error)) error {
	n := s.n
	if !n.History {
		req.CellsPerColumn = 1
		if v, ok, err := timeArg(n.AsOf, "as_of", eval); err != nil {
			return err
		} else if ok {
			req.MaxTS = v + 1
		}
		return nil
	}
	for _, b := range [...]struct {
		e    sql.Expr
		name string
	}{
		{n.After, "after"}, {n.AfterOrEqual, "after_or_equal"},
		{n.Before, "before"}, {n.BeforeOrEqual, "before_or_equal"},
		{n.LatestN, "latest_n"},
	} {
		v, ok, err := timeArg(b.e, b.name, eval)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		switch b.name {
		case "after":
			req.MinTS = max(req.MinTS, v+1)
		case "after_or_equal":
			req.MinTS = max(req.MinTS, v)
		case "before":
			req.MaxTS = v
		case "before_or_equal":
			req.MaxTS = v + 1
		case "latest_n":
			if v < 1 {
				return sqlerr.New(sqlerr.InvalidArgument, "latest_n must be at least 1, got %d", v)
			}
			req.CellsPerColumn = v
		}
	}
	if req.MaxTS != 0 && req.MaxTS <= req.MinTS {
		req.MaxTS, req.MinTS = 1, 0 // an empty time range: no cell
	}
	return nil
}

// timeArg evaluates a temporal bound; false when there is none.
func timeArg(e sql.Expr, name string, eval func(sql.Expr) (types.Value, error)) (int64, bool, error) {
	if e == nil {
		return 0, false, nil
	}
	v, err := eval(e)
	if err != nil {
		return 0, false, err
	}
	if v.IsNull() {
		return 0, false, sqlerr.New(sqlerr.InvalidArgument, "%s must not be NULL", name)
	}
	return v.Int64(), true, nil
}

func (s *scanOp) Next() (*Batch, error) {
	if s.done {
		return nil, nil
	}
	s.batch.Rows = s.batch.Rows[:0]
	s.vals, s.buf = s.vals[:0], s.buf[:0]
	for len(s.batch.Rows) < s.size {
		r := s.src.Next()
		if r == nil {
			s.done = true
			if err := s.src.Err(); err != nil {
				return nil, storageError(err)
			}
			break
		}
		row, err := s.buildRow(r)
		if err != nil {
			return nil, err
		}
		if s.n.Residual != nil {
			s.env.Row = row
			ok, err := sql.EvalBool(s.n.Residual, &s.env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		s.batch.Rows = append(s.batch.Rows, row)
	}
	if s.stats != nil {
		*s.stats = s.src.Stats()
	}
	if len(s.batch.Rows) == 0 {
		return nil, nil
	}
	return &s.batch, nil
}

func (s *scanOp) Close() error {
	if s.src == nil {
		return nil
	}
	if s.stats != nil {
		*s.stats = s.src.Stats()
	}
	err := s.src.Close()
	s.src = nil
	return err
}

// storageError turns a backend error into a *sqlerr.Error.
func storageError(err error) error {
	var se *sqlerr.Error
	switch {
	case errors.As(err, &se):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return sqlerr.New(sqlerr.Canceled, "query canceled: %v", err)
	case errors.Is(err, storage.ErrNotFound):
		return sqlerr.New(sqlerr.UndefinedTable, "%v", err)
	}
	return sqlerr.New(sqlerr.Internal, "read failed: %v", err)
}

// limitValue evaluates LIMIT + OFFSET.
func limitValue(count, offset sql.Expr, params map[string]types.Value) (int64, error) {
	env := &sql.Env{Params: params}
	n, err := intArg(count, env, "LIMIT")
	if err != nil {
		return 0, err
	}
	o, err := intArg(offset, env, "OFFSET")
	if err != nil {
		return 0, err
	}
	if n > 0 && o > 0 && n+o < n {
		return 0, nil
	}
	if n == 0 {
		return 0, nil
	}
	return n + o, nil
}

func intArg(e sql.Expr, env *sql.Env, what string) (int64, error) {
	if e == nil {
		return 0, nil
	}
	v, err := sql.Eval(e, env)
	if err != nil {
		return 0, err
	}
	if v.IsNull() || v.Int64() < 0 {
		return 0, sqlerr.New(sqlerr.InvalidArgument, "%s must be a non-negative integer, got %s", what, v)
	}
	return v.Int64(), nil
}
