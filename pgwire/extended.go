package pgwire

import (
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgproto3"
)

// parse handles Parse: prepare and store under the statement's name ("" is
// the unnamed statement, replaced by each Parse).
func (c *conn) parse(m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, dup := c.stmts[m.Name]; dup {
			return errorf(codeDuplicateStatement, fmt.Sprintf("prepared statement \"%s\" already exists", m.Name))
		}
	}
	spans := splitStatements(nil, m.Query)
	if len(spans) > 1 {
		return errorf(codeSyntax, "cannot insert multiple commands into a prepared statement")
	}
	query := m.Query
	if len(spans) == 1 {
		// PostgreSQL accepts a statement's terminating ";" in Parse, and
		// pgbench, node-postgres and others send it; positions stay valid
		// because only the tail is cut.
		query = m.Query[:spans[0].end]
	}
	p, err := c.prepare(query, m.ParameterOIDs)
	if err != nil {
		return at(err, m.Query, 0)
	}
	c.stmts[m.Name] = p
	c.w.send(&pgproto3.ParseComplete{})
	return nil
}

// bind handles Bind: decode the parameters and create the portal ("" is the
// unnamed portal, replaced by each Bind).
func (c *conn) bind(m *pgproto3.Bind) error {
	p, err := c.statement(m.PreparedStatement)
	if err != nil {
		return err
	}
	if m.DestinationPortal != "" {
		if c.portalNamed(m.DestinationPortal) {
			return errorf(codeDuplicateCursor, fmt.Sprintf("cursor \"%s\" already exists", m.DestinationPortal))
		}
	} else {
		c.dropUnnamedPortal()
	}
	if err := c.checkAborted(p.local); err != nil {
		return err
	}
	if len(m.Parameters) != len(p.params) {
		return errorf(codeProtocolViolation, fmt.Sprintf("bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
			len(m.Parameters), m.PreparedStatement, len(p.params)))
	}
	pf := m.ParameterFormatCodes
	if len(pf) > 1 && len(pf) != len(p.params) {
		return errorf(codeProtocolViolation, fmt.Sprintf("bind message has %d parameter formats but %d parameters",
			len(pf), len(p.params)))
	}
	args := p.takeArgs()
	for i, b := range m.Parameters {
		f := formatText
		switch len(pf) {
		case 1:
			f = pf[0]
		case len(p.params):
			f = pf[i]
		}
		if !validFormat(f) {
			return paramError(errorf(codeInvalidParamValue, fmt.Sprintf("unsupported format code: %d", f)),
				m.DestinationPortal, i, false)
		}
		v, err := decodeParam(&p.params[i], f, b)
		if err != nil {
			return paramError(err, m.DestinationPortal, i, f == formatText)
		}
		args[p.params[i].name] = v
	}
	pt := p.newPortal(args)
	switch {
	case p.local != nil:
		// A session statement's columns are known when it runs; Bind's
		// codes are only valid until the next message.
		pt.formats = slices.Clone(m.ResultFormatCodes)
	case !p.empty:
		if err := pt.resolveFormats(p.cols, m.ResultFormatCodes); err != nil {
			return err
		}
	}
	c.portals[m.DestinationPortal] = pt
	c.w.send(&pgproto3.BindComplete{})
	return nil
}

// paramError is the error of Bind's parameter i (0-based), as PostgreSQL
// words it: the parameter is named in the CONTEXT (Where) field, with its
// value elided when it is text, and a binary value with bytes left over
// is 22P03.
func paramError(err error, portal string, i int, text bool) error {
	if err == errTrailingBinary {
		err = errorf(codeInvalidBinary, fmt.Sprintf("incorrect binary data format in bind parameter %d", i+1))
	}
	pe, ok := err.(*pgError)
	if !ok {
		return err
	}
	pe.where = fmt.Sprintf("unnamed portal parameter $%d", i+1)
	if portal != "" {
		pe.where = fmt.Sprintf("portal \"%s\" parameter $%d", portal, i+1)
	}
	if text {
		// PostgreSQL shows the value up to log_parameter_max_length_on_error
		// bytes, 0 by default: none of it.
		pe.where += " = '...'"
	}
	return pe
}

// describe handles Describe: a statement answers ParameterDescription then
// RowDescription or NoData; a portal answers RowDescription or NoData. In
// a failed transaction block, one that returns rows fails with 25P02, as in
// PostgreSQL (describing them needs the catalog).
func (c *conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		p, err := c.statement(m.Name)
		if err != nil {
			return err
		}
		if c.tx == txFailed && p.returnsRows() {
			return errAborted()
		}
		pd := &pgproto3.ParameterDescription{ParameterOIDs: make([]uint32, len(p.params))}
		for i, pr := range p.params {
			pd.ParameterOIDs[i] = pr.oid
		}
		c.w.send(pd)
		cols := p.cols
		if p.local != nil {
			var err error
			if cols, err = c.localColumns(p.local); err != nil {
				return err
			}
		}
		c.sendRowDescription(cols, nil, p.isQuery())
	case 'P':
		pt, ok := c.portals[m.Name]
		if !ok {
			if cur := c.cursors[m.Name]; cur != nil && m.Name != "" {
				// A DECLAREd cursor is a portal too: psycopg 3 describes
				// its server-side cursors so.
				c.sendRowDescription(cur.cols, cursorFormats(cur), true)
				return nil
			}
			return errorf(codeInvalidPortal, fmt.Sprintf("portal \"%s\" does not exist", m.Name))
		}
		if c.tx == txFailed && pt.p.returnsRows() {
			return errAborted()
		}
		return c.describePortal(pt)
	default:
		return errorf(codeProtocolViolation, fmt.Sprintf("invalid DESCRIBE message subtype %d", m.ObjectType))
	}
	return nil
}

// statement returns the prepared statement name ("": the unnamed one).
func (c *conn) statement(name string) (*prepared, error) {
	if p, ok := c.stmts[name]; ok {
		return p, nil
	}
	if name == "" {
		return nil, errorf(codeInvalidStatement, "unnamed prepared statement does not exist")
	}
	return nil, errorf(codeInvalidStatement, fmt.Sprintf("prepared statement \"%s\" does not exist", name))
}

// execute handles Execute: run the portal up to MaxRows rows. As in
// PostgreSQL, a failed transaction block runs only a statement that ends
// it, and a portal that returns no rows runs once: executing it again
// fails with 55000.
func (c *conn) execute(m *pgproto3.Execute) error {
	pt, ok := c.portals[m.Portal]
	if !ok {
		if cur := c.cursors[m.Portal]; cur != nil && m.Portal != "" {
			if c.tx == txFailed {
				return errAborted()
			}
			return c.executeCursor(cur, int64(m.MaxRows))
		}
		return errorf(codeInvalidPortal, fmt.Sprintf("portal \"%s\" does not exist", m.Portal))
	}
	if err := c.checkAborted(pt.p.local); err != nil {
		return err
	}
	if pt.done && !pt.failed && pt.p.local != nil && len(pt.cols) == 0 {
		return errorf(codeObjectNotInPrereq, fmt.Sprintf("portal \"%s\" cannot be run", m.Portal))
	}
	text := pt.p.text
	pt.running = true
	err := c.run(pt, int64(m.MaxRows))
	pt.running = false
	if err == nil && pt.done {
		c.pipelined = pipelines(pt.p.local, c.pipelined)
	}
	return at(err, text, 0)
}

// pipelines returns whether the transaction is pipelined (conn.pipelined,
// was before) once an Execute completed a statement (local: a session
// statement's): COMMIT and ROLLBACK end the transaction, the other
// transaction statements leave it as it was, and the rest pipeline it.
func pipelines(local *localStmt, was bool) bool {
	if local == nil {
		return true
	}
	switch local.kind {
	case localCommit, localRollback:
		return false
	case localBegin, localSavepoint, localRelease, localRollbackTo:
		return was
	case localDiscard:
		// DISCARD ALL commits at once (PostgreSQL's
		// XACT_FLAGS_NEEDIMMEDIATECOMMIT), ending the transaction.
		return local.word != "ALL"
	}
	return true
}

// dropUnnamedPortal closes the unnamed portal, which each Bind to it and
// each statement of a simple Query replaces.
func (c *conn) dropUnnamedPortal() {
	if old := c.portals[""]; old != nil {
		delete(c.portals, "")
		old.discard()
	}
}

// closeMsg handles Close of a statement or portal; closing one that does
// not exist is not an error.
func (c *conn) closeMsg(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		delete(c.stmts, m.Name)
	case 'P':
		if pt := c.portals[m.Name]; pt != nil {
			delete(c.portals, m.Name)
			pt.discard()
		}
	default:
		return errorf(codeProtocolViolation, fmt.Sprintf("invalid CLOSE message subtype %d", m.ObjectType))
	}
	c.w.send(&pgproto3.CloseComplete{})
	return nil
}
