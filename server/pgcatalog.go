package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// pgCatalog answers the PostgreSQL-dialect catalog queries tools send
// (pgwire.Catalog) with the pgcatalog emulator over the live storage
// catalog: every run reads the tables afresh.
type pgCatalog struct{ store *storage.Engine }

var (
	_ pgwire.Catalog           = pgCatalog{}
	_ pgcatalog.Source         = pgSource{}
	_ pgcatalog.DatabaseLister = pgSource{}
)

// Prepare implements pgwire.Catalog.
func (c pgCatalog) Prepare(ctx context.Context, s pgwire.Session, query string, paramOIDs []uint32) (pgwire.CatalogStatement, bool, error) {
	if !pgcatalog.Handles(query) {
		return nil, false, nil
	}
	st, err := pgcatalog.Prepare(query, paramOIDs)
	if err != nil {
		return nil, true, err
	}
	return &catStatement{st: st, src: pgSource{c.store}, sess: s}, true, nil
}

// catStatement adapts a pgcatalog.Statement: its text results become
// values of the types pgwire encodes for their OIDs.
type catStatement struct {
	st   *pgcatalog.Statement
	src  pgSource
	sess pgwire.Session
}

// Columns implements pgwire.Statement.
func (s *catStatement) Columns() []types.Field {
	cols := s.st.Columns()
	out := make([]types.Field, len(cols))
	for i, c := range cols {
		out[i] = types.Field{Name: c.Name, Type: catValueType(c.TypeOID)}
	}
	return out
}

// ColumnOIDs implements pgwire.CatalogStatement.
func (s *catStatement) ColumnOIDs() []uint32 {
	cols := s.st.Columns()
	out := make([]uint32, len(cols))
	for i, c := range cols {
		out[i] = c.TypeOID
	}
	return out
}

// ParamOIDs implements pgwire.CatalogStatement.
func (s *catStatement) ParamOIDs() []uint32 { return s.st.ParamOIDs() }

// Run implements pgwire.Statement. Parameter $n arrives as "pn".
func (s *catStatement) Run(ctx context.Context, params map[string]types.Value) (pgwire.Rows, error) {
	args := make([]*string, len(s.st.ParamOIDs()))
	for i := range args {
		if v, ok := params["p"+strconv.Itoa(i+1)]; ok && !v.IsNull() {
			text := paramText(v)
			args[i] = &text
		}
	}
	res, err := s.st.Run(ctx, s.src, catSession(s.sess), args)
	if err != nil {
		return nil, err
	}
	cols := s.Columns()
	return &catRows{res: res, cols: cols, row: make([]types.Value, len(cols)), i: -1}, nil
}

// paramText renders a parameter as the text the emulator parses.
func paramText(v types.Value) string {
	switch v.Kind() {
	case types.KindString, types.KindBytes:
		return v.Str()
	case types.KindBool:
		if v.Bool() {
			return "true"
		}
		return "false"
	}
	return strings.Trim(v.String(), `"`)
}

// catValueType is the value type a catalog column of a PostgreSQL type
// travels as: integers and floats as numbers (binary format needs them),
// bool as BOOL, everything else as its text.
func catValueType(oid uint32) *types.Type {
	switch oid {
	case 16:
		return types.Bool
	case 20, 21, 23, 26, 28:
		return types.Int64
	case 700, 701:
		return types.Float64
	}
	return types.String
}

// catRows streams a materialized catalog result.
type catRows struct {
	res  *pgcatalog.Result
	cols []types.Field
	row  []types.Value
	i    int
	err  error
}

func (r *catRows) Next() bool {
	if r.err != nil || r.i+1 >= len(r.res.Rows) {
		return false
	}
	r.i++
	for j, text := range r.res.Rows[r.i] {
		r.row[j], r.err = catValue(text, r.cols[j].Type)
		if r.err != nil {
			return false
		}
	}
	return true
}

// catValue converts one text value (nil: NULL).
func catValue(text *string, t *types.Type) (types.Value, error) {
	if text == nil {
		return types.NullOf(t), nil
	}
	switch t.Kind {
	case types.KindBool:
		return types.BoolValue(*text == "t" || *text == "true"), nil
	case types.KindInt64:
		n, err := strconv.ParseInt(*text, 10, 64)
		return types.Int64Value(n), err
	case types.KindFloat64:
		f, err := strconv.ParseFloat(*text, 64)
		return types.Float64Value(f), err
	}
	return types.StringValue(*text), nil
}

func (r *catRows) Row() []types.Value { return r.row }
func (r *catRows) Err() error         { return r.err }
func (r *catRows) Close() error       { return nil }

// catSettings are the run-time parameters the emulator may read from the
// session (current_setting, pg_settings, SHOW-like functions).
var catSettings = []string{"search_path", "server_version", "server_version_num", "TimeZone", "DateStyle",
	"client_encoding", "server_encoding", "application_name", "standard_conforming_strings",
	"integer_datetimes", "IntervalStyle", "is_superuser", "max_index_keys", "extra_float_digits"}

func catSession(s pgwire.Session) *pgcatalog.Session {
	out := &pgcatalog.Session{Database: s.Database(), User: s.User(), Settings: map[string]string{}}
	for _, name := range catSettings {
		if v, ok := s.Setting(name); ok {
			out.Settings[name] = v
		}
	}
	out.ApplicationName = out.Settings["application_name"]
	return out
}

// pgSource is the storage catalog as pgcatalog sees it: a database is an
// instance (InstanceOf), a table's columns are what SELECT * returns, typed
// as pgwire sends them.
type pgSource struct{ store *storage.Engine }

// Tables implements pgcatalog.Source.
func (s pgSource) Tables(ctx context.Context, database string) ([]pgcatalog.Table, error) {
	var out []pgcatalog.Table
	for _, st := range s.store.ListTables(InstanceOf(database)) {
		t, err := catalog.FromStorage(st)
		if err != nil {
			continue // a table SQL cannot describe is not shown
		}
		pt := pgcatalog.Table{Name: t.Name, PrimaryKey: t.PrimaryKey()}
		for _, c := range t.Columns(false) {
			if c.Hidden {
				continue
			}
			oid, name := pgwire.TypeOID(c.Type)
			pt.Columns = append(pt.Columns, pgcatalog.Column{Name: c.Name, TypeOID: oid, TypeName: name})
		}
		out = append(out, pt)
	}
	return out, nil
}

// Databases implements pgcatalog.DatabaseLister: every instance, named as a
// client would connect to it.
func (s pgSource) Databases(ctx context.Context) ([]string, error) {
	var out []string
	for _, in := range s.store.ListInstances() {
		p, i, ok := strings.Cut(strings.TrimPrefix(in.Name, "projects/"), "/instances/")
		switch {
		case !ok:
			out = append(out, in.Name)
		case p == i:
			out = append(out, p)
		default:
			out = append(out, p+"."+i)
		}
	}
	return out, nil
}
