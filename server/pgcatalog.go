package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// pgCatalog answers the PostgreSQL-dialect queries tools send with the
// pgcatalog emulator over the live storage catalog (every run reads the
// tables afresh): catalog queries first (pgwire.Catalog), and queries over
// the instance's tables that GoogleSQL rejected (pgwire.FallbackCatalog),
// whose rows it reads through the SQL engine (pgSource.Scan).
type pgCatalog struct {
	store *storage.Engine
	sql   *engine.Engine
}

var (
	_ pgwire.FallbackCatalog   = pgCatalog{}
	_ pgcatalog.Source         = pgSource{}
	_ pgcatalog.DatabaseLister = pgSource{}
)

// Prepare implements pgwire.Catalog.
func (c pgCatalog) Prepare(ctx context.Context, s pgwire.Session, query string, paramOIDs []uint32) (pgwire.CatalogStatement, bool, error) {
	if !pgcatalog.Handles(query) {
		return nil, false, nil
	}
	src, sess := c.source(), catSession(s)
	st, err := pgcatalog.PrepareWith(ctx, src, sess, query, paramOIDs)
	var pe *pgcatalog.Error
	if errors.As(err, &pe) && pe.Code == pgcatalog.CodeSyntax && !pgcatalog.ClearlyPostgres(query) {
		// Not PostgreSQL after all: a GoogleSQL query that names a
		// function PostgreSQL has too (ARRAY_TO_STRING([...], ',')).
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return &catStatement{st: st, src: src, sess: s}, true, nil
}

// PrepareFallback implements pgwire.FallbackCatalog: the emulator evaluates
// a statement GoogleSQL could not, with the instance's tables as relations
// of schema public. When it fails too, its error is reported for a
// statement PostgreSQL's parser read (the failure is of meaning: a function
// it lacks, a column definition list on the wrong function), or that
// clearly is PostgreSQL (pgcatalog.ClearlyPostgres: a double-quoted table
// name, alias or dotted name, a :: cast, public.t). Otherwise the GoogleSQL
// error stands, since GoogleSQL is the language users write: when neither
// language can parse the text, and when PostgreSQL's only complaint is an
// unknown column, which is what a GoogleSQL string in double quotes reads
// as.
func (c pgCatalog) PrepareFallback(ctx context.Context, s pgwire.Session, query string, paramOIDs []uint32) (pgwire.CatalogStatement, bool, error) {
	src := c.source()
	st, err := pgcatalog.PrepareWith(ctx, src, catSession(s), query, paramOIDs)
	if err != nil {
		var pe *pgcatalog.Error
		meaning := errors.As(err, &pe) && !pe.FromParser() && pe.Code != pgcatalog.CodeUndefinedColumn
		return nil, meaning || pgcatalog.ClearlyPostgres(query), err
	}
	return &catStatement{st: st, src: src, sess: s}, true, nil
}

func (c pgCatalog) source() pgSource { return pgSource{store: c.store, sql: c.sql} }

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

// Run implements pgwire.Statement. Parameter $n arrives as "pn". The rows
// stream as far as the statement's plan allows (pgcatalog.Statement.Open).
func (s *catStatement) Run(ctx context.Context, params map[string]types.Value) (pgwire.Rows, error) {
	args := make([]*string, len(s.st.ParamOIDs()))
	for i := range args {
		if v, ok := params["p"+strconv.Itoa(i+1)]; ok && !v.IsNull() {
			text := paramText(v)
			args[i] = &text
		}
	}
	rows, err := s.st.Open(ctx, s.src, catSession(s.sess), args)
	if err != nil {
		return nil, err
	}
	cols := s.Columns()
	return &catRows{rows: rows, cols: cols, row: make([]types.Value, len(cols))}, nil
}

// paramText renders a parameter as the text the emulator parses: bytea as
// \x and hex, as a table's bytea values read; timestamps in UTC and dates
// in their output forms; numbers in decimal.
func paramText(v types.Value) string {
	switch v.Kind() {
	case types.KindString:
		return v.Str()
	case types.KindBytes:
		return `\x` + hex.EncodeToString(v.Bytes())
	case types.KindBool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case types.KindTimestamp: // a timestamptz's canonical text: UTC
		return v.Time().Format("2006-01-02 15:04:05.999999-07")
	case types.KindDate:
		return time.Unix(v.Int64()*86400, 0).UTC().Format("2006-01-02")
	case types.KindInt64:
		return strconv.FormatInt(v.Int64(), 10)
	case types.KindFloat32, types.KindFloat64:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	case types.KindArray: // as array_out writes it: asyncpg binds $1::oid[] in binary
		var b strings.Builder
		b.WriteByte('{')
		for i, e := range v.Elems() {
			if i > 0 {
				b.WriteByte(',')
			}
			if e.IsNull() {
				b.WriteString("NULL")
				continue
			}
			t := paramText(e)
			if t == "" || strings.EqualFold(t, "NULL") || strings.ContainsAny(t, "{},\"\\ \t\n\r\v\f") {
				t = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t) + `"`
			}
			b.WriteString(t)
		}
		b.WriteByte('}')
		return b.String()
	}
	return strings.Trim(v.String(), `"`)
}

// catValueType is the value type a catalog column of a PostgreSQL type
// travels as: integers and floats as numbers (binary format needs them;
// a real as FLOAT32, so it prints with a real's digits),
// bool as BOOL, bytea as BYTES, date and timestamps as DATE and TIMESTAMP,
// everything else (json and jsonb too: pgwire sends a STRING there as the
// JSON text it is) as its text. A user table's value that reaches a result
// column unchanged travels as the engine produced it instead (catRows).
func catValueType(oid uint32) *types.Type {
	switch oid {
	case 16:
		return types.Bool
	case 20, 21, 23, 26, 28:
		return types.Int64
	case 700:
		return types.Float32
	case 701:
		return types.Float64
	case 17:
		return types.Bytes
	case 1082:
		return types.Date
	case 1114, 1184:
		return types.Timestamp
	}
	return types.String
}

// catRows streams a catalog result. A column value that is a scanned table
// value (pgcatalog Rows.Natives) is the engine's own value, so it is sent
// exactly as the GoogleSQL path sends it; other values are converted from
// their text.
type catRows struct {
	rows *pgcatalog.Rows
	cols []types.Field
	row  []types.Value
	err  error
}

func (r *catRows) Next() bool {
	if r.err != nil || !r.rows.Next() {
		return false
	}
	nat := r.rows.Natives()
	for j, text := range r.rows.Text() {
		if v, ok := nat[j].(types.Value); ok {
			r.row[j] = v
			continue
		}
		if r.row[j], r.err = catValue(text, r.cols[j].Type); r.err != nil {
			r.rows.Close()
			return false
		}
	}
	return true
}

// catValue converts one text value (nil: NULL). Text a DATE or TIMESTAMP
// column cannot parse (a literal cast as such keeps its spelling) stays
// text.
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
	case types.KindFloat32:
		f, err := strconv.ParseFloat(*text, 32)
		return types.Float32Value(float32(f)), err
	case types.KindBytes:
		if h, ok := strings.CutPrefix(*text, `\x`); ok {
			if b, err := hex.DecodeString(h); err == nil {
				return types.BytesValue(b), nil
			}
		}
		return types.BytesValue([]byte(*text)), nil
	case types.KindDate:
		if d, err := time.Parse("2006-01-02", *text); err == nil {
			return types.DateValue(d.Unix() / 86400), nil
		}
	case types.KindTimestamp:
		for _, layout := range []string{"2006-01-02 15:04:05.999999-07", "2006-01-02 15:04:05.999999-07:00", "2006-01-02 15:04:05.999999"} {
			if ts, err := time.Parse(layout, *text); err == nil {
				return types.TimeValue(ts), nil
			}
		}
	}
	return types.StringValue(*text), nil
}

func (r *catRows) Row() []types.Value { return r.row }

func (r *catRows) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.rows.Err()
}

func (r *catRows) Close() error { return r.rows.Close() }

// catSession is the session as the emulator sees it: every run-time
// parameter pgwire keeps, with its source (current_setting, pg_settings).
func catSession(s pgwire.Session) *pgcatalog.Session {
	settings := s.Settings()
	out := &pgcatalog.Session{Database: s.Database(), User: s.User(),
		Settings: make(map[string]string, len(settings)), Sources: make(map[string]string, len(settings))}
	for _, v := range settings {
		out.Settings[v.Name] = v.Value
		out.Sources[strings.ToLower(v.Name)] = v.Source
	}
	out.ApplicationName, _ = s.Setting("application_name")
	return out
}

// pgSource is the storage catalog as pgcatalog sees it: a database is an
// instance (InstanceOf), a table's columns are what SELECT * returns, typed
// as pgwire sends them, and its rows are what the engine returns for them.
type pgSource struct {
	store *storage.Engine
	sql   *engine.Engine
}

// Tables implements pgcatalog.Source.
func (s pgSource) Tables(ctx context.Context, database string) ([]pgcatalog.Table, error) {
	var out []pgcatalog.Table
	for _, st := range s.store.ListTables(InstanceOf(database)) {
		t, err := catalog.FromStorage(st)
		if err != nil {
			continue // a table SQL cannot describe is not shown
		}
		pt := pgcatalog.Table{Name: t.Name, PrimaryKey: t.PrimaryKey(), OrderedKeys: orderedKeys(t)}
		pt.Size, _ = s.store.ApproximateSize(storage.Target{Instance: st.Instance, Table: st.Name})
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

// orderedKeys is how many leading primary-key columns t's scans are
// sorted by: `_key`, or the key fields up to the first whose encoding does
// not preserve order (rowkeyschema.Schema.OrderPreserving).
func orderedKeys(t *catalog.Table) int {
	if t.KeySchema == nil {
		return 1
	}
	n := 0
	for n < t.NumKeyFields() && t.KeySchema.OrderPreserving(n) {
		n++
	}
	return n
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

// Scan implements pgcatalog.Source by running `SELECT <columns> FROM <table>
// [WHERE <filter>] [ORDER BY _key DESC] [LIMIT n]` through the GoogleSQL
// engine (`SELECT _key` when no column is needed): the same scan, column values and types as a
// GoogleSQL query, so each value's Native is what the GoogleSQL path would
// send and its Text is pgwire's text form of it. A family read only by key
// (ScanColumn.Keys) is read as those cells, `cf[b"q"]`, which read only
// their qualifiers, and sent as the map of them. The filter's conditions
// become `col op @pN` and `col IN (@pN, ...)` with their values as
// parameters (scanQuery), which the engine turns into key ranges; should
// the filtered query not prepare, the scan reads without it. Rows stream
// from the engine; closing stops the scan.
func (s pgSource) Scan(ctx context.Context, database string, req pgcatalog.ScanRequest) (pgcatalog.TableRows, error) {
	if s.sql == nil {
		return nil, &pgcatalog.Error{Code: pgcatalog.CodeNotSupported, Message: "this server cannot read tables for PostgreSQL-dialect queries"}
	}
	sc := s.scanColumns(database, req.Table, req.Columns)
	q, ptypes, vals := scanQuery(req, sc)
	st, err := s.sql.Prepare(ctx, InstanceOf(database), q, ptypes)
	if err != nil && len(vals) > 0 {
		req.Filter = nil
		q, ptypes, vals = scanQuery(req, sc)
		st, err = s.sql.Prepare(ctx, InstanceOf(database), q, ptypes)
	}
	if err != nil {
		return nil, unpositioned(err)
	}
	rows, err := st.Run(ctx, vals)
	if err != nil {
		return nil, unpositioned(err)
	}
	return &scanRows{rows: rows, cols: st.Columns(), shape: sc, datums: make([]pgcatalog.Datum, len(req.Columns))}, nil
}

// scanColumn is a column of a Scan as the GoogleSQL query reads it: a
// column by name, or a family read only at some qualifiers (a cell column
// `name[b"q"]` each) and sent as the map of those cells, of type mapType.
type scanColumn struct {
	name    string
	cells   [][]byte
	mapType *types.Type // nil: the column as it is
}

// scanColumns resolves a Scan's columns: a family read by key is read at
// the qualifiers its keys name (a key no qualifier renders as names no
// cell). Keys on any other column are ignored.
func (s pgSource) scanColumns(database, table string, columns []pgcatalog.ScanColumn) []scanColumn {
	out := make([]scanColumn, len(columns))
	var families map[string]*types.Type
	for i, c := range columns {
		out[i].name = c.Name
		if c.Keys == nil {
			continue
		}
		if families == nil {
			families = s.families(database, table)
		}
		t := families[c.Name]
		if t == nil {
			continue
		}
		out[i].mapType = t
		for _, k := range c.Keys {
			if q, ok := pgwire.QualifierOfKey(k); ok {
				out[i].cells = append(out[i].cells, q)
			}
		}
	}
	return out
}

// families maps the names of a table's family columns to their types,
// maps of qualifier to newest cell.
func (s pgSource) families(database, table string) map[string]*types.Type {
	out := map[string]*types.Type{}
	st, err := s.store.GetTable(InstanceOf(database), table)
	if err != nil {
		return out
	}
	t, err := catalog.FromStorage(st)
	if err != nil {
		return out
	}
	for _, c := range t.Columns(false) {
		if c.Family >= 0 && c.Type.Kind == types.KindMap {
			out[c.Name] = c.Type
		}
	}
	return out
}

// ExplainScan implements pgcatalog.ScanExplainer: the GoogleSQL plan of the
// scan Scan would run (its spans and key ranges), one line per plan row.
func (s pgSource) ExplainScan(ctx context.Context, database string, req pgcatalog.ScanRequest) ([]string, error) {
	if s.sql == nil {
		return nil, nil
	}
	sc := s.scanColumns(database, req.Table, req.Columns)
	q, ptypes, vals := scanQuery(req, sc)
	st, err := s.sql.Prepare(ctx, InstanceOf(database), "EXPLAIN "+q, ptypes)
	if err != nil && len(vals) > 0 {
		req.Filter = nil
		q, ptypes, vals = scanQuery(req, sc)
		st, err = s.sql.Prepare(ctx, InstanceOf(database), "EXPLAIN "+q, ptypes)
	}
	if err != nil {
		return nil, unpositioned(err)
	}
	rows, err := st.Run(ctx, vals)
	if err != nil {
		return nil, unpositioned(err)
	}
	defer rows.Close()
	lines := []string{"GoogleSQL: " + q}
	if len(vals) > 0 {
		names := slices.Sorted(maps.Keys(vals))
		args := make([]string, len(names))
		for i, n := range names {
			args[i] = "@" + n + " = " + vals[n].String()
		}
		lines = append(lines, "with "+strings.Join(args, ", "))
	}
	for rows.Next() {
		if r := rows.Row(); len(r) > 0 {
			lines = append(lines, r[0].Str())
		}
	}
	return lines, rows.Err()
}

// scanQuery renders a scan as GoogleSQL with its parameters. A condition
// whose type or values it cannot read is left out: the filter only
// narrows the read.
func scanQuery(req pgcatalog.ScanRequest, columns []scanColumn) (string, map[string]*types.Type, map[string]types.Value) {
	var q strings.Builder
	q.WriteString("SELECT ")
	n := 0
	item := func(s string) {
		if n > 0 {
			q.WriteString(", ")
		}
		q.WriteString(s)
		n++
	}
	for _, c := range columns {
		if c.mapType == nil {
			item(googleSQLIdent(c.name))
		}
		for _, cell := range c.cells {
			item(googleSQLIdent(c.name) + "[" + bytesLiteral(cell) + "]")
		}
	}
	if n == 0 {
		q.WriteString(catalog.KeyColumn)
	}
	q.WriteString(" FROM ")
	q.WriteString(googleSQLIdent(req.Table))
	var ptypes map[string]*types.Type
	var vals map[string]types.Value
	where := " WHERE "
	for _, c := range req.Filter {
		vs, ok := condValues(c)
		if !ok || c.Op != "IN" && len(vs) != 1 || len(vs) == 0 {
			continue
		}
		switch c.Op {
		case "=", "<", "<=", ">", ">=", "IN":
		default:
			continue
		}
		if vals == nil {
			ptypes, vals = map[string]*types.Type{}, map[string]types.Value{}
		}
		q.WriteString(where)
		where = " AND "
		q.WriteString(googleSQLIdent(c.Column))
		if c.Op == "IN" {
			q.WriteString(" IN (")
		} else {
			q.WriteString(" " + c.Op + " ")
		}
		for i, v := range vs {
			name := "p" + strconv.Itoa(len(vals)+1)
			ptypes[name], vals[name] = v.Type(), v
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("@" + name)
		}
		if c.Op == "IN" {
			q.WriteString(")")
		}
	}
	if req.Reverse {
		q.WriteString(" ORDER BY " + catalog.KeyColumn + " DESC")
	}
	if req.Limit >= 0 {
		q.WriteString(" LIMIT ")
		q.WriteString(strconv.FormatInt(req.Limit, 10))
	}
	return q.String(), ptypes, vals
}

// condValues reads a filter condition's values (pgcatalog.Cond's canonical
// texts) as values of the column's GoogleSQL type.
func condValues(c pgcatalog.Cond) ([]types.Value, bool) {
	out := make([]types.Value, 0, len(c.Values))
	for _, text := range c.Values {
		var v types.Value
		switch c.Type {
		case 17:
			h, ok := strings.CutPrefix(text, `\x`)
			b, err := hex.DecodeString(h)
			if !ok || err != nil {
				return nil, false
			}
			v = types.BytesValue(b)
		case 25:
			v = types.StringValue(text)
		case 20:
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return nil, false
			}
			v = types.Int64Value(n)
		case 1184:
			ts, err := time.Parse("2006-01-02 15:04:05.999999-07", text)
			if err != nil {
				return nil, false
			}
			v = types.TimeValue(ts)
		default:
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// unpositioned drops the position of an engine error: it points into the
// scan's query, not the client's.
func unpositioned(err error) error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return &sqlerr.Error{Code: se.Code, Offset: -1, Msg: se.Msg}
	}
	return err
}

// bytesLiteral writes b as a GoogleSQL bytes literal, every byte outside
// printable ASCII (and the quote and backslash) escaped.
func bytesLiteral(b []byte) string {
	const digits = "0123456789abcdef"
	out := []byte(`b"`)
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c >= 0x20 && c < 0x7f:
			out = append(out, c)
		default:
			out = append(out, '\\', 'x', digits[c>>4], digits[c&15])
		}
	}
	return string(append(out, '"'))
}

// googleSQLIdent quotes a name as a GoogleSQL identifier.
func googleSQLIdent(name string) string {
	return "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(name) + "`"
}

// scanRows adapts the engine's rows to pgcatalog.TableRows.
// scanRows turns the engine's rows into a Scan's Datums (scanColumn's
// shape: a family read by key takes one engine column per cell).
type scanRows struct {
	rows   *engine.Rows
	cols   []types.Field
	shape  []scanColumn
	datums []pgcatalog.Datum
	buf    []byte
	kv     []types.Value
}

func (r *scanRows) Next() bool {
	if !r.rows.Next() {
		return false
	}
	row := r.rows.Row()
	j := 0 // the engine column of the next Datum
	for i := range r.datums {
		if sh := &r.shape[i]; sh.mapType != nil {
			r.datums[i] = r.cellMap(sh.mapType, sh.cells, row[j:j+len(sh.cells)])
			j += len(sh.cells)
			continue
		}
		v := row[j]
		j++
		if v.IsNull() {
			r.datums[i] = pgcatalog.Datum{Null: true}
			continue
		}
		var err error
		if r.buf, err = pgwire.AppendText(r.buf[:0], v, r.cols[i].Type); err != nil {
			r.datums[i] = pgcatalog.Datum{Null: true}
			continue
		}
		if v.Kind() == types.KindMap {
			// A family: its jsonb text is all there is to send, in either
			// format; a deep copy of the map would only cost.
			r.datums[i] = pgcatalog.Datum{Text: string(r.buf)}
			continue
		}
		// The engine reuses its buffers from one batch to the next; the
		// emulator may keep values longer (ORDER BY, joins).
		r.datums[i] = pgcatalog.Datum{Text: string(r.buf), Native: detach(v)}
	}
	return true
}

// cellMap is a family read at some qualifiers: the map of those of its
// cells the row has, as jsonb text (as the whole family's would be, with
// only those keys).
func (r *scanRows) cellMap(t *types.Type, quals [][]byte, cells []types.Value) pgcatalog.Datum {
	kv := r.kv[:0]
	for k, v := range cells {
		if !v.IsNull() {
			kv = append(kv, types.BytesValue(quals[k]), v)
		}
	}
	r.kv = kv
	var err error
	if r.buf, err = pgwire.AppendText(r.buf[:0], types.MapValue(t, kv), t); err != nil {
		return pgcatalog.Datum{Null: true}
	}
	return pgcatalog.Datum{Text: string(r.buf)}
}

func (r *scanRows) Row() []pgcatalog.Datum { return r.datums }
func (r *scanRows) Err() error             { return unpositioned(r.rows.Err()) }
func (r *scanRows) Close() error           { return r.rows.Close() }

// detach deep-copies v's bytes and elements.
func detach(v types.Value) types.Value {
	if v.IsNull() {
		return v
	}
	switch v.Kind() {
	case types.KindString:
		return types.StringBytesValue(bytes.Clone(v.Bytes()))
	case types.KindBytes:
		return types.BytesValue(bytes.Clone(v.Bytes()))
	case types.KindProto:
		return types.ProtoValue(v.Type(), bytes.Clone(v.Bytes()))
	case types.KindArray, types.KindStruct, types.KindMap:
		elems := make([]types.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			elems[i] = detach(e)
		}
		switch v.Kind() {
		case types.KindArray:
			return types.ArrayValue(v.Type(), elems)
		case types.KindStruct:
			return types.StructValue(v.Type(), elems)
		}
		return types.MapValue(v.Type(), elems)
	}
	return v
}
