package exec

import (
	"container/heap"
	"context"
	"sort"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// sortOp sorts its whole input; with a limit it keeps only the best
// limit+offset rows in a heap (top-N).
type sortOp struct {
	in     Operator
	n      *planner.Sort
	params map[string]types.Value
	limit  int64 // memory
	rows   [][]types.Value
	topN   int64 // 0: full sort
	mem    int64
	out    Batch
	done   bool
	size   int
}

func newSortOp(in Operator, n *planner.Sort, d Deps) *sortOp {
	return &sortOp{in: in, n: n, params: d.Params, limit: d.Options.MemoryLimit, size: d.Options.BatchSize}
}

func (s *sortOp) Open(ctx context.Context) error {
	if s.n.Limit != nil {
		n, err := limitValue(s.n.Limit, s.n.Offset, s.params)
		if err != nil {
			return err
		}
		s.topN = n
		if n == 0 {
			s.topN = -1 // LIMIT 0
		}
	}
	return s.in.Open(ctx)
}

func (s *sortOp) Close() error { return s.in.Close() }

// Less orders rows by the sort keys (NULLs placed per key).
func (s *sortOp) less(a, b []types.Value) bool {
	for _, k := range s.n.Keys {
		x, y := a[k.Col], b[k.Col]
		if xn, yn := x.IsNull(), y.IsNull(); xn || yn {
			if xn == yn {
				continue
			}
			return xn == k.NullsFirst
		}
		c := types.Compare(x, y)
		if c == 0 {
			continue
		}
		return (c < 0) != k.Desc
	}
	return false
}

func (s *sortOp) Len() int           { return len(s.rows) }
func (s *sortOp) Less(i, j int) bool { return s.less(s.rows[j], s.rows[i]) } // max-heap of the worst row
func (s *sortOp) Swap(i, j int)      { s.rows[i], s.rows[j] = s.rows[j], s.rows[i] }
func (s *sortOp) Push(x any)         { s.rows = append(s.rows, x.([]types.Value)) }
func (s *sortOp) Pop() any {
	r := s.rows[len(s.rows)-1]
	s.rows = s.rows[:len(s.rows)-1]
	return r
}

func (s *sortOp) Next() (*Batch, error) {
	if !s.done {
		if err := s.consume(); err != nil {
			return nil, err
		}
		sort.SliceStable(s.rows, func(i, j int) bool { return s.less(s.rows[i], s.rows[j]) })
		s.done = true
	}
	if len(s.rows) == 0 {
		return nil, nil
	}
	n := min(s.size, len(s.rows))
	s.out.Rows, s.rows = s.rows[:n], s.rows[n:]
	return &s.out, nil
}

func (s *sortOp) consume() error {
	for {
		b, err := s.in.Next()
		if err != nil || b == nil {
			return err
		}
		for _, r := range b.Rows {
			if s.topN < 0 {
				return nil
			}
			if s.topN > 0 && int64(len(s.rows)) == s.topN {
				if !s.less(r, s.rows[0]) {
					continue
				}
				s.mem -= rowSize(s.rows[0])
				s.rows[0] = copyRow(r)
				s.mem += rowSize(s.rows[0])
				heap.Fix(s, 0)
				continue
			}
			c := copyRow(r)
			s.mem += rowSize(c)
			if s.topN > 0 {
				heap.Push(s, c)
			} else {
				s.rows = append(s.rows, c)
			}
			if s.mem > s.limit {
				return sqlerr.New(sqlerr.ResourceExhausted, "sort exceeded its memory limit of %d bytes", s.limit)
			}
		}
	}
}

func copyRow(r []types.Value) []types.Value {
	c := make([]types.Value, len(r))
	for i, v := range r {
		c[i] = sql.CopyValue(v)
	}
	return c
}

func rowSize(r []types.Value) int64 {
	n := int64(24)
	for _, v := range r {
		n += sql.ValueSize(v)
	}
	return n
}
