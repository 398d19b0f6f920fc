package server

import (
	"crypto/tls"
	"fmt"
	"net"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
)

// listenPG binds the PostgreSQL endpoint and builds its server from the
// configuration (TLS, passwords, connection limit). An address that cannot
// be bound fails Start, like the other listeners; --pg "" turns the
// endpoint off.
func (s *Server) listenPG(e *engine.Engine) error {
	cfg := s.cfg
	if cfg.PGAddr == "" {
		return nil
	}
	opts := pgwire.Options{Executor: NewPGExecutor(e), Catalog: pgCatalog{store: s.engine, sql: e}, MaxConns: cfg.PGMaxConns, Logger: cfg.Logger}
	if (cfg.PGTLSCert == "") != (cfg.PGTLSKey == "") {
		return fmt.Errorf("postgres: --pg-tls-cert and --pg-tls-key go together")
	}
	if cfg.PGTLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.PGTLSCert, cfg.PGTLSKey)
		if err != nil {
			return fmt.Errorf("postgres TLS: %w", err)
		}
		opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	var err error
	switch {
	case cfg.PGUsersFile != "":
		if opts.Auth, err = pgwire.LoadUsers(cfg.PGUsersFile); err == nil && cfg.PGPassword != "" {
			opts.Auth, err = opts.Auth.WithPassword(cfg.PGPassword)
		}
	case cfg.PGPassword != "":
		opts.Auth, err = pgwire.PasswordAuth(cfg.PGPassword)
	}
	if err != nil {
		return fmt.Errorf("postgres users: %w", err)
	}
	if s.pgLis, err = net.Listen("tcp", cfg.PGAddr); err != nil {
		return fmt.Errorf("postgres listener (choose another address with --pg ADDR, or turn it off with --pg \"\"): %w", err)
	}
	s.pg = pgwire.NewServer(opts)
	return nil
}

// logPG logs the PostgreSQL listener's line.
func (s *Server) logPG() {
	addr := s.pgLis.Addr().(*net.TCPAddr)
	auth := "trust"
	if s.cfg.PGPassword != "" || s.cfg.PGUsersFile != "" {
		auth = "scram-sha-256"
	}
	tlsOn := "off"
	if s.cfg.PGTLSCert != "" {
		tlsOn = "on"
	}
	log := s.cfg.Logger
	log.Info("shale: PostgreSQL listening", "addr", addr.String(), "auth", auth, "tls", tlsOn)
	if auth == "trust" && !addr.IP.IsLoopback() {
		log.Warn("shale: the PostgreSQL endpoint trusts every client on a non-loopback address; set --pg-password or --pg-users")
	}
	if s.cfg.Demo {
		log.Info("shale: try the demo over PostgreSQL", "psql",
			fmt.Sprintf("psql -h %s -p %d -d demo -c \"SELECT _key, stats_summary['os_build'] FROM analytics\"", addr.IP, addr.Port))
	}
}
