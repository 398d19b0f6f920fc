package main

import (
	"bytes"
	"os"
	"testing"
)

// TestUpToDate fails when docs/functions.md is not what the registry
// generates: run `go generate ./sql` after changing the function library.
func TestUpToDate(t *testing.T) {
	want := generate()
	got, err := os.ReadFile("../../../docs/functions.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("docs/functions.md is stale: run `go generate ./sql`")
	}
}
