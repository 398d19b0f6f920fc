package sql

import (
	"strings"
	"testing"

	"github.com/cloudspannerecosystem/memefish/token"
)

// TestIsKeyword: isKeyword is memefish's token.IsKeyword.
func TestIsKeyword(t *testing.T) {
	for _, k := range token.Keywords {
		w := string(k)
		for _, word := range []string{w, strings.ToLower(w), strings.ToLower(w[:1]) + w[1:], w + "S", "X" + w, w[:len(w)-1]} {
			if got, want := isKeyword(word), token.IsKeyword(word); got != want {
				t.Errorf("isKeyword(%q) = %v, want %v", word, got, want)
			}
		}
	}
	if isKeyword(strings.Repeat("a", 30)) || !isKeyword("select") {
		t.Error("isKeyword")
	}
}
