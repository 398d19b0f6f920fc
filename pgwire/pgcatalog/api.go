package pgcatalog

import (
	"context"
	"fmt"
	"strings"
)

// Source is Shale's live catalog as PostgreSQL sees it (implemented by the
// server wiring).
type Source interface {
	// Tables lists the Shale tables of database with the columns a
	// PostgreSQL client sees.
	Tables(ctx context.Context, database string) ([]Table, error)
	// Scan streams the rows of a table of database that req asks for.
	// Rows are read as the caller advances, so a caller that stops early
	// stops the scan.
	Scan(ctx context.Context, database string, req ScanRequest) (TableRows, error)
}

// ScanRequest is a Scan: the rows of Table in key order (descending when
// Reverse), one Datum per entry of Columns (a subset of the Table's
// Columns, in the order given; empty when the statement needs none of
// them), and at most Limit rows (< 0: all).
//
// Filter lists conditions every row the statement can select meets
// (conjuncts of its WHERE over the table's key columns, see Cond): the
// Source may skip the rows that fail them, and may ignore any of them.
// The statement evaluates its whole WHERE over the rows read either way;
// Limit never counts rows that Filter rejects.
type ScanRequest struct {
	Table   string
	Columns []ScanColumn
	Filter  []Cond
	Limit   int64
	Reverse bool
}

// ScanColumn is a column a Scan reads. Keys, when not nil, lists the only
// keys of a jsonb object column (a family) the statement looks at, by key
// text: the Source may then send the object with just those of its keys,
// as if it had no others, and so read only those cells. The statement
// reads such a column only through a constant key (cf->'q', cf->>'q',
// cf ? 'q').
type ScanColumn struct {
	Name string
	Keys []string
}

// String renders c for logs and plans: cf, or cf[q1,q2] when narrowed.
func (c ScanColumn) String() string {
	if c.Keys == nil {
		return c.Name
	}
	return c.Name + "[" + strings.Join(c.Keys, ",") + "]"
}

// Cond is one condition of a Scan's filter: Column Op Values[0], or for
// Op "IN" Column equal to one of Values. Op is one of = < <= > >= IN.
// Column is a primary-key column of type Type: bytea (17), text (25),
// int8 (20) or timestamptz (1184). Values are non-NULL and in the type's
// canonical text form, as scanned values read: bytea as \x and lowercase
// hex, int8 in decimal, timestamptz in UTC as "2006-01-02
// 15:04:05.999999+00", text as it is. They order as the type's values do
// (bytes, numbers, instants, text byte-wise), which is how the statement
// compares them.
type Cond struct {
	Column string
	Type   uint32
	Op     string
	Values []string
}

// String renders c as SQL-like text for logs: _key = '\x62'.
func (c Cond) String() string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	if c.Op == "IN" {
		q := make([]string, len(c.Values))
		for i, v := range c.Values {
			q[i] = quote(v)
		}
		return c.Column + " IN (" + strings.Join(q, ", ") + ")"
	}
	v := ""
	if len(c.Values) > 0 {
		v = quote(c.Values[0])
	}
	return c.Column + " " + c.Op + " " + v
}

// TableRows is the row stream of a Source's Scan.
type TableRows interface {
	// Next advances; false at the end or on an error (see Err).
	Next() bool
	// Row is the current row, valid until the next call to Next.
	Row() []Datum
	Err() error
	// Close releases the scan; it may be called before the end and more
	// than once.
	Close() error
}

// Datum is one value of a scanned row. Text is the value in its column
// type's PostgreSQL text output form (Null: SQL NULL), which is what
// expressions see; jsonb's is read as it is, so it must be jsonb's
// canonical text (keys unique, shorter keys first then by bytes, ", " and
// ": " between tokens), as PostgreSQL prints jsonb. Native is the Source's own representation; when the
// value reaches a result column of its column's type unchanged (a column
// reference, through joins, subqueries, CASE, ORDER BY...), Rows.Natives
// hands it back, so the caller can send it exactly as it sends that value
// elsewhere.
type Datum struct {
	Text   string
	Null   bool
	Native any
}

// DatabaseLister is optionally implemented by a Source that knows the other
// instances of the project; pg_database then lists them beside the connected
// database.
type DatabaseLister interface {
	Databases(ctx context.Context) ([]string, error)
}

// Table is one Shale table in schema public. Statements may read it as a
// relation public.<Name> (or unqualified) with these columns.
type Table struct {
	Name       string
	Columns    []Column
	PrimaryKey []string
	// OrderedKeys is how many leading PrimaryKey columns a scan's rows are
	// sorted by (ascending; a reverse scan's descending): 1 for a table
	// keyed by `_key`; for a row-key schema, the leading key fields whose
	// encoding preserves order. ORDER BY those columns then needs no sort.
	OrderedKeys int
	// Size is about how many bytes the table takes on disk (0: unknown),
	// which pg_relation_size, pg_table_size and pg_database_size report.
	Size int64
}

// Column is a column of a Table, e.g. _key bytea (17) or a family as jsonb
// (3802).
type Column struct {
	Name     string
	TypeOID  uint32
	TypeName string
}

// Session is what the catalog reads of the connection that asks.
type Session struct {
	Database, User, ApplicationName string
	// Settings are run-time parameters as SHOW prints them (search_path,
	// server_version, ...); missing ones take PostgreSQL 15's defaults.
	Settings map[string]string
	// Sources say where the Settings' values came from, by lower-case
	// name, as pg_settings.source does: "client", "session" or "default".
	Sources    map[string]string
	BackendPID int32
}

// Result is a materialized result in text format: nil is NULL.
type Result struct {
	Columns []ResultColumn
	Rows    [][]*string
}

// ResultColumn describes one result column for RowDescription.
type ResultColumn struct {
	Name    string
	TypeOID uint32
}

// Query evaluates one statement. Results stream as rows of text values (nil
// = NULL) with column metadata.
func Query(ctx context.Context, src Source, sess *Session, sql string) (*Result, error) {
	st, err := Prepare(sql, nil)
	if err != nil {
		return nil, err
	}
	return st.Run(ctx, src, sess, nil)
}

// Statement is a prepared catalog query. It holds no catalog data beyond
// the shapes (names and columns) of the Shale tables it reads: every Run
// reads the Source again, so it may be kept across catalog changes and run
// concurrently.
type Statement struct {
	plan   *queryPlan
	params []uint32
}

// Prepare parses and binds sql (one SELECT, VALUES or SHOW statement, with
// optional $n placeholders) over the emulated catalog relations alone: a
// statement naming a Shale table fails (see PrepareWith). paramOIDs are the
// client's parameter types (0 or missing: inferred from use, text when
// nothing says otherwise).
func Prepare(sql string, paramOIDs []uint32) (*Statement, error) {
	return PrepareWith(context.Background(), nil, nil, sql, paramOIDs)
}

// PrepareWith is Prepare with the Shale tables of sess's database available
// as relations of schema public, qualified or not (after pg_catalog's, as
// on PostgreSQL's default search path). src.Tables is read, once, only when
// the statement names a relation that is neither a WITH query nor a catalog
// relation.
func PrepareWith(ctx context.Context, src Source, sess *Session, sql string, paramOIDs []uint32) (st *Statement, err error) {
	defer recoverInternal(&err)
	stmt, err := parseOne(sql)
	if err != nil {
		return nil, err
	}
	if src != nil && sess == nil {
		sess = &Session{}
	}
	b, p, err := bindPruned(ctx, src, sess, sql, paramOIDs, stmt)
	if err != nil {
		return nil, err
	}
	return &Statement{plan: p, params: b.paramTypes()}, nil
}

// Columns describes the result; it is known before Run.
func (s *Statement) Columns() []ResultColumn {
	out := make([]ResultColumn, len(s.plan.cols))
	for i, c := range s.plan.cols {
		out[i] = ResultColumn{Name: c.name, TypeOID: c.typ}
	}
	return out
}

// ParamOIDs gives one type OID per $n placeholder.
func (s *Statement) ParamOIDs() []uint32 { return append([]uint32(nil), s.params...) }

// Run evaluates the statement with args in text format (nil = NULL), one
// per placeholder, and collects its result.
func (s *Statement) Run(ctx context.Context, src Source, sess *Session, args []*string) (*Result, error) {
	rows, err := s.Open(ctx, src, sess, args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &Result{Columns: s.Columns(), Rows: [][]*string{}}
	for rows.Next() {
		row := make([]*string, len(rows.Text()))
		for i, t := range rows.Text() {
			if t != nil {
				s := *t
				row[i] = &s
			}
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// Open starts the statement with args in text format (nil = NULL), one per
// placeholder. A SELECT without grouping, aggregates, window functions,
// set-returning functions in its select list, DISTINCT or ORDER BY streams:
// its rows are computed as Next asks for them, and a Shale table in its
// FROM clause is read only that far. Other statements are computed whole
// first.
func (s *Statement) Open(ctx context.Context, src Source, sess *Session, args []*string) (rows *Rows, err error) {
	defer recoverInternal(&err)
	if sess == nil {
		sess = &Session{}
	}
	ev, err := newEvaluator(ctx, src, sess, s.params, args)
	if err != nil {
		return nil, err
	}
	it, err := openPlan(ev, s.plan.root, nil)
	if err != nil {
		ev.closeScans()
		return nil, err
	}
	reuseRows(it) // Next formats each row before it asks for the next
	n := len(s.plan.cols)
	return &Rows{ev: ev, it: it, cols: s.plan.cols, text: make([]*string, n), strs: make([]string, n), nat: make([]any, n)}, nil
}

// Rows is a running statement's result.
type Rows struct {
	ev   *evaluator
	it   rowIter
	cols []outCol
	text []*string
	strs []string // what text points to, reused from row to row
	nat  []any
	err  error
	done bool
}

// Next computes the next row; false at the end or on an error (see Err).
func (r *Rows) Next() (ok bool) {
	if r.done {
		return false
	}
	defer func() {
		if !ok {
			r.finish()
		}
	}()
	defer recoverInternal(&r.err)
	row, err := r.it.next()
	if err != nil || row == nil {
		r.err = err
		return false
	}
	for i, c := range r.cols {
		v := row[i]
		r.text[i], r.nat[i] = nil, nil
		if !v.isNull() {
			r.strs[i] = r.ev.text(v, c.typ)
			r.text[i] = &r.strs[i]
		}
		if v.nat != nil && v.nat.typ == c.typ {
			r.nat[i] = v.nat.v
		}
	}
	return true
}

// Text is the current row in text format (nil = NULL), valid until the
// next call to Next (its pointers are reused: copy the strings to keep
// them).
func (r *Rows) Text() []*string { return r.text }

// Natives gives, for each column of the current row, the Datum.Native of
// the scanned table value it holds unchanged, or nil (the value is then
// only its Text).
func (r *Rows) Natives() []any { return r.nat }

// Err is the error that ended the rows, if any.
func (r *Rows) Err() error { return r.err }

// Close stops the statement and releases its table scans; it may be called
// before the end and more than once.
func (r *Rows) Close() error {
	r.finish()
	return nil
}

func (r *Rows) finish() {
	if r.done {
		return
	}
	r.done = true
	r.it.close()
	r.ev.closeScans()
	if traceTicks != nil {
		traceTicks(r.ev.ticks)
	}
}

// recoverPanics turns a panic inside the package into an XX000 error, so a
// bug in the emulator fails one statement instead of the server. The fuzz
// test turns it off to see panics.
var recoverPanics = true

// traceTicks, when set by a test, sees how many rows each Run visited.
var traceTicks func(int)

func recoverInternal(err *error) {
	if !recoverPanics {
		return
	}
	if r := recover(); r != nil {
		*err = &Error{Code: "XX000", Message: fmt.Sprintf("internal error in catalog emulator: %v", r)}
	}
}
