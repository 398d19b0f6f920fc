package pgwire

import (
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// startupTimeout bounds the whole startup phase (PostgreSQL's
// authentication_timeout).
const startupTimeout = time.Minute

// startup runs the connection's first phase: SSLRequest and GSSENCRequest
// negotiation, then a StartupMessage (which establishes a session) or a
// CancelRequest (which is acted on and never answered). It reports whether
// a session is established.
func (c *conn) startup() bool {
	c.nc.SetDeadline(time.Now().Add(startupTimeout))
	c.rd = newConnReader(c.nc)
	c.be = pgproto3.NewBackend(c.rd, c.nc)
	c.be.SetMaxBodyLen(maxMessage)
	c.w.w = c.nc
	if rs := newRawSocket(c.nc); rs != nil {
		c.rd.raw, c.w.w = rs, rs
	}
	secured := false
	for {
		msg, err := c.be.ReceiveStartupMessage()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, net.ErrClosed) {
				c.sendError(fatal(codeProtocolViolation, "invalid startup packet: "+err.Error()))
				c.w.flush()
			}
			return false // an EOF here is a client hanging up after 'N' (pgx, psql sslmode=require)
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if secured {
				c.sendError(fatal(codeProtocolViolation, "SSLRequest after TLS is established"))
				c.w.flush()
				return false
			}
			if c.srv.opts.TLS == nil {
				if _, err := c.nc.Write([]byte{'N'}); err != nil {
					return false
				}
				continue
			}
			if _, err := c.nc.Write([]byte{'S'}); err != nil {
				return false
			}
			tc := tls.Server(c.nc, c.srv.opts.TLS)
			if err := tc.Handshake(); err != nil {
				return false
			}
			// Bytes the client sent before the handshake are dropped with
			// the old reader (CVE-2021-23214).
			c.nc, secured = tc, true
			c.rd = newConnReader(tc)
			c.be = pgproto3.NewBackend(c.rd, tc)
			c.be.SetMaxBodyLen(maxMessage)
			c.w.w = tc
		case *pgproto3.GSSEncRequest:
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return false
			}
		case *pgproto3.CancelRequest:
			if len(m.SecretKey) == 4 {
				c.srv.cancelRequest(m.ProcessID, binary.BigEndian.Uint32(m.SecretKey))
			}
			return false
		case *pgproto3.StartupMessage:
			if err := c.establish(m); err != nil {
				c.sendError(err)
				c.w.flush()
				return false
			}
			c.nc.SetDeadline(time.Time{})
			return true
		}
	}
}

// establish authenticates the user and starts the session: AuthenticationOk,
// ParameterStatus for every reported setting, BackendKeyData and
// ReadyForQuery.
func (c *conn) establish(m *pgproto3.StartupMessage) error {
	c.user = m.Parameters["user"]
	if c.user == "" {
		return fatal(codeInvalidAuthSpec, "no PostgreSQL user name specified in startup packet")
	}
	c.database = m.Parameters["database"]
	if c.database == "" {
		c.database = c.user
	}
	if err := c.srv.register(c); err != nil {
		return err
	}
	var unknown []string
	for k := range m.Parameters {
		if strings.HasPrefix(k, "_pq_.") {
			unknown = append(unknown, k)
		}
	}
	if m.ProtocolVersion != pgproto3.ProtocolVersion30 || len(unknown) > 0 {
		c.w.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unknown})
	}
	if err := c.authenticate(); err != nil {
		c.srv.unregister(c) // before the client hears of it and retries
		return err
	}
	c.set = newSettings(c.user)
	for k, v := range startupOptions(m.Parameters) {
		if _, _, err := c.set.set(k, v, true); err != nil {
			pe := toPGError(nil, err, nil)
			return fatal(pe.code, pe.msg)
		}
	}
	c.set.freezeDefaults()
	c.settingChanged("", false)
	c.w.send(&pgproto3.AuthenticationOk{})
	c.reported = map[string]string{}
	for _, s := range knownSettings {
		if s.report {
			v, _ := c.set.get(s.name)
			c.w.send(&pgproto3.ParameterStatus{Name: s.name, Value: v})
			c.reported[s.name] = v
		}
	}
	key := binary.BigEndian.AppendUint32(nil, c.secret)
	c.w.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: key})
	c.readyForQuery()
	return c.w.err
}

// startupOptions are the run-time parameters of a StartupMessage: its
// fields other than user, database, replication and protocol options, and
// the -c name=value (or --name=value) switches of "options".
func startupOptions(p map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		switch {
		case k == "user" || k == "database" || k == "replication" || strings.HasPrefix(k, "_pq_."):
		case k == "options":
			f := strings.Fields(v)
			for i := 0; i < len(f); i++ {
				opt := f[i]
				if opt == "-c" && i+1 < len(f) {
					i++
					opt = f[i]
				} else if s, ok := strings.CutPrefix(opt, "--"); ok {
					opt = s
				} else if s, ok := strings.CutPrefix(opt, "-c"); ok {
					opt = s
				}
				if name, val, ok := strings.Cut(opt, "="); ok {
					out[strings.ReplaceAll(name, "-", "_")] = val
				}
			}
		default:
			out[k] = v
		}
	}
	return out
}
