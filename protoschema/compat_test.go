package protoschema

import (
	"os"
	"strings"
	"testing"
)

// TestCheckUpdate edits testdata/music.textproto and checks which edits
// CheckUpdate reports (spec §6.5).
func TestCheckUpdate(t *testing.T) {
	raw, err := os.ReadFile("testdata/music.textproto")
	if err != nil {
		t.Fatal(err)
	}
	base := string(raw)
	oldSet, err := DescriptorSetFromText(base)
	if err != nil {
		t.Fatal(err)
	}
	const title = `field { name: "title" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "title" }`
	const year = `field { name: "release_year" number: 3 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "releaseYear" }`
	const artist = `message_type {
    name: "Artist"
    field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "name" }
  }`
	const sep = "\x00"
	cases := []struct {
		name     string
		old, new string // replaced in the text (old must occur); sep separates several replacements
		want     []string
	}{
		{"identical", "", "", nil},
		{"field added", title, title + "\n" + `field { name: "subtitle" number: 30 label: LABEL_OPTIONAL type: TYPE_STRING }`, nil},
		{"message added", artist, artist + "\n" + `message_type { name: "Label" field { name: "n" number: 1 type: TYPE_STRING label: LABEL_OPTIONAL } }`, nil},
		{"enum value added", `value { name: "JAZZ" number: 2 }`, `value { name: "JAZZ" number: 2 } value { name: "POP" number: 3 }`, nil},
		{"int32 to int64", year, strings.Replace(year, "TYPE_INT32", "TYPE_INT64", 1), nil},
		{"field removed", title, "", []string{"package_name.Album.title: field removed (number 1)"}},
		{"field type changed", year, strings.Replace(year, "TYPE_INT32", "TYPE_STRING", 1),
			[]string{"package_name.Album.release_year: field 3 type changed from int32 to string"}},
		{"field renumbered", year, strings.Replace(year, "number: 3", "number: 33", 1),
			[]string{"package_name.Album.release_year: field renumbered from 3 to 33"}},
		{"number reused with another type", year, `field { name: "year_label" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }`,
			[]string{"package_name.Album.release_year: field number 3 renamed to year_label",
				"package_name.Album.release_year: field 3 type changed from int32 to string"}},
		{"made repeated", year, strings.Replace(year, "LABEL_OPTIONAL", "LABEL_REPEATED", 1),
			[]string{"package_name.Album.release_year: field 3 changed from singular to repeated"}},
		{"message type changed",
			`type_name: ".package_name.Artist" json_name: "artist"`, `type_name: ".package_name.Album" json_name: "artist"`,
			[]string{"package_name.Album.artist: field 2 type changed from package_name.Artist to package_name.Album"}},
		{"enum value removed", `value { name: "JAZZ" number: 2 }`, "", []string{"package_name.Genre.JAZZ: enum value removed (number 2)"}},
		{"message renamed", `name: "Artist"` + sep + `".package_name.Artist"`, `name: "Person"` + sep + `".package_name.Person"`, []string{
			"package_name.Album.artist: field 2 type changed from package_name.Artist to package_name.Person",
			"package_name.Album.guests: field 16 type changed from package_name.Artist to package_name.Person",
			"package_name.Album.producer: field 8 type changed from package_name.Artist to package_name.Person",
			"package_name.Artist: message removed",
		}},
		{"enum renamed", `name: "Level"` + sep + `type_name: ".legacy.Level"`, `name: "Level2"` + sep + `type_name: ".legacy.Level2"`, []string{
			"legacy.Legacy.level: field 3 type changed from enum legacy.Level to enum legacy.Level2",
			"legacy.Level: enum removed",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := base
			news := strings.Split(c.new, sep)
			for i, old := range strings.Split(c.old, sep) {
				if !strings.Contains(text, old) {
					t.Fatalf("fixture lacks %q", old)
				}
				text = strings.ReplaceAll(text, old, news[i])
			}
			newSet, err := DescriptorSetFromText(text)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CheckUpdate(oldSet, newSet)
			if err != nil {
				t.Fatal(err)
			}
			var gs []string
			for _, g := range got {
				gs = append(gs, g.String())
			}
			if strings.Join(gs, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("CheckUpdate =\n%s\nwant\n%s", strings.Join(gs, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	if _, err := CheckUpdate(oldSet, []byte("\xff\xff")); err == nil {
		t.Error("CheckUpdate of garbage: no error")
	}
}
