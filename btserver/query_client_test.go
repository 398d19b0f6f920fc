package btserver_test

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"cloud.google.com/go/civil"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/sql/types"
)

// manualClock is a server clock that tests move by hand.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newQueryEnv is a server with the fake SQL engine and a manual clock
// starting now.
func newQueryEnv(t *testing.T) (*env, *fakeSQL, *manualClock) {
	t.Helper()
	f := &fakeSQL{}
	clk := &manualClock{now: time.Now()}
	return newEnvOpts(t, btserver.Options{SQL: f, Clock: clk.Now}), f, clk
}

// executeAll runs a bound statement through the official client and
// returns its rows.
func executeAll(t *testing.T, e *env, query string, ptypes map[string]bigtable.SQLType, params map[string]any) []bigtable.ResultRow {
	t.Helper()
	ctx := testCtx(t)
	ps, err := e.client.PrepareStatement(ctx, query, ptypes)
	if err != nil {
		t.Fatalf("PrepareStatement(%s): %v", query, err)
	}
	bs, err := ps.Bind(params)
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	var rows []bigtable.ResultRow
	if err := bs.Execute(ctx, func(r bigtable.ResultRow) bool { rows = append(rows, r); return true }); err != nil {
		t.Fatalf("Execute(%s): %v", query, err)
	}
	return rows
}

// get reads column name of r into a new value of dest's type and returns it.
func get[T any](t *testing.T, r bigtable.ResultRow, name string) T {
	t.Helper()
	var v T
	if err := r.GetByName(name, &v); err != nil {
		t.Fatalf("GetByName(%s) into %T: %v", name, v, err)
	}
	return v
}

func wantEq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestQueryClientAllTypes(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	rows := executeAll(t, e, "SELECT all_types", nil, nil)
	if len(rows) != 3 {
		t.Fatalf("got %d rows, want 3", len(rows))
	}

	// Metadata: names in order, and types the client understands (PROTO
	// as BYTES, ENUM as INT64, MAP<FLOAT64, STRING> as an array of
	// key/value structs, unnamed struct fields named _field_N).
	cols := rows[0].Metadata.Columns
	if len(cols) != len(allTypes) {
		t.Fatalf("got %d columns, want %d", len(cols), len(allTypes))
	}
	for i, c := range cols {
		if c.Name != allTypes[i].Name {
			t.Errorf("column %d: name %q, want %q", i, c.Name, allTypes[i].Name)
		}
	}
	kv := bigtable.StructSQLType{Fields: []bigtable.StructSQLField{
		{Name: "key", Type: bigtable.Float64SQLType{}}, {Name: "value", Type: bigtable.StringSQLType{}}}}
	for name, want := range map[string]bigtable.SQLType{
		"p":    bigtable.BytesSQLType{},
		"e":    bigtable.Int64SQLType{},
		"mf":   bigtable.ArraySQLType{ElemType: kv},
		"mi":   bigtable.MapSQLType{KeyType: bigtable.BytesSQLType{}, ValueType: bigtable.Int64SQLType{}},
		"anon": bigtable.StructSQLType{Fields: []bigtable.StructSQLField{{Name: "_field_1", Type: bigtable.Int64SQLType{}}, {Name: "_field_2", Type: bigtable.StringSQLType{}}}},
	} {
		for _, c := range cols {
			if c.Name == name {
				wantEq(t, "type of "+name, c.SQLType, want)
			}
		}
	}

	r := rows[0]
	wantEq(t, "k", get[[]byte](t, r, "k"), []byte("r1"))
	wantEq(t, "s", get[string](t, r, "s"), "héllo")
	wantEq(t, "i", get[int64](t, r, "i"), int64(-7))
	wantEq(t, "f32", get[float32](t, r, "f32"), float32(1.5))
	wantEq(t, "f64", get[float64](t, r, "f64"), 2.25)
	wantEq(t, "b", get[bool](t, r, "b"), true)
	wantEq(t, "ts", get[time.Time](t, r, "ts").UnixMicro(), tsMicros)
	wantEq(t, "d", get[civil.Date](t, r, "d"), civil.Date{Year: 2024, Month: 6, Day: 1})
	one, three := int64(1), int64(3)
	wantEq(t, "arr", get[[]*int64](t, r, "arr"), []*int64{&one, nil, &three})
	st := get[bigtable.Struct](t, r, "st")
	var a int64
	var sb string
	if err := st.GetByName("a", &a); err != nil || a != 1 {
		t.Errorf("st.a = %d, %v", a, err)
	}
	if err := st.GetByName("b", &sb); err != nil || sb != "x" {
		t.Errorf("st.b = %q, %v", sb, err)
	}
	anon := get[bigtable.Struct](t, r, "anon")
	if err := anon.GetByIndex(0, &a); err != nil || a != 2 {
		t.Errorf("anon[0] = %d, %v", a, err)
	}
	wantEq(t, "m", get[map[string][]byte](t, r, "m"), map[string][]byte{b64("a"): []byte("1"), b64("b"): []byte("2")})
	wantEq(t, "mi", get[map[string]int64](t, r, "mi"), map[string]int64{b64("n"): 5})
	wantEq(t, "mk", get[map[int64]string](t, r, "mk"), map[int64]string{1: "one"})
	hist := get[map[string][]bigtable.Struct](t, r, "hist")[b64("q")]
	if len(hist) != 2 {
		t.Fatalf("hist[q] has %d versions, want 2", len(hist))
	}
	var ts time.Time
	var val []byte
	if err := hist[0].GetByName("timestamp", &ts); err != nil || ts.UnixMicro() != 5 {
		t.Errorf("hist[q][0].timestamp = %v, %v", ts, err)
	}
	if err := hist[1].GetByName("value", &val); err != nil || string(val) != "old" {
		t.Errorf("hist[q][1].value = %q, %v", val, err)
	}
	mf := get[[]bigtable.Struct](t, r, "mf")
	var fk float64
	var fv string
	if len(mf) != 1 || mf[0].GetByName("key", &fk) != nil || mf[0].GetByName("value", &fv) != nil || fk != 0.5 || fv != "half" {
		t.Errorf("mf = %v (%v, %q)", mf, fk, fv)
	}
	wantEq(t, "p", get[[]byte](t, r, "p"), []byte{8, 1})
	wantEq(t, "e", get[int64](t, r, "e"), int64(2))
	arrst := get[[]bigtable.Struct](t, r, "arrst")
	var ns *string
	if len(arrst) != 1 || arrst[0].GetByName("b", &ns) != nil || ns != nil {
		t.Errorf("arrst = %v, b = %v", arrst, ns)
	}

	// Row 2: every column NULL.
	for _, c := range allTypes {
		var v any
		if err := rows[1].GetByName(c.Name, &v); err != nil || v != nil {
			t.Errorf("row 2 %s: got %#v, %v; want NULL", c.Name, v, err)
		}
	}
	var ps *string
	if err := rows[1].GetByName("s", &ps); err != nil || ps != nil {
		t.Errorf("row 2 s into *string: %v, %v", ps, err)
	}

	// Row 3: empty bytes, a date before 1970, empty array and map.
	wantEq(t, "row 3 k", get[[]byte](t, rows[2], "k"), []byte{})
	wantEq(t, "row 3 d", get[civil.Date](t, rows[2], "d"), civil.Date{Year: 1969, Month: 12, Day: 31})
	wantEq(t, "row 3 arr", get[[]*int64](t, rows[2], "arr"), []*int64{})
	wantEq(t, "row 3 m", get[map[string][]byte](t, rows[2], "m"), map[string][]byte{})
}

func TestQueryClientParams(t *testing.T) {
	e, f, _ := newQueryEnv(t)
	tm := time.Date(2025, 3, 31, 3, 26, 33, 489256789, time.UTC)
	ptypes := map[string]bigtable.SQLType{
		"by": bigtable.BytesSQLType{}, "s": bigtable.StringSQLType{}, "i": bigtable.Int64SQLType{},
		"f32": bigtable.Float32SQLType{}, "f64": bigtable.Float64SQLType{}, "bo": bigtable.BoolSQLType{},
		"ts": bigtable.TimestampSQLType{}, "d": bigtable.DateSQLType{},
		"ai":   bigtable.ArraySQLType{ElemType: bigtable.Int64SQLType{}},
		"as":   bigtable.ArraySQLType{ElemType: bigtable.StringSQLType{}},
		"ad":   bigtable.ArraySQLType{ElemType: bigtable.DateSQLType{}},
		"null": bigtable.StringSQLType{},
	}
	params := map[string]any{
		"by": []byte("foo"), "s": "str", "i": int64(42), "f32": float32(1.25), "f64": -0.5, "bo": true,
		"ts": tm, "d": civil.Date{Year: 2024, Month: 2, Day: 29},
		"ai": []any{int64(1), nil, int64(2)}, "as": []string{"x", "y"},
		"ad": []civil.Date{{Year: 1, Month: 1, Day: 1}}, "null": nil,
	}
	rows := executeAll(t, e, "SELECT params", ptypes, params)
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1", len(rows))
	}
	f.mu.Lock()
	declared := f.last
	f.mu.Unlock()
	wantTypes := map[string]*types.Type{
		"by": types.Bytes, "s": types.String, "i": types.Int64, "f32": types.Float32, "f64": types.Float64,
		"bo": types.Bool, "ts": types.Timestamp, "d": types.Date, "ai": types.ArrayOf(types.Int64),
		"as": types.ArrayOf(types.String), "ad": types.ArrayOf(types.Date), "null": types.String,
	}
	for n, want := range wantTypes {
		if !declared[n].Equal(want) {
			t.Errorf("param %s declared as %v, want %v", n, declared[n], want)
		}
	}
	r := rows[0]
	wantEq(t, "by", get[[]byte](t, r, "by"), []byte("foo"))
	wantEq(t, "s", get[string](t, r, "s"), "str")
	wantEq(t, "i", get[int64](t, r, "i"), int64(42))
	wantEq(t, "f32", get[float32](t, r, "f32"), float32(1.25))
	wantEq(t, "f64", get[float64](t, r, "f64"), -0.5)
	wantEq(t, "bo", get[bool](t, r, "bo"), true)
	wantEq(t, "ts (truncated to µs)", get[time.Time](t, r, "ts").UTC(), tm.Truncate(time.Microsecond))
	wantEq(t, "d", get[civil.Date](t, r, "d"), civil.Date{Year: 2024, Month: 2, Day: 29})
	one, two := int64(1), int64(2)
	wantEq(t, "ai", get[[]*int64](t, r, "ai"), []*int64{&one, nil, &two})
	wantEq(t, "as", get[[]string](t, r, "as"), []string{"x", "y"})
	wantEq(t, "ad", get[[]civil.Date](t, r, "ad"), []civil.Date{{Year: 1, Month: 1, Day: 1}})
	wantEq(t, "null", get[*string](t, r, "null"), (*string)(nil))
}

// TestQueryClientExpiry: once the server's clock passes valid_until, the
// client gets PREPARED_QUERY_EXPIRED, prepares again and succeeds.
func TestQueryClientExpiry(t *testing.T) {
	e, f, clk := newQueryEnv(t)
	ctx := testCtx(t)
	ps, err := e.client.PrepareStatement(ctx, "SELECT many", nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ps.Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n := 0
		if err := bs.Execute(ctx, func(bigtable.ResultRow) bool { n++; return true }); err != nil {
			t.Fatalf("Execute: %v", err)
		}
		return n
	}
	if n := count(); n != manyCount {
		t.Fatalf("got %d rows, want %d", n, manyCount)
	}
	if n := count(); n != manyCount {
		t.Fatalf("again: got %d rows, want %d", n, manyCount)
	}
	if got := f.prepares.Load(); got != 1 {
		t.Errorf("prepares after two executions: %d, want 1 (the statement is cached)", got)
	}
	clk.Advance(2 * time.Hour)
	if n := count(); n != manyCount {
		t.Fatalf("after expiry: got %d rows, want %d", n, manyCount)
	}
	if got := f.prepares.Load(); got != 2 {
		t.Errorf("prepares after expiry: %d, want 2 (the client prepared again)", got)
	}
}

// TestQueryClientStopEarly: a callback returning false ends Execute
// without an error.
func TestQueryClientStopEarly(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	ctx := testCtx(t)
	ps, err := e.client.PrepareStatement(ctx, "SELECT many", nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, _ := ps.Bind(nil)
	n := 0
	if err := bs.Execute(ctx, func(bigtable.ResultRow) bool { n++; return n < 10 }); err != nil {
		t.Fatal(err)
	}
	if n != 10 {
		t.Errorf("callback ran %d times, want 10", n)
	}
}

// btserverOptions are server options with f as the SQL engine.
func btserverOptions(f *fakeSQL) btserver.Options { return btserver.Options{SQL: f} }

// TestQueryClientConcurrent runs one prepared statement from several
// goroutines: the cached statement is shared.
func TestQueryClientConcurrent(t *testing.T) {
	e, f, _ := newQueryEnv(t)
	ctx := testCtx(t)
	ps, err := e.client.PrepareStatement(ctx, "SELECT all_types", nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ps.Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			n := 0
			if err := bs.Execute(ctx, func(bigtable.ResultRow) bool { n++; return true }); err != nil || n != 3 {
				errs <- fmt.Errorf("got %d rows, err %v", n, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := f.prepares.Load(); got != 1 {
		t.Errorf("prepares: %d, want 1", got)
	}
}
