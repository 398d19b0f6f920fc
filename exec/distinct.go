package exec

import (
	"context"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// distinctOp drops duplicate rows (SELECT DISTINCT): it streams the first
// occurrence of each row, in input order, and keeps only the encoded key
// of each row it has passed (appendKey: NULLs equal, numbers by value), so
// the rows it returns are its input's (valid per E1 until its next Next).
// The keys count against the memory limit (E2).
type distinctOp struct {
	in    Operator
	limit int64
	seen  map[string]struct{}
	mem   int64
	key   []byte
	out   Batch
}

// distinctEntryOverhead approximates a map entry's cost beyond its key
// bytes (string header, bucket slot).
const distinctEntryOverhead = 48

func newDistinctOp(in Operator, d Deps) *distinctOp {
	return &distinctOp{in: in, limit: d.Options.MemoryLimit, seen: map[string]struct{}{}}
}

func (o *distinctOp) Open(ctx context.Context) error { return o.in.Open(ctx) }
func (o *distinctOp) Close() error                   { return o.in.Close() }

func (o *distinctOp) Next() (*Batch, error) {
	for {
		b, err := o.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		o.out.Rows = o.out.Rows[:0]
		for _, r := range b.Rows {
			if o.add(r) {
				o.out.Rows = append(o.out.Rows, r)
			}
		}
		if o.mem > o.limit {
			return nil, sqlerr.New(sqlerr.ResourceExhausted,
				"SELECT DISTINCT exceeded its memory limit of %d bytes", o.limit)
		}
		if len(o.out.Rows) > 0 {
			return &o.out, nil
		}
	}
}

// add reports whether r is the first row with its values, and records it.
func (o *distinctOp) add(r []types.Value) bool {
	o.key = o.key[:0]
	for _, v := range r {
		o.key = appendKey(o.key, v)
	}
	if _, dup := o.seen[string(o.key)]; dup {
		return false
	}
	k := string(o.key) // a copy: the set never refers to the row
	o.seen[k] = struct{}{}
	o.mem += int64(len(k)) + distinctEntryOverhead
	return true
}
