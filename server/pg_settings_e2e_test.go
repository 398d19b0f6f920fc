package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPGSettingsAgree checks that pg_settings, current_setting and SHOW
// read the same session: the value, and where it came from (the
// StartupMessage, SET, or the server), as \dconfig and tools' settings
// pages show it.
func TestPGSettingsAgree(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	c, err := pgx.Connect(ctx, "postgres://tester@"+addr+"/demo?sslmode=disable&application_name=settings-test")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "SET extra_float_digits = 2"); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(ctx, `SELECT name, setting, source, boot_val, category FROM pg_settings
		WHERE name IN ('application_name', 'extra_float_digits', 'TimeZone', 'DateStyle', 'bytea_output') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var name, setting, source, boot, category string
		if err := rows.Scan(&name, &setting, &source, &boot, &category); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{name, setting, source, boot, category}, "|"))
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	want := []string{
		"DateStyle|ISO, MDY|default|ISO, MDY|Client Connection Defaults / Locale and Formatting",
		"TimeZone|UTC|override|GMT|Client Connection Defaults / Locale and Formatting",
		"application_name|settings-test|client||Reporting and Logging / What to Log",
		"bytea_output|hex|default|hex|Client Connection Defaults / Statement Behavior",
		"extra_float_digits|2|session|1|Client Connection Defaults / Locale and Formatting",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pg_settings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A setting with a unit shows as a number of it, as in PostgreSQL.
	if _, err := c.Exec(ctx, "SET statement_timeout = '5s'"); err != nil {
		t.Fatal(err)
	}
	var mem, timeout, memUnit string
	if err := c.QueryRow(ctx, `SELECT (SELECT setting FROM pg_settings WHERE name = 'work_mem'),
		(SELECT unit FROM pg_settings WHERE name = 'work_mem'),
		(SELECT setting FROM pg_settings WHERE name = 'statement_timeout')`).Scan(&mem, &memUnit, &timeout); err != nil {
		t.Fatal(err)
	}
	if mem != "4096" || memUnit != "kB" || timeout != "5000" {
		t.Errorf("work_mem %s %s, statement_timeout %s: want 4096 kB and 5000", mem, memUnit, timeout)
	}
	// SHOW ALL lists the same parameters, with their descriptions.
	var name, setting, desc string
	rows, err = c.Query(ctx, "SHOW ALL", pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for rows.Next() {
		if err := rows.Scan(&name, &setting, &desc); err != nil {
			t.Fatal(err)
		}
		if name == "work_mem" {
			found = setting == "4MB" && desc == "Sets the maximum memory to be used for query workspaces."
		}
	}
	if rows.Err() != nil || !found {
		t.Errorf("SHOW ALL: no work_mem row with its value and description (%v)", rows.Err())
	}
	for _, name := range []string{"lc_collate", "transaction_read_only", "default_transaction_read_only", "server_version", "is_superuser"} {
		var show, current, table string
		if err := c.QueryRow(ctx, "SHOW "+name).Scan(&show); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRow(ctx, "SELECT current_setting($1), (SELECT setting FROM pg_settings WHERE name = $1)", name).Scan(&current, &table); err != nil {
			t.Fatal(err)
		}
		if show != current || show != table {
			t.Errorf("%s: SHOW %q, current_setting %q, pg_settings %q", name, show, current, table)
		}
	}
}
