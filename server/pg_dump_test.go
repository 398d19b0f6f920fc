package server_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPGDump runs pg_dump against `shale demo`: every catalog query it
// sends is answered, LOCK TABLE is accepted, and each table's rows come out
// through COPY in a form PostgreSQL loads (no \u0000 in jsonb). Loading the
// dump into PostgreSQL 15 was checked by hand (psql -f into a fresh
// database: every row of the five tables).
func TestPGDump(t *testing.T) {
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		t.Skip("pg_dump is not installed")
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	host, port, _ := strings.Cut(addr, ":")
	out, err := exec.Command(pgDump, "-h", host, "-p", port, "-d", "demo", "--no-owner").Output()
	if err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	dump := string(out)
	for _, want := range []string{
		"CREATE TABLE public.analytics (\n    _key bytea NOT NULL,\n    cell_plan jsonb,\n    stats_summary jsonb\n);",
		"CREATE TABLE public.readings (\n    device_type text NOT NULL,\n    device_id text NOT NULL,\n    ts timestamp with time zone NOT NULL,\n    stats jsonb\n);",
		"ALTER TABLE ONLY public.readings\n    ADD CONSTRAINT readings_pkey PRIMARY KEY (device_type, device_id, ts);",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("the dump lacks\n%s", want)
		}
	}
	// The rows of each table, as COPY ... FROM stdin blocks.
	rows := map[string]int{}
	table := ""
	for _, line := range strings.Split(dump, "\n") {
		switch {
		case strings.HasPrefix(line, "COPY public."):
			table = strings.Fields(strings.TrimPrefix(line, "COPY public."))[0]
		case line == `\.`:
			table = ""
		case table != "":
			rows[table]++
		}
	}
	for name, want := range map[string]int{"albums": 5, "analytics": 6, "counters": 3, "readings": 18, "usage": 3600} {
		if rows[name] != want {
			t.Errorf("%s: %d rows in the dump, want %d", name, rows[name], want)
		}
	}
	if strings.Contains(dump, `\\u0000`) {
		t.Error(`the dump holds \u0000, which PostgreSQL's jsonb refuses`)
	}
	// The schema public is PostgreSQL's own: nothing to say about it.
	for _, unwanted := range []string{"SCHEMA public", "REVOKE", "GRANT"} {
		if strings.Contains(dump, unwanted) {
			t.Errorf("the dump says %q", unwanted)
		}
	}
}
