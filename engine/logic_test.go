package engine_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

const testInstance = "projects/p/instances/i"

// TestLogic runs the end-to-end SQL suites in testdata/logic. Each file
// gets a fresh in-memory storage engine. Commands:
//
//	create-table name=<t>
//	<family> [sum]                          one family per line
//	key <row-key schema>                    the rowkeyschema text form
//
//	write table=<t>
//	<row> <family>:<qualifier>@<ts> <value>  one cell per line; ts is
//	                                         micros or RFC 3339; a value
//	                                         i64:N (f64:X) is 8 bytes big-endian,
//	                                         f32s:X;Y;... 4-byte floats, add:N
//	                                         an AddToCell on an aggregate family;
//	                                         Go-quoted tokens allowed
//
//	create-bundle table=<t> name=<bundle>
//	<FileDescriptorSet in protobuf text format>
//
//	query [params=(name:TYPE=value,...)]
//	<SQL>
//	----
//	column names, then one row per line (values as GoogleSQL literals), or
//	the error with its code, line:column and a caret
//
// EXPLAIN ANALYZE queries print without durations. Param TYPEs: BYTES,
// STRING, INT64, FLOAT64, BOOL, TIMESTAMP, ARRAY<BYTES> (values split by
// '|'); a value NULL binds a typed NULL.
func TestLogic(t *testing.T) {
	datadriven.Walk(t, "testdata/logic", func(t *testing.T, path string) {
		st, err := storage.Open("", storage.Options{InMemory: true, SweepInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		eng := engine.New(st, engine.Options{})
		ctx := context.Background()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "create-table":
				return createTable(ctx, t, st, td)
			case "write":
				return writeCells(ctx, t, st, td)
			case "create-bundle":
				return createBundle(ctx, t, st, td)
			case "query":
				return runQuery(ctx, eng, td)
			}
			td.Fatalf(t, "unknown command %s", td.Cmd)
			return ""
		})
	})
}

func createTable(ctx context.Context, t *testing.T, st *storage.Engine, td *datadriven.TestData) string {
	var name string
	td.ScanArgs(t, "name", &name)
	var spec storage.TableSpec
	for _, l := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if text, ok := strings.CutPrefix(strings.TrimSpace(l), "key "); ok {
			ks, err := rowkeyschema.Parse(text)
			if err == nil {
				err = ks.Validate()
			}
			if err != nil {
				return "error: " + err.Error()
			}
			spec.RowKeySchema = []byte(ks.String())
			continue
		}
		fam := storage.Family{Name: f[0]}
		if len(f) > 1 && f[1] == "sum" {
			fam.Aggregate = storage.Sum
		}
		spec.Families = append(spec.Families, fam)
	}
	if _, err := st.CreateTable(ctx, testInstance, name, spec); err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

// createBundle attaches a schema bundle to a table, as the admin API's
// CreateSchemaBundle does (spec §3.3).
func createBundle(ctx context.Context, t *testing.T, st *storage.Engine, td *datadriven.TestData) string {
	var table, name string
	td.ScanArgs(t, "table", &table)
	td.ScanArgs(t, "name", &name)
	raw, err := protoschema.DescriptorSetFromText(td.Input)
	if err != nil {
		return "error: " + err.Error()
	}
	if _, err := protoschema.Load(name, raw); err != nil {
		return "error: " + err.Error()
	}
	_, err = st.AlterTable(ctx, testInstance, table, func(tb *storage.Table) error {
		tb.Bundles = append(tb.Bundles, storage.SchemaBundle{Name: name, Descriptors: raw, Etag: "1"})
		return nil
	})
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}

func writeCells(ctx context.Context, t *testing.T, st *storage.Engine, td *datadriven.TestData) string {
	var table string
	td.ScanArgs(t, "table", &table)
	tgt := storage.Target{Instance: testInstance, Table: table}
	for _, l := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		toks, err := tokens(l)
		if err != nil || len(toks) != 3 {
			td.Fatalf(t, "bad cell line %q: %v", l, err)
		}
		col, tsText, _ := strings.Cut(toks[1], "@")
		fam, qual, _ := strings.Cut(col, ":")
		ts, err := parseTS(tsText)
		if err != nil {
			td.Fatalf(t, "bad timestamp %q: %v", tsText, err)
		}
		m := storage.Mutation{Kind: storage.SetCell, Family: fam, Qualifier: []byte(qual), Timestamp: ts,
			Value: cellValue(toks[2])}
		if n, ok := strings.CutPrefix(toks[2], "add:"); ok {
			m.Kind, m.Value = storage.AddToCell, nil
			m.Int64Input, _ = strconv.ParseInt(n, 10, 64)
		}
		if err := st.MutateRow(ctx, tgt, []byte(toks[0]), []storage.Mutation{m}); err != nil {
			return "error: " + err.Error()
		}
	}
	return "ok"
}

// cellValue parses a cell value: i64:N and f64:X are 8 bytes big-endian,
// f32s:X,Y,... concatenated 4-byte floats (vectors), anything else the raw
// bytes.
func cellValue(s string) []byte {
	if n, ok := strings.CutPrefix(s, "i64:"); ok {
		i, _ := strconv.ParseInt(n, 10, 64)
		return binary.BigEndian.AppendUint64(nil, uint64(i))
	}
	if n, ok := strings.CutPrefix(s, "f64:"); ok {
		f, _ := strconv.ParseFloat(n, 64)
		return binary.BigEndian.AppendUint64(nil, math.Float64bits(f))
	}
	if n, ok := strings.CutPrefix(s, "f32s:"); ok {
		var out []byte
		for _, x := range strings.FieldsFunc(n, func(r rune) bool { return r == ',' || r == ';' }) {
			f, _ := strconv.ParseFloat(x, 32)
			out = binary.BigEndian.AppendUint32(out, math.Float32bits(float32(f)))
		}
		return out
	}
	return []byte(s)
}

// tokens splits a line on spaces; a token starting with " is Go-quoted.
func tokens(l string) ([]string, error) {
	var out []string
	for l = strings.TrimSpace(l); l != ""; l = strings.TrimSpace(l) {
		if l[0] == '"' {
			q, err := strconv.QuotedPrefix(l)
			if err != nil {
				return nil, err
			}
			s, _ := strconv.Unquote(q)
			out, l = append(out, s), l[len(q):]
			continue
		}
		tok, rest, _ := strings.Cut(l, " ")
		out, l = append(out, tok), rest
	}
	return out, nil
}

func parseTS(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	tm, err := time.Parse(time.RFC3339, s)
	return tm.UnixMicro(), err
}

func runQuery(ctx context.Context, eng *engine.Engine, td *datadriven.TestData) string {
	decl, vals, err := parseParamArgs(td)
	if err != nil {
		return "bad params: " + err.Error()
	}
	q := strings.TrimSpace(td.Input)
	stmt, err := eng.Prepare(ctx, testInstance, q, decl)
	if err != nil {
		return sqlerr.Caret(q, err)
	}
	rows, err := stmt.Run(engine.WithoutTimes(ctx), vals)
	if err != nil {
		return sqlerr.Caret(q, err)
	}
	defer rows.Close()
	var b strings.Builder
	names := make([]string, len(stmt.Columns()))
	for i, c := range stmt.Columns() {
		names[i] = c.Name
	}
	if names[0] != "plan" || len(names) > 1 {
		b.WriteString(strings.Join(names, " | ") + "\n")
	}
	for rows.Next() {
		r := rows.Row()
		if names[0] == "plan" && len(names) == 1 {
			b.WriteString(r[0].Str() + "\n")
			continue
		}
		s := make([]string, len(r))
		for i, v := range r {
			s[i] = v.String()
		}
		b.WriteString(strings.Join(s, " | ") + "\n")
	}
	if err := rows.Err(); err != nil {
		b.WriteString(sqlerr.Caret(q, err))
	}
	return b.String()
}

func parseParamArgs(td *datadriven.TestData) (map[string]*types.Type, map[string]types.Value, error) {
	decl := map[string]*types.Type{}
	vals := map[string]types.Value{}
	for _, a := range td.CmdArgs {
		if a.Key != "params" {
			continue
		}
		for _, v := range a.Vals {
			nt, val, hasVal := strings.Cut(v, "=")
			name, typ, _ := strings.Cut(nt, ":")
			t, ok := map[string]*types.Type{"BYTES": types.Bytes, "STRING": types.String, "INT64": types.Int64,
				"FLOAT64": types.Float64, "BOOL": types.Bool, "TIMESTAMP": types.Timestamp,
				"ARRAY<BYTES>": types.ArrayOf(types.Bytes)}[typ]
			if !ok {
				return nil, nil, fmt.Errorf("unknown type %q", typ)
			}
			decl[name] = t
			if !hasVal {
				continue
			}
			pv, err := paramValue(t, val)
			if err != nil {
				return nil, nil, err
			}
			vals[name] = pv
		}
	}
	return decl, vals, nil
}

func paramValue(t *types.Type, s string) (types.Value, error) {
	if s == "NULL" {
		return types.NullOf(t), nil
	}
	switch t.Kind {
	case types.KindBytes:
		return types.BytesValue(cellValue(s)), nil
	case types.KindString:
		return types.StringValue(s), nil
	case types.KindInt64:
		n, err := strconv.ParseInt(s, 10, 64)
		return types.Int64Value(n), err
	case types.KindFloat64:
		f, err := strconv.ParseFloat(s, 64)
		return types.Float64Value(f), err
	case types.KindBool:
		return types.BoolValue(s == "true"), nil
	case types.KindTimestamp:
		tm, err := time.Parse(time.RFC3339, s)
		return types.TimeValue(tm), err
	case types.KindArray:
		var el []types.Value
		for _, p := range strings.Split(s, "|") {
			el = append(el, types.BytesValue([]byte(p)))
		}
		return types.ArrayValue(t, el), nil
	}
	return types.Value{}, fmt.Errorf("unsupported param type %s", t)
}
