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
			return errorf(codeDuplicateStatement, fmt.Sprintf("prepared statement %q already exists", m.Name))
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
	p, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return errorf(codeInvalidStatement, fmt.Sprintf("prepared statement %q does not exist", m.PreparedStatement))
	}
	if m.DestinationPortal != "" {
		if _, dup := c.portals[m.DestinationPortal]; dup {
			return errorf(codeDuplicateCursor, fmt.Sprintf("portal %q already exists", m.DestinationPortal))
		}
	} else if old := c.portals[""]; old != nil {
		delete(c.portals, "")
		old.discard()
	}
	if c.tx == txFailed && (p.local == nil || (p.local.kind != localCommit && p.local.kind != localRollback &&
		p.local.kind != localRollbackTo)) {
		return errorf(codeInFailedTxn, "current transaction is aborted, commands ignored until end of transaction block")
	}
	if len(m.Parameters) != len(p.params) {
		return errorf(codeProtocolViolation, fmt.Sprintf("bind message supplies %d parameters, but prepared statement %q requires %d",
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
		if f != formatText && f != formatBinary {
			return errorf(codeProtocolViolation, fmt.Sprintf("unsupported format code: %d", f))
		}
		v, err := decodeParam(&p.params[i], f, b)
		if err != nil {
			if pe, ok := err.(*pgError); ok {
				pe.msg += fmt.Sprintf(" (parameter $%d)", i+1)
			}
			return err
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

// describe handles Describe: a statement answers ParameterDescription then
// RowDescription or NoData; a portal answers RowDescription or NoData.
func (c *conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		p, ok := c.stmts[m.Name]
		if !ok {
			return errorf(codeInvalidStatement, fmt.Sprintf("prepared statement %q does not exist", m.Name))
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
		c.sendRowDescription(cols, nil)
	case 'P':
		pt, ok := c.portals[m.Name]
		if !ok {
			if cur := c.cursors[m.Name]; cur != nil && m.Name != "" {
				// A DECLAREd cursor is a portal too: psycopg 3 describes
				// its server-side cursors so.
				c.sendRowDescription(cur.cols, cursorFormats(cur))
				return nil
			}
			return errorf(codeInvalidPortal, fmt.Sprintf("portal %q does not exist", m.Name))
		}
		return c.describePortal(pt)
	default:
		return errorf(codeProtocolViolation, fmt.Sprintf("invalid DESCRIBE message subtype %d", m.ObjectType))
	}
	return nil
}

// execute handles Execute: run the portal up to MaxRows rows.
func (c *conn) execute(m *pgproto3.Execute) error {
	pt, ok := c.portals[m.Portal]
	if !ok {
		return errorf(codeInvalidPortal, fmt.Sprintf("portal %q does not exist", m.Portal))
	}
	text := pt.p.text
	pt.running = true
	err := c.run(pt, int64(m.MaxRows))
	pt.running = false
	return at(err, text, 0)
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
