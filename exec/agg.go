package exec

import (
	"context"
	"slices"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// aggOp is hash aggregation: it consumes its whole input, then yields one
// row per group ([GroupBy..., Aggs...]); with no GROUP BY exactly one row.
type aggOp struct {
	in     Operator
	n      *planner.Aggregate
	env    sql.Env
	limit  int64
	groups map[string]*group
	single *group   // the only group of an aggregation without GROUP BY
	order  []*group // first-seen order, for deterministic output
	mem    int64
	out    Batch
	done   bool
	key    []byte
	args   []types.Value
	limits []int64 // per aggregate: its LIMIT, or -1
	// skipNulls is, per aggregate, AggCall.SkipsNulls (a map lookup).
	skipNulls []bool
}

type group struct {
	keys []types.Value
	accs []sql.Accumulator
	seen []map[string]bool // DISTINCT arguments
	// rows buffers, per aggregate with an ORDER BY, the argument values
	// followed by the sort keys of each row; taken counts the rows folded
	// into an aggregate with a LIMIT but no ORDER BY.
	rows  [][][]types.Value
	taken []int64
	// mem is each accumulator's size when last measured, adds the rows
	// folded into it since (fold measures every memCheckEvery rows).
	mem  []int64
	adds []int
}

// memCheckEvery is how many rows an accumulator folds between two
// measurements of its memory: Mem on every row cost as much as the
// folding for the common fixed-size aggregates (COUNT, SUM, AVG).
const memCheckEvery = 64

func newAggOp(in Operator, n *planner.Aggregate, d Deps) *aggOp {
	return &aggOp{in: in, n: n, env: sql.Env{Params: d.Params}, limit: d.Options.MemoryLimit,
		groups: map[string]*group{}}
}

func (a *aggOp) Open(ctx context.Context) error {
	a.limits = make([]int64, len(a.n.Aggs))
	a.skipNulls = make([]bool, len(a.n.Aggs))
	for i, c := range a.n.Aggs {
		a.skipNulls[i] = c.SkipsNulls()
		a.limits[i] = -1
		if c.Limit != nil {
			n, err := intArg(c.Limit, &a.env, "LIMIT")
			if err != nil {
				return err
			}
			a.limits[i] = n
		}
	}
	return a.in.Open(ctx)
}

func (a *aggOp) Close() error { return a.in.Close() }

func (a *aggOp) Next() (*Batch, error) {
	if a.done {
		return nil, nil
	}
	a.done = true
	for {
		b, err := a.in.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		for _, r := range b.Rows {
			if err := a.add(r); err != nil {
				return nil, err
			}
		}
	}
	if len(a.n.GroupBy) == 0 && len(a.order) == 0 {
		a.order = append(a.order, a.newGroup(nil))
	}
	for _, g := range a.order {
		row := make([]types.Value, 0, len(g.keys)+len(g.accs))
		row = append(row, g.keys...)
		for i, acc := range g.accs {
			if err := a.foldOrdered(g, i); err != nil {
				return nil, err
			}
			v, err := acc.Result()
			if err != nil {
				return nil, err
			}
			row = append(row, v)
		}
		a.out.Rows = append(a.out.Rows, row)
	}
	if len(a.out.Rows) == 0 {
		return nil, nil
	}
	return &a.out, nil
}

func (a *aggOp) newGroup(keys []types.Value) *group {
	g := &group{keys: keys, accs: make([]sql.Accumulator, len(a.n.Aggs)), seen: make([]map[string]bool, len(a.n.Aggs)),
		rows: make([][][]types.Value, len(a.n.Aggs)), taken: make([]int64, len(a.n.Aggs)),
		mem: make([]int64, len(a.n.Aggs)), adds: make([]int, len(a.n.Aggs))}
	for i, c := range a.n.Aggs {
		ts := make([]*types.Type, len(c.Args))
		for j, x := range c.Args {
			ts[j] = x.Type()
		}
		g.accs[i] = c.Fn.Agg.New(c.T, ts)
		g.mem[i] = g.accs[i].Mem()
		a.mem += g.mem[i]
		if c.Distinct {
			g.seen[i] = map[string]bool{}
		}
	}
	return g
}

func (a *aggOp) add(r []types.Value) error {
	a.env.Row = r
	a.key = a.key[:0]
	var keys []types.Value
	for _, e := range a.n.GroupBy {
		v, err := sql.Eval(e, &a.env)
		if err != nil {
			return err
		}
		a.key = appendKey(a.key, v)
		keys = append(keys, v)
	}
	g := a.single
	if g == nil {
		g = a.groups[string(a.key)]
	}
	if g == nil {
		for i, k := range keys {
			keys[i] = sql.CopyValue(k)
			a.mem += sql.ValueSize(k)
		}
		g = a.newGroup(keys)
		a.groups[string(a.key)] = g
		if len(a.n.GroupBy) == 0 {
			a.single = g // one group: no lookup per row
		}
		a.order = append(a.order, g)
		a.mem += int64(len(a.key)) + 128
	}
	for i, c := range a.n.Aggs {
		a.args = a.args[:0]
		for _, x := range c.Args {
			a.args = append(a.args, types.Value{})
			if err := sql.EvalInto(&a.args[len(a.args)-1], x, &a.env); err != nil {
				return err
			}
		}
		if a.skipNulls[i] && a.args[0].IsNull() {
			continue
		}
		if c.Distinct {
			k := string(appendKey(nil, a.args[0]))
			if g.seen[i][k] {
				continue
			}
			g.seen[i][k] = true
			a.mem += int64(len(k)) + 64
		}
		if len(c.OrderBy) > 0 {
			if err := a.buffer(g, i); err != nil {
				return err
			}
			continue
		}
		if a.limits[i] >= 0 {
			if g.taken[i] >= a.limits[i] {
				continue
			}
			g.taken[i]++
		}
		if err := a.fold(g, i, a.args); err != nil {
			return err
		}
	}
	if a.mem > a.limit {
		return sqlerr.New(sqlerr.ResourceExhausted,
			"aggregation exceeded its memory limit of %d bytes", a.limit)
	}
	return nil
}

func (a *aggOp) fold(g *group, i int, args []types.Value) error {
	if err := g.accs[i].Add(args); err != nil {
		return err
	}
	if g.adds[i]++; g.adds[i] >= memCheckEvery {
		g.adds[i] = 0
		now := g.accs[i].Mem()
		a.mem += now - g.mem[i]
		g.mem[i] = now
	}
	return nil
}

// buffer keeps a copy of the current row's arguments (in a.args) and
// ORDER BY keys for aggregate i. With a LIMIT, the buffer is cut back to
// the first LIMIT rows in order whenever it holds twice that (plus 64).
func (a *aggOp) buffer(g *group, i int) error {
	c := a.n.Aggs[i]
	r := make([]types.Value, 0, len(a.args)+len(c.OrderBy))
	for _, v := range a.args {
		r = append(r, sql.CopyValue(v))
	}
	for _, o := range c.OrderBy {
		v, err := sql.Eval(o.Key, &a.env)
		if err != nil {
			return err
		}
		r = append(r, sql.CopyValue(v))
	}
	g.rows[i] = append(g.rows[i], r)
	a.mem += rowSize(r)
	if n, lim := int64(len(g.rows[i])), a.limits[i]; lim >= 0 && n >= 64 && (n-64)/2 >= lim {
		a.sortRows(g, i)
		for _, r := range g.rows[i][lim:] {
			a.mem -= rowSize(r)
		}
		g.rows[i] = g.rows[i][:lim:lim]
	}
	return nil
}

// sortRows stably sorts aggregate i's buffered rows by its ORDER BY.
func (a *aggOp) sortRows(g *group, i int) {
	c := a.n.Aggs[i]
	n := len(c.Args)
	slices.SortStableFunc(g.rows[i], func(x, y []types.Value) int {
		for k, o := range c.OrderBy {
			u, v := x[n+k], y[n+k]
			if un, vn := u.IsNull(), v.IsNull(); un || vn {
				if un == vn {
					continue
				}
				if un == o.NullsFirst {
					return -1
				}
				return 1
			}
			if r := types.Compare(u, v); r != 0 {
				if o.Desc {
					return -r
				}
				return r
			}
		}
		return 0
	})
}

// foldOrdered feeds aggregate i the rows it buffered for its ORDER BY, in
// order and up to its LIMIT.
func (a *aggOp) foldOrdered(g *group, i int) error {
	if len(g.rows[i]) == 0 {
		return nil
	}
	a.sortRows(g, i)
	rows := g.rows[i]
	if lim := a.limits[i]; lim >= 0 && int64(len(rows)) > lim {
		rows = rows[:lim]
	}
	n := len(a.n.Aggs[i].Args)
	for _, r := range rows {
		if err := a.fold(g, i, r[:n]); err != nil {
			return err
		}
	}
	g.rows[i] = nil
	return nil
}
