package exec

import (
	"context"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// valuesOp yields one row with no columns.
type valuesOp struct {
	done bool
	out  Batch
}

func (v *valuesOp) Open(context.Context) error { return nil }
func (v *valuesOp) Next() (*Batch, error) {
	if v.done {
		return nil, nil
	}
	v.done = true
	if v.out.Rows == nil {
		v.out.Rows = [][]types.Value{{}}
	}
	return &v.out, nil
}
func (v *valuesOp) Close() error                { return nil }
func (v *valuesOp) bind(map[string]types.Value) {}
func (v *valuesOp) release()                    { v.done = false }

// filterOp passes the rows for which pred is TRUE.
type filterOp struct {
	in   Operator
	pred sql.Expr
	env  sql.Env
	out  Batch
}

func (f *filterOp) Open(ctx context.Context) error { return f.in.Open(ctx) }
func (f *filterOp) Close() error                   { return f.in.Close() }
func (f *filterOp) bind(p map[string]types.Value)  { f.env.Params = p }

func (f *filterOp) release() {
	f.env.Row, f.env.Params = nil, nil
	f.out.Rows = trim(f.out.Rows, maxPooledValues)
}

func (f *filterOp) Next() (*Batch, error) {
	for {
		b, err := f.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		f.out.Rows = f.out.Rows[:0]
		for _, r := range b.Rows {
			f.env.Row = r
			ok, err := sql.EvalBool(f.pred, &f.env)
			if err != nil {
				return nil, err
			}
			if ok {
				f.out.Rows = append(f.out.Rows, r)
			}
		}
		if len(f.out.Rows) > 0 {
			return &f.out, nil
		}
	}
}

// projectOp computes expressions over each row.
type projectOp struct {
	in    Operator
	exprs []sql.Expr
	env   sql.Env
	out   Batch
	slab  []types.Value
}

func (p *projectOp) Open(ctx context.Context) error { return p.in.Open(ctx) }
func (p *projectOp) Close() error                   { return p.in.Close() }
func (p *projectOp) bind(m map[string]types.Value)  { p.env.Params = m }

func (p *projectOp) release() {
	p.env.Row, p.env.Params = nil, nil
	p.out.Rows = trim(p.out.Rows, maxPooledValues)
	p.slab = trim(p.slab, maxPooledValues)
}

func (p *projectOp) Next() (*Batch, error) {
	b, err := p.in.Next()
	if err != nil || b == nil {
		return nil, err
	}
	w := len(p.exprs)
	if cap(p.slab) < w*len(b.Rows) {
		p.slab = make([]types.Value, w*len(b.Rows))
	}
	slab := p.slab[:w*len(b.Rows)]
	p.out.Rows = p.out.Rows[:0]
	for i, r := range b.Rows {
		p.env.Row = r
		row := slab[i*w : (i+1)*w : (i+1)*w]
		for j, e := range p.exprs {
			if err := sql.EvalInto(&row[j], e, &p.env); err != nil {
				return nil, err
			}
		}
		p.out.Rows = append(p.out.Rows, row)
	}
	return &p.out, nil
}

// limitOp skips offset rows, then passes at most count.
type limitOp struct {
	in            Operator
	count, offset sql.Expr
	params        map[string]types.Value
	skip, left    int64
	unlimited     bool
	out           Batch
}

func (l *limitOp) Open(ctx context.Context) error {
	env := &sql.Env{Params: l.params}
	var err error
	if l.skip, err = intArg(l.offset, env, "OFFSET"); err != nil {
		return err
	}
	if l.left, err = intArg(l.count, env, "LIMIT"); err != nil {
		return err
	}
	l.unlimited = l.count == nil
	return l.in.Open(ctx)
}

func (l *limitOp) Close() error                  { return l.in.Close() }
func (l *limitOp) bind(p map[string]types.Value) { l.params = p }

// release drops the params and the rows, a window of the input's batch
// (Open sets the counts).
func (l *limitOp) release() { l.params, l.out.Rows = nil, nil }

func (l *limitOp) Next() (*Batch, error) {
	for {
		if !l.unlimited && l.left <= 0 {
			return nil, nil
		}
		b, err := l.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		rows := b.Rows
		if l.skip > 0 {
			n := min(l.skip, int64(len(rows)))
			rows, l.skip = rows[n:], l.skip-n
		}
		if !l.unlimited && int64(len(rows)) > l.left {
			rows = rows[:l.left]
		}
		l.left -= int64(len(rows))
		if len(rows) > 0 {
			l.out.Rows = rows
			return &l.out, nil
		}
	}
}
