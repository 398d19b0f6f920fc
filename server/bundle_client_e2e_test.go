package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"cloud.google.com/go/bigtable"
)

// TestBundleOfficialClient uploads a .proto through `shale bundle create`
// against `shale serve` and reads fields of the protobuf cells through
// the official Go client's PrepareStatement / Bind / Execute: a nested
// field, a scalar filtered by a parameter, a repeated field as an ARRAY,
// and a nested message's .* expansion.
func TestBundleOfficialClient(t *testing.T) {
	ctx := context.Background()
	p := startShaleCmd(t, "serve", t.TempDir())
	c, ac := p.clientsOf(t, "proj", "inst")
	if err := ac.CreateTable(ctx, "reviews"); err != nil {
		t.Fatal(err)
	}
	if err := ac.CreateColumnFamily(ctx, "reviews", "r"); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "shop", "review.proto"), []byte(`syntax = "proto3";
package shop;
message Author {
  string name = 1;
  string city = 2;
}
message Review {
  string text = 1;
  int32 stars = 2;
  repeated string tags = 3;
  Author author = 4;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"bundle", "create", "--addr", p.grpcAddr, "--project", "proj", "--instance", "inst",
		"--table", "reviews", "--id", "rb", "-I", src, "--proto", "shop/review.proto"}
	if out, err := exec.Command(shaleBin, args...).CombinedOutput(); err != nil {
		t.Fatalf("shale bundle create: %v\n%s", err, out)
	}

	// Review{text, stars, tags, author{name, city}} written by hand in the
	// wire format.
	cells := map[string]string{
		"k1": "\x0a\x05great\x10\x05\x1a\x03fun\x1a\x04fast\x22\x0c\x0a\x03Ana\x12\x05Paris",
		"k2": "\x0a\x02ok\x10\x03\x22\x05\x0a\x03Bob",
		"k3": "\x0a\x03bad\x10\x01",
	}
	tbl := c.Open("reviews")
	for k, v := range cells {
		mut := bigtable.NewMutation()
		mut.Set("r", "review", 0, []byte(v))
		if err := tbl.Apply(ctx, k, mut); err != nil {
			t.Fatal(err)
		}
	}

	rows := execute(t, c, `SELECT _key, CAST(r['review'] AS rb.shop.Review).text, CAST(r['review'] AS rb.shop.Review).stars, `+
		`CAST(r['review'] AS rb.shop.Review).tags, CAST(r['review'] AS rb.shop.Review).author.name AS author FROM reviews `+
		`WHERE CAST(r['review'] AS rb.shop.Review).stars >= @min ORDER BY _key`,
		map[string]bigtable.SQLType{"min": bigtable.Int64SQLType{}}, map[string]any{"min": int64(3)})
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	want := []struct {
		key, text, author string
		stars             int64
		tags              []string
	}{
		{"k1", "great", "Ana", 5, []string{"fun", "fast"}},
		{"k2", "ok", "Bob", 3, nil},
	}
	for i, r := range rows {
		var key []byte
		var text, author string
		var stars int64
		var tags []any
		for name, dest := range map[string]any{"_key": &key, "text": &text, "stars": &stars, "tags": &tags, "author": &author} {
			if err := r.GetByName(name, dest); err != nil {
				t.Fatalf("row %d: GetByName(%s): %v", i, name, err)
			}
		}
		w := want[i]
		if string(key) != w.key || text != w.text || stars != w.stars || author != w.author || len(tags) != len(w.tags) {
			t.Errorf("row %d = %s %q %d %v %q, want %+v", i, key, text, stars, tags, author, w)
			continue
		}
		for j, tag := range tags {
			if s, ok := tag.(string); !ok || s != w.tags[j] {
				t.Errorf("row %d: tags[%d] = %#v, want %q", i, j, tag, w.tags[j])
			}
		}
	}

	// .* on a nested message: one column per field, named after it.
	rows = execute(t, c, `SELECT CAST(r['review'] AS rb.shop.Review).author.* FROM reviews WHERE _key = 'k1'`, nil, nil)
	if len(rows) != 1 {
		t.Fatalf(".*: got %d rows, want 1", len(rows))
	}
	var name, city string
	if err := rows[0].GetByName("name", &name); err != nil || name != "Ana" {
		t.Errorf(".*: name = %q, %v", name, err)
	}
	if err := rows[0].GetByName("city", &city); err != nil || city != "Paris" {
		t.Errorf(".*: city = %q, %v", city, err)
	}
}
