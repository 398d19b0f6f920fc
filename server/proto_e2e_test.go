package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// albumQuery is the README's query on the demo's protobuf cells.
const albumQuery = `SELECT CAST(info['album'] AS music.records.Album).title, CAST(info['album'] AS music.records.Album).artist.name AS artist, ` +
	`CAST(info['album'] AS music.records.Album).release_year AS year, CAST(info['album'] AS music.records.Album).tags FROM albums ` +
	`WHERE CAST(info['album'] AS music.records.Album).artist.country = $1 ORDER BY year`

// TestDemoProtoCells queries the demo's albums table (protobuf messages
// with the schema bundle "music") through pgx: nested and repeated
// fields, UNNEST of a repeated message, the EXPLAIN projection, whole
// messages as protojson (checkProtoJSON); then
// checks the bundle through the official admin client, including an
// update refused as incompatible (spec §6.5).
func TestDemoProtoCells(t *testing.T) {
	p, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	c, err := pgx.Connect(ctx, "postgres://demo@"+addr+"/demo?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)

	rows, err := c.Query(ctx, albumQuery, "US")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var title, artist string
		var year int64
		var tags []string
		if err := rows.Scan(&title, &artist, &year, &tags); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s|%s|%d|%v", title, artist, year, tags))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "Kind of Blue|Miles Davis|1959|[jazz modal] A Love Supreme|John Coltrane|1965|[jazz spiritual]"; strings.Join(got, " ") != want {
		t.Errorf("albums query = %q, want %q", strings.Join(got, " "), want)
	}

	var plan []string
	rows, err = c.Query(ctx, "EXPLAIN "+strings.Replace(albumQuery, "$1", "'US'", 1))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := `proto: info[b"album"] AS music.records.Album {artist.country, artist.name, release_year, tags, title}`; !strings.Contains(strings.Join(plan, "\n"), want) {
		t.Errorf("EXPLAIN lacks %q:\n%s", want, strings.Join(plan, "\n"))
	}

	// A repeated nested message, unnested and aggregated.
	var tracks, seconds int64
	err = c.QueryRow(ctx, `SELECT COUNT(*), SUM(t.seconds) FROM albums, UNNEST(CAST(info['album'] AS music.records.Album).tracks) AS t WHERE _key = 'album#0001'`).Scan(&tracks, &seconds)
	if err != nil || tracks != 3 || seconds != 1488 {
		t.Errorf("tracks of album#0001: %d, %d, %v", tracks, seconds, err)
	}
	var format int64
	if err := c.QueryRow(ctx, `SELECT CAST(info['album'] AS music.records.Album).format FROM albums WHERE _key = 'album#0003'`).Scan(&format); err != nil || format != 2 {
		t.Errorf("format of album#0003 = %d, %v, want 2 (CD)", format, err)
	}

	checkProtoJSON(ctx, t, c)

	// The bundle through the official admin client; dropping a field the
	// data uses is refused unless IgnoreWarnings.
	_, ac := p.clientsOf(t, "demo", "demo")
	info, err := ac.GetSchemaBundle(ctx, "albums", "music")
	if err != nil {
		t.Fatal(err)
	}
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(info.SchemaBundle, &fds); err != nil || len(fds.GetFile()) != 1 {
		t.Fatalf("bundle music: %v, %d files", err, len(fds.GetFile()))
	}
	album := fds.File[0].MessageType[1]
	if album.GetName() != "Album" {
		t.Fatalf("second message %s", album.GetName())
	}
	album.Field = album.Field[:len(album.Field)-1] // drop format
	smaller, err := proto.Marshal(&fds)
	if err != nil {
		t.Fatal(err)
	}
	up := bigtable.UpdateSchemaBundleConf{SchemaBundleConf: bigtable.SchemaBundleConf{TableID: "albums", SchemaBundleID: "music",
		ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: smaller}}}
	err = ac.UpdateSchemaBundle(ctx, up)
	wantCode(t, "dropping a field", err, codes.InvalidArgument)
	if err == nil || !strings.Contains(err.Error(), "records.Album.format: field removed (number 6)") {
		t.Errorf("UpdateSchemaBundle error %v does not name the removed field", err)
	}
}

// checkProtoJSON: whole messages arrive over pgwire as jsonb holding their
// protojson (lowerCamelCase names, enums by name), whether the column is
// the cell's message, a nested message field, a repeated message field or
// messages inside an ARRAY or STRUCT; in pgx's binary jsonb (extended
// protocol) and in the text form (simple protocol) alike.
func checkProtoJSON(ctx context.Context, t *testing.T, c *pgx.Conn) {
	t.Helper()
	const album = `CAST(info['album'] AS music.records.Album)`
	artist := map[string]any{"name": "The Beatles", "country": "GB"}
	tracks := []any{map[string]any{"title": "Come Together", "seconds": 259.0}, map[string]any{"title": "Something", "seconds": 182.0}}
	whole := map[string]any{"title": "Abbey Road", "artist": artist, "releaseYear": 1969.0, "tags": []any{"rock", "pop"},
		"tracks": tracks, "format": "LP"}
	q := `SELECT ` + album + `, ` + album + `.artist, ` + album + `.tracks, STRUCT(` + album + `.artist AS a, 7 AS n), [` + album + `.artist] ` +
		`FROM albums WHERE _key = 'album#0002'`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		var gotWhole, gotArtist, gotStruct map[string]any
		var gotTracks, gotArray []any
		var text string
		if err := c.QueryRow(ctx, q, mode).Scan(&gotWhole, &gotArtist, &gotTracks, &gotStruct, &gotArray); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		for _, cmp := range []struct {
			what      string
			got, want any
		}{
			{"whole message", gotWhole, whole},
			{"nested message", gotArtist, artist},
			{"repeated message", gotTracks, tracks},
			{"STRUCT with a message", gotStruct, map[string]any{"a": artist, "n": 7.0}},
			{"ARRAY of messages", gotArray, []any{artist}},
		} {
			if !reflect.DeepEqual(cmp.got, cmp.want) {
				t.Errorf("mode %v: %s = %v, want %v", mode, cmp.what, cmp.got, cmp.want)
			}
		}
		// The text is jsonb's spacing, stable whatever protojson chose.
		if err := c.QueryRow(ctx, `SELECT `+album+`.artist FROM albums WHERE _key = 'album#0002'`, mode).Scan(&text); err != nil ||
			text != `{"name": "The Beatles", "country": "GB"}` {
			t.Errorf("mode %v: nested message text %q, %v", mode, text, err)
		}
	}
	// Every row, decoded as the client would.
	rows, err := c.Query(ctx, `SELECT `+album+` FROM albums ORDER BY _key`)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var m struct {
			Title       string
			ReleaseYear int
			Format      string
			Artist      struct{ Name string }
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		titles = append(titles, fmt.Sprintf("%s/%s/%d/%s", m.Title, m.Artist.Name, m.ReleaseYear, m.Format))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(titles, " "), "Kind of Blue/Miles Davis/1959/LP Abbey Road/The Beatles/1969/LP "+
		"Homogenic/Björk/1997/CD A Love Supreme/John Coltrane/1965/LP In Rainbows/Radiohead/2007/DIGITAL"; got != want {
		t.Errorf("albums as protojson: %s, want %s", got, want)
	}
}
