package btserver_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// fakeSQL is a SQL engine that knows a few fixed queries (see prepare).
// It records every Prepare so tests can see cache hits and misses.
type fakeSQL struct {
	prepares atomic.Int64
	mu       sync.Mutex
	last     map[string]*types.Type // param types of the last Prepare
	// extraColumn, when set, adds a column to "SELECT all_types" (a schema
	// change between a Prepare and a re-prepare).
	extraColumn atomic.Bool
}

var _ btserver.SQL = (*fakeSQL)(nil)

// Column types of the all-types query.
var (
	tStruct  = types.StructOf(types.Field{Name: "a", Type: types.Int64}, types.Field{Name: "b", Type: types.String})
	tAnon    = types.StructOf(types.Field{Type: types.Int64}, types.Field{Type: types.String})
	tMapBB   = types.MapOf(types.Bytes, types.Bytes)
	tMapBI   = types.MapOf(types.Bytes, types.Int64)
	tHist    = types.MapOf(types.Bytes, types.ArrayOf(types.CellVersion))
	tMapIS   = types.MapOf(types.Int64, types.String)
	tMapFS   = types.MapOf(types.Float64, types.String)
	tArrInt  = types.ArrayOf(types.Int64)
	tArrStr  = types.ArrayOf(tStruct)
	tProto   = types.ProtoOf("bundle.pkg.Msg")
	tEnum    = types.EnumOf("bundle.pkg.Color")
	allTypes = []types.Field{
		col("k", types.Bytes), col("s", types.String), col("i", types.Int64), col("f32", types.Float32),
		col("f64", types.Float64), col("b", types.Bool), col("ts", types.Timestamp), col("d", types.Date),
		col("arr", tArrInt), col("st", tStruct), col("anon", tAnon), col("m", tMapBB), col("mi", tMapBI),
		col("hist", tHist), col("mk", tMapIS), col("mf", tMapFS), col("p", tProto), col("e", tEnum), col("arrst", tArrStr),
	}
	// 2024-06-01T12:34:56.123456Z
	tsMicros = int64(1717245296123456)
)

func col(name string, t *types.Type) types.Field { return types.Field{Name: name, Type: t} }

func allTypesRows() [][]types.Value {
	b := func(s string) types.Value { return types.BytesValue([]byte(s)) }
	full := []types.Value{
		b("r1"), types.StringValue("héllo"), types.Int64Value(-7), types.Float32Value(1.5),
		types.Float64Value(2.25), types.BoolValue(true), types.TimestampValue(tsMicros), types.DateValue(19875),
		types.ArrayValue(tArrInt, []types.Value{types.Int64Value(1), types.NullOf(types.Int64), types.Int64Value(3)}),
		types.StructValue(tStruct, []types.Value{types.Int64Value(1), types.StringValue("x")}),
		types.StructValue(tAnon, []types.Value{types.Int64Value(2), types.StringValue("y")}),
		types.MapValue(tMapBB, []types.Value{b("a"), b("1"), b("b"), b("2")}),
		types.MapValue(tMapBI, []types.Value{b("n"), types.Int64Value(5)}),
		types.MapValue(tHist, []types.Value{b("q"), types.ArrayValue(types.ArrayOf(types.CellVersion), []types.Value{
			types.StructValue(types.CellVersion, []types.Value{types.TimestampValue(5), b("new")}),
			types.StructValue(types.CellVersion, []types.Value{types.TimestampValue(3), b("old")}),
		})}),
		types.MapValue(tMapIS, []types.Value{types.Int64Value(1), types.StringValue("one")}),
		types.MapValue(tMapFS, []types.Value{types.Float64Value(0.5), types.StringValue("half")}),
		types.ProtoValue(tProto, []byte{8, 1}), types.EnumValue(tEnum, 2),
		types.ArrayValue(tArrStr, []types.Value{types.StructValue(tStruct, []types.Value{types.Int64Value(9), types.NullOf(types.String)})}),
	}
	nulls := make([]types.Value, len(allTypes))
	for i, c := range allTypes {
		nulls[i] = types.NullOf(c.Type)
	}
	// The third row: a date before 1970, empty collections.
	empty := append([]types.Value(nil), nulls...)
	empty[0] = b("")
	empty[7] = types.DateValue(-1)
	empty[8] = types.ArrayValue(tArrInt, nil)
	empty[11] = types.MapValue(tMapBB, nil)
	return [][]types.Value{full, nulls, empty}
}

// manyRows is the "SELECT many" result: n rows of (INT64 i, BYTES of 1 KiB).
func manyRows(n int) [][]types.Value {
	rows := make([][]types.Value, n)
	for i := range rows {
		rows[i] = []types.Value{types.Int64Value(int64(i)), types.BytesValue([]byte(strings.Repeat(string(rune('a'+i%26)), 1024)))}
	}
	return rows
}

const manyCount = 3000

// Prepare knows these queries: "SELECT all_types", "SELECT many",
// "SELECT empty", "SELECT huge" (one 3.5 MiB row), "SELECT nan",
// "SELECT params" (echoes the parameters, sorted by name), "SELECT divzero"
// (fails after 2 rows), "SELECT undefined_table" and anything else (a
// syntax error).
func (f *fakeSQL) Prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (btserver.Statement, error) {
	f.prepares.Add(1)
	f.mu.Lock()
	f.last = params
	f.mu.Unlock()
	if instance != instName {
		return nil, fmt.Errorf("unexpected instance %q", instance)
	}
	switch query {
	case "SELECT all_types":
		cols := allTypes
		rows := allTypesRows()
		if f.extraColumn.Load() {
			cols = append(append([]types.Field(nil), cols...), types.Field{Name: "new", Type: types.Int64})
			for i := range rows {
				rows[i] = append(rows[i], types.Int64Value(0))
			}
		}
		return &fakeStmt{cols: cols, rows: rows}, nil
	case "SELECT many":
		return &fakeStmt{cols: []types.Field{col("i", types.Int64), col("v", types.Bytes)}, rows: manyRows(manyCount)}, nil
	case "SELECT empty":
		return &fakeStmt{cols: []types.Field{col("k", types.Bytes)}}, nil
	case "SELECT huge":
		big := types.BytesValue([]byte(strings.Repeat("h", 3<<20+512<<10)))
		return &fakeStmt{cols: []types.Field{col("v", types.Bytes)}, rows: [][]types.Value{{types.BytesValue([]byte("small"))}, {big}}}, nil
	case "SELECT nan":
		return &fakeStmt{cols: []types.Field{col("f", types.Float64)}, rows: [][]types.Value{{types.Float64Value(math.NaN())}}}, nil
	case "SELECT params":
		names := make([]string, 0, len(params))
		for n := range params {
			names = append(names, n)
		}
		sort.Strings(names)
		cols := make([]types.Field, len(names))
		for i, n := range names {
			cols[i] = types.Field{Name: n, Type: params[n]}
		}
		return &fakeStmt{cols: cols, echo: names}, nil
	case "SELECT divzero":
		return &fakeStmt{cols: []types.Field{col("i", types.Int64)}, rows: manyRows(2)[:2:2], failAfter: 2,
			fail: sqlerr.At(query, 7, sqlerr.DivisionByZero, "division by zero"), project: 1}, nil
	case "SELECT undefined_table":
		return nil, sqlerr.At(query, 7, sqlerr.UndefinedTable, "table %q not found", "undefined_table")
	}
	return nil, sqlerr.At(query, 0, sqlerr.Syntax, "syntax error")
}

// fakeStmt returns fixed rows, or echoes its parameters as one row.
type fakeStmt struct {
	cols      []types.Field
	rows      [][]types.Value
	echo      []string // parameter names to echo
	fail      error    // returned by Err after failAfter rows
	failAfter int
	project   int // when > 0, rows are cut to their first project values
}

func (s *fakeStmt) Columns() []types.Field { return s.cols }

func (s *fakeStmt) Run(ctx context.Context, params map[string]types.Value) (btserver.ResultRows, error) {
	rows := s.rows
	if s.echo != nil {
		row := make([]types.Value, len(s.echo))
		for i, n := range s.echo {
			row[i] = params[n]
		}
		rows = [][]types.Value{row}
	}
	if s.project > 0 {
		cut := make([][]types.Value, len(rows))
		for i, r := range rows {
			cut[i] = r[:s.project]
		}
		rows = cut
	}
	return &fakeRows{ctx: ctx, rows: rows, fail: s.fail, failAfter: s.failAfter, i: -1}, nil
}

type fakeRows struct {
	ctx       context.Context
	rows      [][]types.Value
	fail      error
	failAfter int
	i         int
	err       error
}

func (r *fakeRows) Next() bool {
	if r.err != nil {
		return false
	}
	if err := r.ctx.Err(); err != nil {
		r.err = sqlerr.New(sqlerr.Canceled, "canceled")
		return false
	}
	r.i++
	if r.fail != nil && r.i == r.failAfter {
		r.err = r.fail
		return false
	}
	return r.i < len(r.rows)
}

func (r *fakeRows) Row() []types.Value { return r.rows[r.i] }
func (r *fakeRows) Err() error         { return r.err }
func (r *fakeRows) Close() error       { return nil }
