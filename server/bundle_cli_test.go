package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	"github.com/jackc/pgx/v5"
)

// noteSet is a one-file descriptor set in text format: message
// notes.Note {string text = 1; int32 stars = 2; <extra>}.
func noteSet(extra string) string {
	return `file {
  name: "note.proto" package: "notes" syntax: "proto3"
  message_type {
    name: "Note"
    field { name: "text" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "text" }
    ` + extra + `
  }
}`
}

// TestBundleCLI drives `shale bundle` against `shale serve`: create from
// a descriptor-set file, query the field through pgx, list, get (text
// and serialized), a refused incompatible update, the same with
// --ignore-warnings, delete.
func TestBundleCLI(t *testing.T) {
	ctx := context.Background()
	p := startShaleCmd(t, "serve", t.TempDir())
	c, ac := p.clientsOf(t, "proj", "inst")
	if err := ac.CreateTable(ctx, "notes"); err != nil {
		t.Fatal(err)
	}
	if err := ac.CreateColumnFamily(ctx, "notes", "n"); err != nil {
		t.Fatal(err)
	}
	mut := bigtable.NewMutation()
	mut.Set("n", "note", 0, []byte("\x0a\x05hello\x10\x04")) // Note{text: "hello", stars: 4}
	if err := c.Open("notes").Apply(ctx, "k1", mut); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	v1 := write("v1.txtpb", noteSet(`field { name: "stars" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "stars" }`))
	v2 := write("v2.txtpb", noteSet(`field { name: "stars" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "stars" }`))
	run := func(wantErr bool, args ...string) string {
		t.Helper()
		args = append([]string{"bundle", args[0], "--addr", p.grpcAddr, "--project", "proj", "--instance", "inst"}, args[1:]...)
		out, err := exec.Command(shaleBin, args...).CombinedOutput()
		if (err != nil) != wantErr {
			t.Fatalf("shale %s: err %v, want error %v\n%s", strings.Join(args, " "), err, wantErr, out)
		}
		return string(out)
	}
	run(false, "create", "--table", "notes", "--id", "nb", "--descriptors", v1)

	pg, err := pgx.Connect(ctx, "postgres://u@"+p.pgAddr+"/proj.inst?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	var text string
	var stars int64
	if err := pg.QueryRow(ctx, `SELECT CAST(n['note'] AS nb.notes.Note).text, CAST(n['note'] AS nb.notes.Note).stars FROM notes`).Scan(&text, &stars); err != nil || text != "hello" || stars != 4 {
		t.Fatalf("query after create: %q %d %v", text, stars, err)
	}

	if out := run(false, "list", "--table", "notes"); out != "nb\n" {
		t.Errorf("list printed %q", out)
	}
	if out := run(false, "get", "--table", "notes", "--id", "nb", "--format", "textproto"); !strings.Contains(squeeze(out), `name:"stars"number:2label:LABEL_OPTIONALtype:TYPE_INT32`) || !strings.Contains(out, "// schema bundle nb of table notes, etag ") {
		t.Errorf("get printed:\n%s", out)
	}
	bin := filepath.Join(dir, "nb.pb")
	run(false, "get", "--table", "notes", "--id", "nb", "--out", bin)
	run(false, "create", "--table", "notes", "--id", "copy", "--descriptors", bin) // the serialized form reads back

	out := run(true, "update", "--table", "notes", "--id", "nb", "--descriptors", v2)
	if !strings.Contains(out, "notes.Note.stars: field 2 type changed from int32 to string") || !strings.Contains(out, "InvalidArgument") {
		t.Errorf("incompatible update printed:\n%s", out)
	}
	run(false, "update", "--table", "notes", "--id", "nb", "--descriptors", v2, "--ignore-warnings")
	if out := run(false, "get", "--table", "notes", "--id", "nb", "--format", "textproto"); !strings.Contains(squeeze(out), `name:"stars"number:2label:LABEL_OPTIONALtype:TYPE_STRING`) {
		t.Errorf("get after forced update:\n%s", out)
	}
	run(false, "delete", "--table", "notes", "--id", "nb")
	if out := run(false, "list", "--table", "notes"); out != "copy\n" {
		t.Errorf("list after delete printed %q", out)
	}
	// .proto source compiled in-process (an import of a well-known type
	// included), queried, and printed back as .proto source.
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(filepath.Join(src, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "notes", "note.proto"), []byte(`syntax = "proto3";
package notes;
import "google/protobuf/timestamp.proto";
// A note.
message Note {
  string text = 1;
  int32 stars = 2;
  google.protobuf.Timestamp at = 3;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run(false, "create", "--table", "notes", "--id", "src", "-I", src, "--proto", "notes/note.proto")
	if err := pg.QueryRow(ctx, `SELECT CAST(n['note'] AS src.notes.Note).stars FROM notes`).Scan(&stars); err != nil || stars != 4 {
		t.Fatalf("query of the compiled bundle: %d %v", stars, err)
	}
	out = run(false, "get", "--table", "notes", "--id", "src")
	for _, want := range []string{"// file: google/protobuf/timestamp.proto", "// file: notes/note.proto", "message Note {", "int32 stars = 2;", "google.protobuf.Timestamp at = 3;"} {
		if !strings.Contains(out, want) {
			t.Errorf("get --format proto lacks %q:\n%s", want, out)
		}
	}
	if out := run(true, "create", "--table", "notes", "--id", "bad", "-I", src, "--proto", "notes/missing.proto"); !strings.Contains(out, "missing.proto") {
		t.Errorf("missing .proto printed %q", out)
	}
	if out := run(true, "frob"); !strings.Contains(out, `unknown subcommand "frob"`) {
		t.Errorf("unknown subcommand printed %q", out)
	}
	if out := run(true, "create", "--table", "notes"); !strings.Contains(out, "--id is required") {
		t.Errorf("missing flag printed %q", out)
	}
}

// squeeze drops the white space prototext varies on purpose.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }
