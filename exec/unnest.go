package exec

import (
	"context"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// unnestOp emits [input..., element(, offset)] per array element.
type unnestOp struct {
	in     Operator
	arr    sql.Expr
	offset bool
	env    sql.Env
	size   int

	cur  *Batch
	ri   int // row in cur
	elem []types.Value
	ei   int // element of the current row
	out  Batch
	slab []types.Value
}

func (u *unnestOp) Open(ctx context.Context) error { return u.in.Open(ctx) }
func (u *unnestOp) Close() error                   { return u.in.Close() }
func (u *unnestOp) bind(p map[string]types.Value)  { u.env.Params = p }

func (u *unnestOp) release() {
	u.env.Row, u.env.Params = nil, nil
	u.cur, u.ri, u.elem, u.ei = nil, 0, nil, 0
	u.out.Rows = trim(u.out.Rows, maxPooledValues)
	u.slab = trim(u.slab, maxPooledValues)
}

func (u *unnestOp) Next() (*Batch, error) {
	u.out.Rows = u.out.Rows[:0]
	u.slab = u.slab[:0]
	for len(u.out.Rows) < u.size {
		if u.cur == nil || u.ri >= len(u.cur.Rows) {
			if len(u.out.Rows) > 0 {
				break // the input batch is reused by the next call
			}
			b, err := u.in.Next()
			if err != nil || b == nil {
				return nil, err
			}
			u.cur, u.ri, u.elem = b, 0, nil
		}
		row := u.cur.Rows[u.ri]
		if u.elem == nil {
			u.env.Row = row
			v, err := sql.Eval(u.arr, &u.env)
			if err != nil {
				return nil, err
			}
			u.elem, u.ei = v.Elems(), 0
			if u.elem == nil {
				u.elem = []types.Value{}
			}
		}
		if u.ei >= len(u.elem) {
			u.ri++
			u.elem = nil
			continue
		}
		start := len(u.slab)
		u.slab = append(u.slab, row...)
		u.slab = append(u.slab, u.elem[u.ei])
		if u.offset {
			u.slab = append(u.slab, types.Int64Value(int64(u.ei)))
		}
		u.out.Rows = append(u.out.Rows, u.slab[start:len(u.slab):len(u.slab)])
		u.ei++
	}
	if len(u.out.Rows) == 0 {
		return nil, nil
	}
	return &u.out, nil
}
