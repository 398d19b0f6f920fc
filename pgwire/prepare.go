package pgwire

import (
	"errors"
	"fmt"
	"slices"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// column describes one result column to the client.
type column struct {
	name string
	oid  uint32
	typ  *types.Type // nil for columns pgwire fills itself with strings
}

// prepared is a statement after Parse (or a simple Query's statement).
// Exactly one of empty, local and stmt describes what it runs.
type prepared struct {
	text   string
	empty  bool         // nothing but space and comments: EmptyQueryResponse
	local  *localStmt   // answered by pgwire
	inner  *prepared    // DECLARE's query
	stmt   Statement    // Catalog or Executor statement
	params []param      // bind order
	cols   []column     // result (stmt only; local statements describe lazily)
	verb   string       // CommandComplete verb of stmt: SELECT or EXPLAIN
	ph     placeholders // an Executor stmt's placeholders (none: the zero value)
	// rowDescs caches the RowDescription of cols, all text or all binary
	// (by format code), for rowDescription.
	rowDescs [2][]byte
	// spareArgs is the emptied parameter map of a closed portal of stmt,
	// for the next Bind: a map of 80-byte values is two allocations and
	// most of a kilobyte per execution otherwise.
	spareArgs map[string]types.Value
	// sparePortal is a portal of stmt that the session no longer names
	// (portal.discard), zeroed, for the next Bind.
	sparePortal *portal
}

// newPortal returns a portal of p with args.
func (p *prepared) newPortal(args map[string]types.Value) *portal {
	pt := p.sparePortal
	if pt == nil {
		pt = new(portal)
	}
	p.sparePortal = nil
	pt.p, pt.args = p, args
	return pt
}

// takeArgs returns an empty map for a portal's parameters.
func (p *prepared) takeArgs() map[string]types.Value {
	if args := p.spareArgs; args != nil {
		p.spareArgs = nil
		return args
	}
	return make(map[string]types.Value, len(p.params))
}

// rowDescription returns the RowDescription of a stmt's columns, all in
// format f (text or binary), encoded once: libpq describes a prepared
// statement's portal on every execution. It is nil when cols cannot be
// encoded (sendRowDescription reports why).
func (p *prepared) rowDescription(f int16) []byte {
	if p.rowDescs[f] == nil {
		p.rowDescs[f], _ = appendRowDescription(nil, p.cols, uniformFormats(f, len(p.cols)))
	}
	return p.rowDescs[f]
}

// origOffset maps an offset in the text the Executor saw to p.text.
func (p *prepared) origOffset(r int) int {
	return p.ph.origOffset(r) // the identity without rewrites
}

// prepare parses text with the parameter types Parse declared: session
// statements first, then the Catalog hook, then the Executor.
func (c *conn) prepare(text string, oids []uint32) (*prepared, error) {
	p := &prepared{text: text}
	if (&lexer{text: text}).next().kind == tokEOF {
		// Nothing reads the parameters, but they are the ones Parse
		// declared: ParameterDescription lists them and Bind takes them.
		p.empty = true
		for i, oid := range oids {
			p.params = append(p.params, declaredParam(i, oid))
		}
		return p, nil
	}
	local, err := parseLocal(text)
	if err != nil {
		return nil, err
	}
	if err := c.checkAborted(local); err != nil {
		return nil, err
	}
	if local != nil {
		return c.prepareLocal(p, local, oids)
	}
	return c.prepareQuery(p, oids)
}

// checkAborted fails with 25P02 in a failed transaction block unless the
// statement (local; nil for a query) ends the transaction: only COMMIT,
// ROLLBACK and ROLLBACK TO SAVEPOINT run there (PostgreSQL's
// IsTransactionExitStmt).
func (c *conn) checkAborted(local *localStmt) error {
	if c.tx != txFailed || local != nil && (local.kind == localCommit || local.kind == localRollback ||
		local.kind == localRollbackTo) {
		return nil
	}
	return errAborted()
}

func errAborted() error {
	return errorf(codeInFailedTxn, "current transaction is aborted, commands ignored until end of transaction block")
}

// returnsRows reports whether p's statement returns rows (PostgreSQL's
// resultDesc), without running anything.
func (p *prepared) returnsRows() bool {
	if p.local == nil {
		return p.isQuery()
	}
	switch p.local.kind {
	case localShow, localSelect, localFetch, localExecute:
		return true
	}
	return false
}

// isQuery reports whether p is a query (for the Catalog or the Executor):
// its result has a RowDescription even without columns (SELECT FROM t),
// where a session statement without columns has NoData.
func (p *prepared) isQuery() bool { return p.local == nil && !p.empty }

// prepareQuery prepares a query for the Catalog or the Executor, and when
// the Executor rejects it with a syntax error (or as not supported), for a
// FallbackCatalog.
func (c *conn) prepareQuery(p *prepared, oids []uint32) (*prepared, error) {
	if cat := c.srv.opts.Catalog; cat != nil {
		st, ok, err := cat.Prepare(c.ctx, c.session(), p.text, oids)
		if err != nil {
			return nil, toPGError(c.ctx, err, nil)
		}
		if ok {
			return catalogPrepared(p, st), nil
		}
	}
	q, err := c.prepareExecutor(p, oids)
	if err == nil {
		return q, nil
	}
	if fb, ok := c.srv.opts.Catalog.(FallbackCatalog); ok && fallsBack(err) {
		st, ok, ferr := fb.PrepareFallback(c.ctx, c.session(), p.text, oids)
		switch {
		case ok && ferr != nil && readByGoogleSQL(err):
			// GoogleSQL read the statement and lacks one of its functions,
			// tables or names, or refused one of its literals or date parts;
			// PostgreSQL's reading failed too: GoogleSQL's error (with its
			// suggestions) is the one to fix.
			return nil, toPGError(c.ctx, err, q.origOffset)
		case ok && ferr != nil:
			// EXPLAIN (options) of a GoogleSQL query: its own reading.
			eq, handled, eerr := c.explainWithOptions(p, oids)
			switch {
			case handled && eerr == nil:
				return eq, nil
			case handled && sqlerr.CodeOf(eerr) != sqlerr.Syntax: // GoogleSQL read it
				return nil, toPGError(c.ctx, eerr, eq.origOffset)
			}
			pe := toPGError(c.ctx, ferr, nil)
			// GoogleSQL's not-supported (public.t, JOIN) says nothing a
			// PostgreSQL user needs; its syntax error may.
			if pe.hint == "" && handled {
				pe.hint = "EXPLAIN with options was read as PostgreSQL, and as GoogleSQL's EXPLAIN of the query after them; neither reading accepts it."
			}
			if pe.hint == "" && unreadByPostgres(pe.code) && sqlerr.CodeOf(err) == sqlerr.Syntax {
				// Both readings failed: say why GoogleSQL's did too (a driver
				// may have written a parameter as '\x..'::bytea).
				pe.hint = fmt.Sprintf("GoogleSQL cannot read the statement (%v), so it was read as PostgreSQL.", err)
			}
			return nil, pe
		case ok: // a fresh prepared: prepareExecutor has filled in p
			return catalogPrepared(&prepared{text: p.text}, st), nil
		}
	}
	if eq, handled, eerr := c.explainWithOptions(p, oids); handled {
		// PostgreSQL's parser did not read it either: GoogleSQL's
		// EXPLAIN of the query after the options answers, or says why not.
		if eerr == nil {
			return eq, nil
		}
		return nil, toPGError(c.ctx, eerr, eq.origOffset)
	}
	return nil, toPGError(c.ctx, err, q.origOffset)
}

// unreadByPostgres reports whether a PostgreSQL-dialect error with SQLSTATE
// code says the statement may not be PostgreSQL at all (a syntax error, or
// a table, column, function or type it does not know), so that GoogleSQL's
// reason for refusing it is worth a hint. An error past that (a value out
// of range, a type not supported, a cast refused) means PostgreSQL read
// the statement as its author meant; the hint would be noise.
func unreadByPostgres(code string) bool {
	switch code {
	case "42601", "42P01", "42703", "42883", "42704":
		return true
	}
	return false
}

// fallsBack reports whether an Executor error leaves the statement to a
// FallbackCatalog: GoogleSQL could not read it (a syntax error: quoted
// identifiers are strings to GoogleSQL), does not support it (a
// schema-qualified table such as public.t is a path expression), or read
// it and refused it (readByGoogleSQL).
func fallsBack(err error) bool {
	switch sqlerr.CodeOf(err) {
	case sqlerr.Syntax, sqlerr.NotSupported:
		return true
	}
	return readByGoogleSQL(err)
}

// readByGoogleSQL reports whether GoogleSQL read a statement and refused
// something in it that PostgreSQL may accept: a function it does not have
// (to_char, date_part), a column it cannot find (# starts a comment in
// GoogleSQL, so SELECT cf #> '{q}' FROM t reads as SELECT cf), a table it
// cannot find (a PostgreSQL function in FROM: generate_series(1, 3)), a
// signature it does not have (regexp_replace with flags), a date part it
// does not know (EXTRACT(isodow FROM d)), or a literal in a form it does
// not take (TIMESTAMP '2024-03-03 10:00', without seconds). Every
// Executor error arises while preparing, so an invalid value here is a
// literal's.
func readByGoogleSQL(err error) bool {
	switch sqlerr.CodeOf(err) {
	case sqlerr.UndefinedFunction, sqlerr.UndefinedColumn, sqlerr.UndefinedTable, sqlerr.TypeMismatch,
		sqlerr.InvalidArgument, sqlerr.InvalidValue:
		return true
	}
	return false
}

// catalogPrepared fills p for a Catalog statement.
func catalogPrepared(p *prepared, st CatalogStatement) *prepared {
	p.stmt, p.verb = st, "SELECT"
	if w := newWords(p.text); w.keyword("explain") {
		p.verb = "EXPLAIN"
	}
	for i, oid := range st.ParamOIDs() {
		p.params = append(p.params, declaredParam(i, oid))
	}
	oids := st.ColumnOIDs()
	fields := st.Columns()
	p.cols = make([]column, len(fields))
	for i, f := range fields {
		p.cols[i] = column{name: f.Name, oid: oids[i], typ: f.Type}
	}
	return p
}

// declaredParam is parameter $i+1 of type oid, read as the type's value or,
// for a type without one (and a numeric, which keeps its digits and scale),
// as its text.
func declaredParam(i int, oid uint32) param {
	pr := param{name: paramName(i + 1), oid: oid, typ: oidType(oid)}
	if pr.typ == nil || oid == oidNumeric {
		pr.typ = types.String
	}
	return pr
}

// prepareExecutor prepares p for the Executor. On error it returns p too,
// for its placeholder offsets, with the unconverted error.
func (c *conn) prepareExecutor(p *prepared, oids []uint32) (*prepared, error) {
	ph, err := scanPlaceholders(p.text, len(oids))
	if err != nil {
		return p, err
	}
	for i, first := range ph.first {
		// Nothing tells the type of a parameter the query never uses that
		// Parse left unspecified ($2 alone, or an OID 0 too many).
		if first < 0 && (i >= len(oids) || oids[i] == oidUnspecified) {
			return p, errorf(codeIndeterminateType, fmt.Sprintf("could not determine data type of parameter $%d", i+1))
		}
	}
	p.ph, p.verb = ph, "SELECT"
	if w := newWords(p.text); w.keyword("explain") {
		p.verb = "EXPLAIN"
	}
	p.params = make([]param, len(ph.names))
	for i, name := range ph.names {
		p.params[i] = param{name: name}
		if i < len(oids) {
			p.params[i].oid = oids[i]
			p.params[i].typ = oidType(oids[i])
		}
	}
	st, err := c.inferAndPrepare(p)
	if err != nil {
		return p, err
	}
	p.stmt = st
	fields := st.Columns()
	p.cols = make([]column, len(fields))
	for i, f := range fields {
		p.cols[i] = column{name: f.Name, oid: typeOID(f.Type), typ: f.Type}
	}
	return p, nil
}

// inferCandidates are tried, in order, for a parameter whose type the
// client left unspecified (OID 0): the first that prepares wins.
var inferCandidates = []*types.Type{types.String, types.Bytes, types.Int64, types.Float64, types.Bool,
	types.Timestamp, types.Date}

// maxInferAttempts bounds the Prepare calls one Parse may make.
const maxInferAttempts = 64

// inferAndPrepare prepares p with the declared parameter types, inferring
// the unspecified ones (doc.go, "Parameters"): they start as STRING; while
// Prepare fails with a type error, the flexible parameter nearest the
// error's position is given the next candidate type, kept if the query
// then prepares or fails later in its text. A parameter the client
// declared as text may likewise become BYTES (its text is the bytes).
func (c *conn) inferAndPrepare(p *prepared) (Statement, error) {
	var flex []int
	for i := range p.params {
		pr := &p.params[i]
		if pr.typ == nil {
			pr.typ = types.String
			flex = append(flex, i)
		} else if pr.typ.Kind == types.KindString && pr.oid != oidUnspecified {
			flex = append(flex, i)
		}
	}
	prep := func() (Statement, error) {
		var decl map[string]*types.Type // nil without parameters: nothing to allocate
		if len(p.params) > 0 {
			decl = make(map[string]*types.Type, len(p.params))
		}
		for _, pr := range p.params {
			decl[pr.name] = pr.typ
		}
		return c.srv.opts.Executor.Prepare(c.ctx, c.database, p.ph.text, decl)
	}
	st, err := prep()
	first, attempts := err, 1
	for err != nil && len(flex) > 0 && attempts < maxInferAttempts && retryable(err) {
		progress := false
		for _, i := range nearest(flex, p.ph.first, errOffset(err)) {
			pr := &p.params[i]
			was := pr.typ
			for _, t := range candidatesFor(pr) {
				if t.Equal(was) || attempts >= maxInferAttempts {
					continue
				}
				pr.typ = t
				st2, err2 := prep()
				attempts++
				if err2 == nil {
					st, err = st2, nil
					break
				}
				if retryable(err2) && errOffset(err2) > errOffset(err) {
					err, progress = err2, true
					break
				}
			}
			if err == nil || progress {
				break
			}
			pr.typ = was
		}
		if !progress {
			break
		}
	}
	if err != nil {
		return nil, first
	}
	for i := range p.params {
		pr := &p.params[i]
		switch {
		case pr.oid == oidUnspecified || oidType(pr.oid) == nil:
			pr.oid = typeOID(pr.typ)
		case pr.typ.Kind == types.KindBytes && oidType(pr.oid).Kind == types.KindString:
			pr.raw = true
		}
	}
	return st, nil
}

// candidatesFor lists the types a flexible parameter may take.
func candidatesFor(pr *param) []*types.Type {
	if pr.oid != oidUnspecified && oidType(pr.oid) != nil {
		return []*types.Type{types.Bytes}
	}
	return inferCandidates
}

// retryable reports whether another parameter type might prepare.
func retryable(err error) bool {
	switch sqlerr.CodeOf(err) {
	case sqlerr.TypeMismatch, sqlerr.UndefinedFunction, sqlerr.InvalidArgument:
		return true
	}
	return false
}

func errOffset(err error) int {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return se.Offset
	}
	return -1
}

// nearest orders the flexible parameters by how close their first use is
// to offset: those at or after it first (ascending), then those before it
// (nearest first).
func nearest(flex, first []int, offset int) []int {
	var after, before []int
	for _, i := range flex {
		if first[i] >= offset {
			after = append(after, i)
		} else {
			before = append(before, i)
		}
	}
	sortByFirst(after, first)
	sortByFirst(before, first)
	slices.Reverse(before)
	return append(after, before...)
}

func sortByFirst(idx, first []int) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && first[idx[j]] < first[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}
