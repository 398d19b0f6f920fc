package pgcatalog

import (
	"context"
	"fmt"
)

// Source is Shale's live catalog as PostgreSQL sees it (implemented by the
// server wiring).
type Source interface {
	Tables(ctx context.Context, database string) ([]Table, error)
}

// DatabaseLister is optionally implemented by a Source that knows the other
// instances of the project; pg_database then lists them beside the connected
// database.
type DatabaseLister interface {
	Databases(ctx context.Context) ([]string, error)
}

// Table is one Shale table in schema public.
type Table struct {
	Name       string
	Columns    []Column
	PrimaryKey []string
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
	Settings   map[string]string
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

// Statement is a prepared catalog query. It holds no catalog data: every Run
// reads the Source again, so it may be kept across catalog changes and run
// concurrently.
type Statement struct {
	plan   *queryPlan
	params []uint32
}

// Prepare parses and binds sql (one SELECT, VALUES or SHOW statement, with
// optional $n placeholders). paramOIDs are the client's parameter types (0 or
// missing: inferred from use, text when nothing says otherwise).
func Prepare(sql string, paramOIDs []uint32) (st *Statement, err error) {
	defer recoverInternal(&err)
	stmt, err := parseOne(sql)
	if err != nil {
		return nil, err
	}
	b := newBinder(sql, paramOIDs)
	p, err := b.bindStatement(stmt)
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
// per placeholder.
func (s *Statement) Run(ctx context.Context, src Source, sess *Session, args []*string) (res *Result, err error) {
	defer recoverInternal(&err)
	if sess == nil {
		sess = &Session{}
	}
	ev, err := newEvaluator(ctx, src, sess, s.params, args)
	if err != nil {
		return nil, err
	}
	rows, err := s.plan.run(ev, nil)
	if traceTicks != nil {
		traceTicks(ev.ticks)
	}
	if err != nil {
		return nil, err
	}
	res = &Result{Columns: s.Columns(), Rows: make([][]*string, 0, len(rows))}
	for _, r := range rows {
		out := make([]*string, len(s.plan.cols))
		for i, c := range s.plan.cols {
			out[i] = ev.format(r[i], c.typ)
		}
		res.Rows = append(res.Rows, out)
	}
	return res, nil
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
