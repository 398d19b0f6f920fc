package catalog

import (
	"testing"

	"github.com/shale-db/shale/storage"
)

func TestFromStorage(t *testing.T) {
	st := &storage.Table{Name: "t", Families: []storage.Family{{Name: "z"}, {Name: "a", Aggregate: storage.Sum}}}
	tb := FromStorage(st)
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
