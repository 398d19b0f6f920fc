package btserver_test

import (
	"math"
	"testing"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/genproto/googleapis/type/date"
	"google.golang.org/grpc/codes"
)

func TestQueryPrepareErrors(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	mapType := &btpb.Type{Kind: &btpb.Type_MapType{MapType: &btpb.Type_Map{KeyType: ptString(), ValueType: ptString()}}}
	for _, tc := range []struct {
		desc string
		req  *btpb.PrepareQueryRequest
		code codes.Code
	}{
		{"bad instance", &btpb.PrepareQueryRequest{InstanceName: "projects/p", Query: "SELECT many"}, codes.InvalidArgument},
		{"empty query", &btpb.PrepareQueryRequest{InstanceName: instName}, codes.InvalidArgument},
		{"MAP param", &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT params", ParamTypes: map[string]*btpb.Type{"m": mapType}}, codes.InvalidArgument},
		{"nested array param", &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT params", ParamTypes: map[string]*btpb.Type{"a": ptArray(ptArray(ptInt64()))}}, codes.InvalidArgument},
		{"untyped param", &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT params", ParamTypes: map[string]*btpb.Type{"a": {}}}, codes.InvalidArgument},
		{"syntax error", &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELEC"}, codes.InvalidArgument},
		// Pinned: an unknown table is NOT_FOUND, as for ReadRows (spec §10).
		{"undefined table", &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT undefined_table"}, codes.NotFound},
	} {
		_, err := e.data.PrepareQuery(testCtx(t), tc.req)
		wantCode(t, tc.desc, err, tc.code)
	}
}

func TestQueryExecuteErrors(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	prep := prepareRaw(t, e, "SELECT params", map[string]*btpb.Type{"i": ptInt64(), "a": ptArray(ptInt64())})
	arr := &btpb.Value{Kind: &btpb.Value_ArrayValue{ArrayValue: &btpb.ArrayValue{Values: []*btpb.Value{pvInt(1)}}}}
	good := func() map[string]*btpb.Value { return map[string]*btpb.Value{"i": pvInt(1), "a": arr} }
	with := func(name string, v *btpb.Value) map[string]*btpb.Value {
		p := good()
		if v == nil {
			delete(p, name)
		} else {
			p[name] = v
		}
		return p
	}
	badToken := append([]byte(nil), prep.GetPreparedQuery()...)
	badToken[len(badToken)/2] ^= 1
	for _, tc := range []struct {
		desc string
		req  *btpb.ExecuteQueryRequest
		code codes.Code
	}{
		{"both query and prepared_query", &btpb.ExecuteQueryRequest{InstanceName: instName, Query: "SELECT many", PreparedQuery: prep.GetPreparedQuery(), Params: good()}, codes.InvalidArgument},
		{"neither", &btpb.ExecuteQueryRequest{InstanceName: instName}, codes.InvalidArgument},
		{"data_format with prepared_query", &btpb.ExecuteQueryRequest{InstanceName: instName, PreparedQuery: prep.GetPreparedQuery(), Params: good(),
			DataFormat: &btpb.ExecuteQueryRequest_ProtoFormat{ProtoFormat: &btpb.ProtoFormat{}}}, codes.InvalidArgument},
		{"corrupt token", &btpb.ExecuteQueryRequest{InstanceName: instName, PreparedQuery: badToken, Params: good()}, codes.InvalidArgument},
		{"token of another instance", &btpb.ExecuteQueryRequest{InstanceName: "projects/proj/instances/other", PreparedQuery: prep.GetPreparedQuery(), Params: good()}, codes.InvalidArgument},
		{"corrupt resume token", &btpb.ExecuteQueryRequest{InstanceName: instName, PreparedQuery: prep.GetPreparedQuery(), Params: good(), ResumeToken: []byte("x")}, codes.InvalidArgument},
		{"param type mismatch", execPrepared(prep, with("i", &btpb.Value{Type: ptString(), Kind: &btpb.Value_IntValue{IntValue: 1}}), nil), codes.InvalidArgument},
		{"param of the wrong kind", execPrepared(prep, with("i", &btpb.Value{Kind: &btpb.Value_StringValue{StringValue: "1"}}), nil), codes.InvalidArgument},
		{"missing param", execPrepared(prep, with("i", nil), nil), codes.InvalidArgument},
		{"undeclared param", execPrepared(prep, with("zzz", pvInt(1)), nil), codes.InvalidArgument},
		{"typed array element", execPrepared(prep, with("a", &btpb.Value{Kind: &btpb.Value_ArrayValue{ArrayValue: &btpb.ArrayValue{
			Values: []*btpb.Value{{Type: ptInt64(), Kind: &btpb.Value_IntValue{IntValue: 1}}}}}}), nil), codes.InvalidArgument},
	} {
		_, err := execRaw(testCtx(t), e, tc.req)
		wantCode(t, tc.desc, err, tc.code)
	}
	// A typed value that matches, and a typed NULL, are fine.
	ok := with("i", &btpb.Value{Type: ptInt64()})
	ok["a"] = &btpb.Value{Type: ptArray(ptInt64())}
	msgs, err := execRaw(testCtx(t), e, execPrepared(prep, ok, nil))
	if err != nil {
		t.Fatalf("typed NULLs: %v", err)
	}
	if d := decode(t, msgs, 2); len(d.rows) != 1 || d.rows[0][0].GetKind() != nil || d.rows[0][1].GetKind() != nil {
		t.Errorf("typed NULLs came back as %v", d.rows)
	}
}

func TestQueryParamValueErrors(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	ptypes := map[string]*btpb.Type{
		"f": {Kind: &btpb.Type_Float32Type{Float32Type: &btpb.Type_Float32{}}},
		"d": {Kind: &btpb.Type_DateType{DateType: &btpb.Type_Date{}}},
	}
	prep := prepareRaw(t, e, "SELECT params", ptypes)
	fl := func(f float64) *btpb.Value { return &btpb.Value{Kind: &btpb.Value_FloatValue{FloatValue: f}} }
	dt := func(y, m, d int32) *btpb.Value {
		return &btpb.Value{Kind: &btpb.Value_DateValue{DateValue: &date.Date{Year: y, Month: m, Day: d}}}
	}
	for _, tc := range []struct {
		desc string
		f, d *btpb.Value
	}{
		{"NaN", fl(math.NaN()), dt(2024, 1, 1)},
		{"infinity", fl(math.Inf(1)), dt(2024, 1, 1)},
		{"FLOAT32 overflow", fl(1e300), dt(2024, 1, 1)},
		{"February 30", fl(1), dt(2024, 2, 30)},
		{"partial date", fl(1), dt(2024, 0, 0)},
	} {
		_, err := execRaw(testCtx(t), e, execPrepared(prep, map[string]*btpb.Value{"f": tc.f, "d": tc.d}, nil))
		wantCode(t, tc.desc, err, codes.InvalidArgument)
	}
}

func TestQueryRunErrors(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	for _, tc := range []struct {
		query string
		code  codes.Code
	}{
		{"SELECT divzero", codes.OutOfRange},
		{"SELECT nan", codes.OutOfRange},
	} {
		prep := prepareRaw(t, e, tc.query, nil)
		_, err := execRaw(testCtx(t), e, execPrepared(prep, nil, nil))
		wantCode(t, tc.query, err, tc.code)
	}
}

func TestQueryUnimplementedWithoutSQL(t *testing.T) {
	e := newEnv(t)
	_, err := e.data.PrepareQuery(testCtx(t), &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT 1"})
	wantCode(t, "PrepareQuery", err, codes.Unimplemented)
	_, err = execRaw(testCtx(t), e, &btpb.ExecuteQueryRequest{InstanceName: instName, Query: "SELECT 1"})
	wantCode(t, "ExecuteQuery", err, codes.Unimplemented)
}
