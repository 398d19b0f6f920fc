package catalog

import (
	"fmt"
	"testing"

	"github.com/shale-db/shale/storage"
)

func TestFromStorage(t *testing.T) {
	st := &storage.Table{Name: "t", Families: []storage.Family{{Name: "z"}, {Name: "a", Aggregate: storage.Sum}}}
	tb, err := FromStorage(st)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, c := range tb.Columns(false) {
		got += c.Name + " " + c.Type.String() + "; "
	}
	if want := "_key BYTES; a MAP<BYTES, INT64>; z MAP<BYTES, BYTES>; "; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	h := tb.Columns(true)[2].Type.String()
	if want := "MAP<BYTES, ARRAY<STRUCT<timestamp TIMESTAMP, value BYTES>>>"; h != want {
		t.Fatalf("got %q", h)
	}
}

func TestFromStorageKeySchema(t *testing.T) {
	st := &storage.Table{Name: "sales", Families: []storage.Family{{Name: "product"}},
		RowKeySchema: []byte(`delimited_bytes("#") (user_id BYTES raw, purchase_date STRING utf8_bytes)`)}
	tb, err := FromStorage(st)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, c := range tb.Columns(false) {
		got += fmt.Sprintf("%s %s hidden=%t key=%d fam=%d; ", c.Name, c.Type, c.Hidden, c.KeyField, c.Family)
	}
	want := "_key BYTES hidden=true key=-1 fam=-1; user_id BYTES hidden=false key=0 fam=-1; " +
		"purchase_date STRING hidden=false key=1 fam=-1; product MAP<BYTES, BYTES> hidden=false key=-1 fam=0; "
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if pk := tb.PrimaryKey(); len(pk) != 2 || pk[1] != "purchase_date" || tb.FamilyCol(0) != 3 {
		t.Fatalf("primary key %v, family col %d", pk, tb.FamilyCol(0))
	}
	st.RowKeySchema = []byte("singleton (a STRING utf8_bytes, b STRING utf8_bytes)")
	if _, err := FromStorage(st); err == nil {
		t.Fatal("an invalid stored schema was accepted")
	}
}
