package pgwire

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/sql/types"
)

// prepareLocal completes the prepared form of a session statement.
func (c *conn) prepareLocal(p *prepared, st *localStmt, oids []uint32) (*prepared, error) {
	p.local = st
	switch st.kind {
	case localDeclare, localCopy:
		inner, err := c.prepareQuery(&prepared{text: st.query}, oids)
		if err != nil {
			if pe, ok := err.(*pgError); ok {
				pe.pos = st.innerPos(pe.pos)
			}
			return nil, err
		}
		p.inner, p.params = inner, inner.params
	case localShow:
		// PostgreSQL describes a statement as it parses it, and SHOW of a
		// setting that does not exist fails there.
		if _, err := c.localColumns(st); err != nil {
			return nil, err
		}
	case localSelect:
		n := len(oids)
		for _, f := range st.funcs {
			for _, a := range f.args {
				n = max(n, a.param)
			}
		}
		for i := range n {
			p.params = append(p.params, param{name: paramName(i + 1), oid: oidText, typ: types.String})
		}
	}
	return p, nil
}

// innerPos maps byte offset r of a DECLARE's or COPY's query to the
// statement's text: -1 (no position) for -1, and for the query COPY
// table makes up.
func (st *localStmt) innerPos(r int) int {
	if r < 0 || st.qstart < 0 {
		return -1
	}
	return st.qstart + r
}

// innerOffsets maps the offsets of inner's text as run (placeholders
// rewritten) to the statement's, for toPGError.
func innerOffsets(st *localStmt, inner *prepared) func(int) int {
	return func(r int) int { return st.innerPos(inner.origOffset(r)) }
}

// localColumns describes a session statement's result (nil: no rows).
func (c *conn) localColumns(st *localStmt) ([]column, error) {
	switch st.kind {
	case localShow:
		if st.all {
			return []column{{name: "name", oid: oidText}, {name: "setting", oid: oidText},
				{name: "description", oid: oidText}}, nil
		}
		// An unknown setting fails here, as PostgreSQL's
		// GetPGVariableResultDesc does: Describe fails, and a simple
		// Query sends no RowDescription before the error.
		if _, ok := c.set.get(st.name); !ok {
			return nil, unknownSetting(st.name)
		}
		return []column{{name: canonical(st.name), oid: oidText}}, nil
	case localSelect:
		cols := make([]column, len(st.funcs))
		for i, f := range st.funcs {
			cols[i] = column{name: f.fn, oid: funcOID(f.fn)}
			if f.alias != "" {
				cols[i].name = f.alias
			}
		}
		return cols, nil
	case localFetch:
		if cur := c.cursors[st.name]; cur != nil {
			return cur.cols, nil
		}
		if pt := c.portals[st.name]; pt != nil && st.name != "" && pt.p.local == nil {
			return pt.p.cols, nil // a protocol portal read as a cursor (portalCursor)
		}
	case localExecute:
		p, err := c.executeTarget(st)
		if err != nil {
			return nil, err
		}
		return p.cols, nil
	}
	return nil, nil
}

func funcOID(fn string) uint32 {
	switch fn {
	case "pg_backend_pid":
		return oidInt4
	case "pg_advisory_unlock_all":
		return oidVoid
	case "version", "current_setting", "set_config":
		return oidText
	}
	return oidName
}

// runLocal executes a session statement: it sets pt.rows (for SHOW,
// SELECT and FETCH) and pt.tag.
func (c *conn) runLocal(pt *portal) error {
	st := pt.p.local
	tag := ""
	var err error
	switch st.kind {
	case localSet:
		tag, err = "SET", c.runSet(st)
	case localSetTxn:
		tag = "SET"
		if st.name != "default" && !c.inBlock() {
			c.notice(codeNoActiveTxn, "SET TRANSACTION can only be used in transaction blocks")
			break
		}
		c.applyTxnModes(st.modes, st.name == "default")
	case localReset:
		tag = "RESET"
		if st.all {
			for _, k := range slices.Sorted(maps.Keys(c.set.vals)) {
				c.resetSetting(k)
			}
		} else {
			c.resetSetting(st.name)
		}
	case localShow:
		err = c.runShow(pt, st)
		tag = "SHOW"
	case localSelect:
		err = c.runSelect(pt, st)
		tag = "SELECT 1"
	case localBegin, localCommit, localRollback, localRollbackTo, localSavepoint, localRelease:
		tag, err = c.runTxn(st)
	case localDiscard:
		tag, err = "DISCARD "+st.word, c.runDiscard(st)
	case localUnlisten:
		tag = "UNLISTEN"
	case localLock:
		tag = "LOCK TABLE"
		if !c.inBlock() {
			err = errorf(codeNoActiveTxn, "LOCK TABLE can only be used in transaction blocks")
		} else {
			err = c.checkRelations(st.tables)
		}
	case localDeallocate:
		tag = "DEALLOCATE"
		if st.all {
			tag = "DEALLOCATE ALL"
			c.dropNamedStatements()
		} else if _, ok := c.stmts[st.name]; ok {
			delete(c.stmts, st.name)
		} else {
			err = errorf(codeInvalidStatement, fmt.Sprintf("prepared statement \"%s\" does not exist", st.name))
		}
	case localDeclare:
		tag, err = "DECLARE CURSOR", c.declare(pt)
	case localCopy:
		tag, err = c.copyOut(pt)
	case localFetch, localMove:
		return c.fetch(pt, st)
	case localClose:
		tag, err = c.closeCursor(st)
	case localPrepare:
		tag, err = "PREPARE", c.runPrepare(st)
	case localExecute:
		return c.runExecute(pt, st)
	}
	pt.tag = commandTag{verb: tag}
	return err
}

func (c *conn) runSet(st *localStmt) error {
	if st.local && !c.inBlock() {
		c.notice(codeNoActiveTxn, "SET LOCAL can only be used in transaction blocks")
		return nil
	}
	key := strings.ToLower(st.name)
	if st.local {
		c.noteLocal(key)
	}
	if st.def {
		c.resetSetting(key)
		return nil
	}
	return c.setSetting(key, st.value)
}

// setSetting sets a run-time parameter and reports it if clients track it.
func (c *conn) setSetting(name, v string) error {
	c.noteChange(name)
	_, report, err := c.set.set(name, v, false)
	if err != nil {
		return err
	}
	c.settingChanged(name, report)
	return nil
}

func (c *conn) resetSetting(name string) {
	c.noteChange(name)
	_, report := c.set.reset(name)
	c.settingChanged(name, report)
}

// settingChanged updates what depends on the settings after name changed,
// and has it reported (report: clients track it) at the next
// ReadyForQuery.
func (c *conn) settingChanged(name string, report bool) {
	c.enc.loc = c.set.loc
	if n, err := strconv.Atoi(c.set.vals["extra_float_digits"]); err == nil {
		c.enc.floatDigits = n
	}
	if name := canonical(name); report && !slices.Contains(c.unreported, name) {
		c.unreported = append(c.unreported, name)
	}
}

// reportChanges sends a ParameterStatus for each setting changed since the
// last ReadyForQuery whose value differs from the one last reported. As in
// PostgreSQL (ReportChangedGUCOptions), they come just before
// ReadyForQuery, after the CommandComplete of the SET that changed them,
// with the value the setting has then: SET x = 'a'; SET x = 'b' reports b
// once, and a SET LOCAL undone by COMMIT reports nothing.
func (c *conn) reportChanges() {
	for _, name := range c.unreported {
		if v, _ := c.set.get(name); c.reported[name] != v {
			c.w.send(&pgproto3.ParameterStatus{Name: name, Value: v})
			c.reported[name] = v
		}
	}
	c.unreported = c.unreported[:0]
}

// applyTxnModes applies BEGIN's or SET TRANSACTION's modes to the current
// transaction, or (def) to the session's default.
func (c *conn) applyTxnModes(modes []txnMode, def bool) {
	prefix := "transaction_"
	if def {
		prefix = "default_transaction_"
	}
	for _, m := range modes {
		key := prefix + m.name
		if !def {
			c.noteLocal(key)
		}
		c.set.vals[key] = m.value
	}
}

func (c *conn) runShow(pt *portal, st *localStmt) error {
	if st.all {
		var rows [][]types.Value
		for _, s := range c.set.list() {
			rows = append(rows, []types.Value{types.StringValue(s.Name), types.StringValue(s.Value), types.StringValue(description(s.Name))})
		}
		pt.rows = &valueRows{rows: rows}
		return nil
	}
	v, ok := c.set.get(st.name)
	if !ok {
		return unknownSetting(st.name)
	}
	pt.rows = &valueRows{rows: [][]types.Value{{types.StringValue(v)}}}
	return nil
}

// unknownSetting is the error of SHOW or current_setting for a setting
// that does not exist.
func unknownSetting(name string) error {
	return errorf(codeUndefinedObject, fmt.Sprintf("unrecognized configuration parameter \"%s\"", name))
}

// Version is what version() returns (SQLAlchemy and others parse the
// "PostgreSQL X.Y" prefix).
var Version = "PostgreSQL " + ServerVersion + " (Shale: GoogleSQL for Bigtable) on " + runtime.GOARCH + "-" + runtime.GOOS + ", 64-bit"

func (c *conn) runSelect(pt *portal, st *localStmt) error {
	row := make([]types.Value, len(st.funcs))
	for i, f := range st.funcs {
		args := make([]types.Value, len(f.args))
		for j, a := range f.args {
			args[j] = types.StringValue(a.lit)
			if a.param > 0 {
				args[j] = pt.args[paramName(a.param)]
			}
		}
		v, err := c.callLocal(f.fn, args)
		if err != nil {
			return err
		}
		row[i] = v
	}
	pt.rows = &valueRows{rows: [][]types.Value{row}}
	return nil
}

// callLocal evaluates one of localFuncs.
func (c *conn) callLocal(fn string, args []types.Value) (types.Value, error) {
	switch fn {
	case "version":
		return types.StringValue(Version), nil
	case "current_schema":
		return types.StringValue("public"), nil
	case "current_database", "current_catalog":
		return types.StringValue(c.database), nil
	case "pg_backend_pid":
		return types.Int64Value(int64(c.pid)), nil
	case "pg_advisory_unlock_all": // Shale takes no advisory locks: none to release (asyncpg's pool calls it)
		return types.StringValue(""), nil
	case "set_config":
		// set_config(name, value, is_local) is SET [LOCAL] name = value;
		// outside a transaction block a local setting lasts only for its
		// statement, so it changes nothing.
		if len(args) != 3 || args[0].IsNull() {
			return types.NullOf(types.String), nil
		}
		name, local := strings.ToLower(args[0].Str()), strings.EqualFold(args[2].Str(), "true")
		if local && !c.inBlock() {
			return types.StringValue(args[1].Str()), nil
		}
		if err := c.runSet(&localStmt{kind: localSet, name: name, value: args[1].Str(), local: local}); err != nil {
			return types.Value{}, err
		}
		v, _ := c.set.get(name)
		return types.StringValue(v), nil
	case "current_setting":
		if len(args) < 1 || len(args) > 2 || args[0].IsNull() {
			return types.NullOf(types.String), nil
		}
		v, ok := c.set.get(args[0].Str())
		if !ok {
			if len(args) == 2 && strings.EqualFold(args[1].Str(), "true") {
				return types.NullOf(types.String), nil
			}
			return types.Value{}, unknownSetting(args[0].Str())
		}
		return types.StringValue(v), nil
	}
	return types.StringValue(c.user), nil // current_user, session_user, user, current_role
}

// runTxn runs the transaction statements: Shale is read-only over SQL, so
// they only track the status ReadyForQuery reports.
func (c *conn) runTxn(st *localStmt) (string, error) {
	switch st.kind {
	case localBegin:
		if c.tx != txIdle {
			c.notice(codeActiveTxn, "there is already a transaction in progress")
		} else {
			c.tx = txActive
		}
		c.applyTxnModes(st.modes, false)
		return "BEGIN", nil
	case localCommit, localRollback:
		tag := "COMMIT"
		if st.kind == localRollback || c.tx == txFailed {
			tag = "ROLLBACK"
		}
		if c.tx == txIdle {
			c.notice(codeNoActiveTxn, "there is no transaction in progress")
		}
		if tag == "ROLLBACK" {
			c.abortTxn()
		}
		c.endTxn()
		return tag, nil
	}
	if c.tx == txIdle {
		return "", errorf(codeNoActiveTxn, strings.ToUpper(map[localKind]string{localRollbackTo: "rollback to savepoint",
			localSavepoint: "savepoint", localRelease: "release savepoint"}[st.kind])+" can only be used in transaction blocks")
	}
	if st.kind != localSavepoint && c.savepointLayer(st.name) < 0 {
		return "", errorf(codeNoSavepoint, `savepoint "`+st.name+`" does not exist`)
	}
	switch st.kind {
	case localRollbackTo:
		c.tx = txActive
		c.rollbackToSettings(st.name)
		return "ROLLBACK", nil
	case localSavepoint:
		c.savepointSettings(st.name)
		return "SAVEPOINT", nil
	}
	c.releaseSettings(st.name)
	return "RELEASE", nil
}

// endTxn ends a transaction block: portals and cursors without HOLD close,
// and SET LOCAL values are undone.
func (c *conn) endTxn() {
	c.tx = txIdle
	c.closePortals()
	for name, cur := range c.cursors {
		if !cur.hold {
			cur.close()
			delete(c.cursors, name)
		}
	}
	for k, lp := range c.localUndo {
		if strings.HasPrefix(k, "transaction_") {
			c.set.vals[k] = lp.v
			continue
		}
		if _, report, err := c.set.set(k, lp.v, false); err == nil {
			c.settingChanged(k, report)
		}
	}
	c.localUndo, c.txnUndo = nil, nil
}

// dropNamedStatements drops every prepared statement but the unnamed one
// (DEALLOCATE ALL, DISCARD ALL): in PostgreSQL that one is no prepared
// statement SQL can name.
func (c *conn) dropNamedStatements() {
	for name := range c.stmts {
		if name != "" {
			delete(c.stmts, name)
		}
	}
}

func (c *conn) runDiscard(st *localStmt) error {
	if st.word != "ALL" {
		return nil
	}
	if c.inBlock() {
		return errorf(codeActiveTxn, "DISCARD ALL cannot run inside a transaction block")
	}
	if c.pipelined {
		return errorf(codeActiveTxn, "DISCARD ALL cannot be executed within a pipeline")
	}
	c.closeAll()
	c.dropNamedStatements()
	for k := range c.set.vals {
		c.resetSetting(k)
	}
	c.txnUndo = nil // committed at once, in PostgreSQL
	return nil
}

// valueRows is a Rows over rows pgwire computed itself.
type valueRows struct {
	rows [][]types.Value
	cur  []types.Value
}

func (r *valueRows) Next() bool {
	if len(r.rows) == 0 {
		return false
	}
	r.cur, r.rows = r.rows[0], r.rows[1:]
	return true
}
func (r *valueRows) Row() []types.Value { return r.cur }
func (r *valueRows) Err() error         { return nil }
func (r *valueRows) Close() error       { r.rows = nil; return nil }

// checkRelations fails with the Catalog's error (42P01) for the first name
// that is no relation, by reading it as a regclass.
func (c *conn) checkRelations(names [][]string) error {
	cat := c.srv.opts.Catalog
	if cat == nil {
		return nil
	}
	for _, parts := range names {
		quoted := make([]string, len(parts))
		for i, p := range parts {
			quoted[i] = quoteIdentIfNeeded(p)
		}
		lit := "'" + strings.ReplaceAll(strings.Join(quoted, "."), "'", "''") + "'"
		prepare := cat.Prepare
		if fb, isFB := cat.(FallbackCatalog); isFB { // the statement names no catalog relation
			prepare = fb.PrepareFallback
		}
		st, ok, err := prepare(c.ctx, c.session(), "SELECT "+lit+"::regclass", nil)
		if err == nil && ok {
			var rows Rows
			if rows, err = st.Run(c.ctx, nil); err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
		}
		if err != nil {
			pe := toPGError(c.ctx, err, nil)
			pe.pos = -1 // the error is about the LOCK's name, not the query it was checked with
			if pe.code == codeUndefinedTable {
				pe.msg = fmt.Sprintf("relation \"%s\" does not exist", strings.Join(parts, "."))
			}
			return pe
		}
	}
	return nil
}

// quoteIdentIfNeeded double-quotes an identifier unless it reads the same
// unquoted (lower case letters, digits and underscores, not starting with
// a digit).
func quoteIdentIfNeeded(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
