package textdist

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"SUBSTRNG", "SUBSTRING", 1}, {"titel", "title", 2}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"tags", "title", "tracks", "release_year", "title", "artist"}
	for _, tc := range []struct {
		name   string
		k, max int
		want   []string
	}{
		{"year", 3, -1, []string{"release_year", "tags", "title"}},
		{"titel", 2, -1, []string{"title", "tags"}},
		{"TRACK", 1, 2, []string{"tracks"}},
		{"zzzzzzzz", 3, 2, []string{}},
		{"music.Album", 1, -1, []string{"records.Album"}},
	} {
		in := names
		if tc.name == "music.Album" {
			in = []string{"records.Artist", "records.Album", "records.Album.Track"}
		}
		got := Nearest(tc.name, in, tc.k, tc.max)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q, k=%d, max=%d) = %q, want %q", tc.name, tc.k, tc.max, got, tc.want)
		}
	}
}
