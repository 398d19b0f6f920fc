package pgwire_test

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// fakeExec is an Executor with a tiny query language for protocol tests:
//
//	gen N           N rows (i INT64, s STRING "row i")
//	echo ...        one row holding every parameter, in name order; a
//	                parameter written @name:type (int64, string, bytes,
//	                float64, bool, timestamp, date) must have that type,
//	                else 42804 at its position (inference tests)
//	types           one row of every type
//	forever         rows until its context ends
//	sleep           one row, after its context ends (for cancel tests)
//	pause           one row, after 30ms (longer than the hang-up watch's delay)
//	runfail         two rows, then a division by zero
//	fail@K          a syntax error at byte K
//	none            no columns, no rows
type fakeExec struct {
	mu     sync.Mutex
	closed []string // queries whose Rows were closed
	ended  chan string
}

func newFake() *fakeExec { return &fakeExec{ended: make(chan string, 16)} }

func (f *fakeExec) Prepare(ctx context.Context, db, q string, params map[string]*types.Type) (pgwire.Statement, error) {
	word, rest, _ := strings.Cut(strings.TrimSpace(q), " ")
	st := &fakeStmt{f: f, q: q, word: word}
	switch {
	case word == "gen":
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil {
			return nil, sqlerr.At(q, 4, sqlerr.Syntax, "gen wants a number")
		}
		st.n = n
		st.cols = []types.Field{{Name: "i", Type: types.Int64}, {Name: "s", Type: types.String}}
	case word == "echo":
		names := make([]string, 0, len(params))
		for name := range params {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			st.cols = append(st.cols, types.Field{Name: name, Type: params[name]})
		}
		st.names = names
		for i := 0; i < len(q); i++ {
			if q[i] != '@' {
				continue
			}
			j := i + 1
			for j < len(q) && q[j] != ':' && q[j] != ' ' {
				j++
			}
			if j < len(q) && q[j] == ':' {
				want := strings.Fields(q[j+1:] + " ?")[0]
				if got := params[q[i+1:j]]; !strings.EqualFold(got.String(), want) {
					return nil, sqlerr.At(q, i, sqlerr.TypeMismatch, "%s must be %s, not %s", q[i:j], want, got)
				}
			}
		}
	case word == "types":
		st.cols = typesRow.cols
	case word == "forever", word == "sleep", word == "pause", word == "runfail", word == "stuck":
		st.cols = []types.Field{{Name: "i", Type: types.Int64}, {Name: "s", Type: types.String}}
	case strings.HasPrefix(word, "fail@"):
		k, _ := strconv.Atoi(strings.TrimPrefix(word, "fail@"))
		return nil, sqlerr.At(q, k, sqlerr.Syntax, "syntax error at %d", k)
	case word == "none":
	case strings.HasPrefix(word, "pgfn"): // a function GoogleSQL lacks
		return nil, sqlerr.At(q, 0, sqlerr.UndefinedFunction, "function not found: %s", strings.ToUpper(word))
	default:
		return nil, sqlerr.At(q, 0, sqlerr.Syntax, "fake: unknown query %q", q)
	}
	return st, nil
}

type fakeStmt struct {
	f     *fakeExec
	q     string
	word  string
	n     int
	names []string
	cols  []types.Field
}

func (s *fakeStmt) Columns() []types.Field { return s.cols }

func (s *fakeStmt) Run(ctx context.Context, params map[string]types.Value) (pgwire.Rows, error) {
	r := &fakeRows{s: s, ctx: ctx, n: s.n}
	switch s.word {
	case "echo":
		row := make([]types.Value, len(s.names))
		for i, name := range s.names {
			row[i] = params[name]
		}
		r.fixed = [][]types.Value{row}
	case "types":
		r.fixed = [][]types.Value{typesRow.row}
	case "forever":
		r.n = -1
	case "sleep", "pause", "stuck":
		r.n = 1
	case "runfail":
		r.n, r.fail = 2, true
	case "none":
		r.n = 0
	}
	return r, nil
}

// stuckRunning receives when a "stuck" query starts; it runs until
// stuckRelease is closed, whatever its context says.
var stuckRunning, stuckRelease = make(chan struct{}, 1), make(chan struct{})

type fakeRows struct {
	s      *fakeStmt
	ctx    context.Context
	n, i   int
	fixed  [][]types.Value
	fail   bool
	row    []types.Value
	err    error
	closed bool
}

func (r *fakeRows) Next() bool {
	if err := r.ctx.Err(); err != nil {
		r.err = sqlerr.New(sqlerr.Canceled, "canceled")
		return false
	}
	if r.fixed != nil {
		if r.i >= len(r.fixed) {
			return false
		}
		r.row = r.fixed[r.i]
		r.i++
		return true
	}
	if r.s.word == "pause" && r.i == 0 {
		time.Sleep(30 * time.Millisecond)
	}
	if r.s.word == "stuck" && r.i == 0 {
		stuckRunning <- struct{}{}
		<-stuckRelease // a computation that never looks at its context
	}
	if r.s.word == "sleep" && r.i == 0 {
		<-r.ctx.Done()
		r.err = sqlerr.New(sqlerr.Canceled, "canceled")
		return false
	}
	if r.n >= 0 && r.i >= r.n {
		if r.fail {
			r.err = sqlerr.New(sqlerr.DivisionByZero, "division by zero")
		}
		return false
	}
	r.i++
	r.row = []types.Value{types.Int64Value(int64(r.i)), types.StringValue("row " + strconv.Itoa(r.i))}
	if r.s.word == "forever" {
		time.Sleep(100 * time.Microsecond)
	}
	return true
}

func (r *fakeRows) Row() []types.Value { return r.row }
func (r *fakeRows) Err() error         { return r.err }
func (r *fakeRows) Close() error {
	if !r.closed {
		r.closed = true
		select {
		case r.s.f.ended <- r.s.word:
		default:
		}
	}
	return nil
}

var (
	structT = types.StructOf(types.Field{Name: "a", Type: types.Int64}, types.Field{Name: "b", Type: types.Bytes})
	mapT    = types.MapOf(types.Bytes, types.Bytes)
	ts      = time.Date(2019, 5, 1, 12, 30, 0, 123456000, time.UTC)
)

// typesRow is one value of every type pgwire maps.
var typesRow = struct {
	cols []types.Field
	row  []types.Value
}{
	cols: []types.Field{
		{Name: "b", Type: types.Bool}, {Name: "i", Type: types.Int64}, {Name: "f4", Type: types.Float32},
		{Name: "f8", Type: types.Float64}, {Name: "s", Type: types.String}, {Name: "by", Type: types.Bytes},
		{Name: "d", Type: types.Date}, {Name: "ts", Type: types.Timestamp},
		{Name: "ai", Type: types.ArrayOf(types.Int64)}, {Name: "as", Type: types.ArrayOf(types.String)},
		{Name: "ab", Type: types.ArrayOf(types.Bytes)}, {Name: "m", Type: mapT}, {Name: "st", Type: structT},
		{Name: "n", Type: types.Int64},
	},
	row: []types.Value{
		types.BoolValue(true), types.Int64Value(-42), types.Float32Value(1.5), types.Float64Value(0.1),
		types.StringValue("héllo"), types.BytesValue([]byte{0, 1, 0xff}), types.DateValue(18017),
		types.TimeValue(ts),
		types.ArrayValue(types.ArrayOf(types.Int64), []types.Value{types.Int64Value(1), types.Int64Value(2)}),
		types.ArrayValue(types.ArrayOf(types.String), []types.Value{types.StringValue("a b"), types.NullOf(types.String)}),
		types.ArrayValue(types.ArrayOf(types.Bytes), []types.Value{types.BytesValue([]byte("hi"))}),
		types.MapValue(mapT, []types.Value{types.BytesValue([]byte("k")), types.BytesValue([]byte("v")),
			types.BytesValue([]byte{0xfe}), types.BytesValue([]byte(`\x`))}),
		types.StructValue(structT, []types.Value{types.Int64Value(7), types.BytesValue([]byte("x"))}),
		types.NullOf(types.Int64),
	},
}

// startServer serves pgwire with opts (Executor defaults to a fake) on a
// loopback listener and returns its address and the fake.
func startServer(t testing.TB, opts pgwire.Options) (string, *fakeExec) {
	t.Helper()
	f := newFake()
	if opts.Executor == nil {
		opts.Executor = f
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := pgwire.NewServer(opts)
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	t.Cleanup(func() {
		s.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return l.Addr().String(), f
}
