package server

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/shale-db/shale/storage"
)

// The albums table: each row's info:album cell holds a whole protobuf
// message (the schema-design guide's advice), and the table's schema
// bundle "music" describes it, so SQL reads fields inside the cells:
// CAST(info['album'] AS music.records.Album).artist.name (spec §3.3, §6).
//
//	package records;  // file records/album.proto, proto3
//	message Artist { string name = 1; string country = 2; }
//	message Album {
//	  message Track { string title = 1; int32 seconds = 2; }
//	  enum Format { FORMAT_UNSPECIFIED = 0; LP = 1; CD = 2; DIGITAL = 3; }
//	  string title = 1;
//	  Artist artist = 2;
//	  int32 release_year = 3;
//	  repeated string tags = 4;
//	  repeated Track tracks = 5;
//	  Format format = 6;
//	}

// AlbumsBundle is the demo's schema bundle id for the albums table.
const AlbumsBundle = "music"

// albumsDescriptorSet is the bundle's serialized FileDescriptorSet.
func albumsDescriptorSet() *descriptorpb.FileDescriptorSet {
	field := func(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type, typeName string, repeated bool) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{
			Name: proto.String(name), Number: proto.Int32(num), Type: typ.Enum(),
			Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
			JsonName: proto.String(jsonName(name)),
		}
		if repeated {
			f.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	const (
		str = descriptorpb.FieldDescriptorProto_TYPE_STRING
		i32 = descriptorpb.FieldDescriptorProto_TYPE_INT32
		msg = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
		enm = descriptorpb.FieldDescriptorProto_TYPE_ENUM
	)
	value := func(name string, n int32) *descriptorpb.EnumValueDescriptorProto {
		return &descriptorpb.EnumValueDescriptorProto{Name: proto.String(name), Number: proto.Int32(n)}
	}
	return &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{{
		Name:    proto.String("records/album.proto"),
		Package: proto.String("records"),
		Syntax:  proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			{
				Name:  proto.String("Artist"),
				Field: []*descriptorpb.FieldDescriptorProto{field("name", 1, str, "", false), field("country", 2, str, "", false)},
			},
			{
				Name: proto.String("Album"),
				Field: []*descriptorpb.FieldDescriptorProto{
					field("title", 1, str, "", false),
					field("artist", 2, msg, ".records.Artist", false),
					field("release_year", 3, i32, "", false),
					field("tags", 4, str, "", true),
					field("tracks", 5, msg, ".records.Album.Track", true),
					field("format", 6, enm, ".records.Album.Format", false),
				},
				NestedType: []*descriptorpb.DescriptorProto{{
					Name:  proto.String("Track"),
					Field: []*descriptorpb.FieldDescriptorProto{field("title", 1, str, "", false), field("seconds", 2, i32, "", false)},
				}},
				EnumType: []*descriptorpb.EnumDescriptorProto{{
					Name:  proto.String("Format"),
					Value: []*descriptorpb.EnumValueDescriptorProto{value("FORMAT_UNSPECIFIED", 0), value("LP", 1), value("CD", 2), value("DIGITAL", 3)},
				}},
			},
		},
	}}}
}

// jsonName is protoc's json_name: lowerCamelCase of a snake_case name.
func jsonName(s string) string {
	out := make([]byte, 0, len(s))
	up := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			up = true
		case up && 'a' <= c && c <= 'z':
			out = append(out, c-'a'+'A')
			up = false
		default:
			out = append(out, c)
			up = false
		}
	}
	return string(out)
}

// demoAlbums are the rows, as protojson of records.Album.
var demoAlbums = []struct{ key, album string }{
	{"album#0001", `{"title": "Kind of Blue", "artist": {"name": "Miles Davis", "country": "US"}, "releaseYear": 1959,
		"tags": ["jazz", "modal"], "format": "LP",
		"tracks": [{"title": "So What", "seconds": 562}, {"title": "Freddie Freeloader", "seconds": 589}, {"title": "Blue in Green", "seconds": 337}]}`},
	{"album#0002", `{"title": "Abbey Road", "artist": {"name": "The Beatles", "country": "GB"}, "releaseYear": 1969,
		"tags": ["rock", "pop"], "format": "LP",
		"tracks": [{"title": "Come Together", "seconds": 259}, {"title": "Something", "seconds": 182}]}`},
	{"album#0003", `{"title": "Homogenic", "artist": {"name": "Björk", "country": "IS"}, "releaseYear": 1997,
		"tags": ["electronic"], "format": "CD",
		"tracks": [{"title": "Hunter", "seconds": 255}, {"title": "Jóga", "seconds": 305}, {"title": "Bachelorette", "seconds": 312}]}`},
	{"album#0004", `{"title": "A Love Supreme", "artist": {"name": "John Coltrane", "country": "US"}, "releaseYear": 1965,
		"tags": ["jazz", "spiritual"], "format": "LP",
		"tracks": [{"title": "Acknowledgement", "seconds": 469}, {"title": "Resolution", "seconds": 442}]}`},
	{"album#0005", `{"title": "In Rainbows", "artist": {"name": "Radiohead", "country": "GB"}, "releaseYear": 2007,
		"tags": ["rock", "alternative"], "format": "DIGITAL",
		"tracks": [{"title": "15 Step", "seconds": 237}, {"title": "Nude", "seconds": 255}, {"title": "Reckoner", "seconds": 290}]}`},
}

var albumsSpec = storage.TableSpec{Families: []storage.Family{{Name: "info", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 1}}}}

// loadAlbums adds the "music" bundle to the table and writes the rows.
func loadAlbums(ctx context.Context, e *storage.Engine, tgt storage.Target) error {
	fds := albumsDescriptorSet()
	desc, err := proto.Marshal(fds)
	if err != nil {
		return err
	}
	files, err := protodesc.NewFiles(fds)
	if err != nil {
		return fmt.Errorf("albums bundle: %w", err) // a constant schema: a bug
	}
	d, err := files.FindDescriptorByName("records.Album")
	if err != nil {
		return err
	}
	albumType := d.(protoreflect.MessageDescriptor)
	if _, err := e.AlterTable(ctx, tgt.Instance, tgt.Table, func(t *storage.Table) error {
		if t.Bundle(AlbumsBundle) == nil {
			t.Bundles = append(t.Bundles, storage.SchemaBundle{Name: AlbumsBundle, Descriptors: desc, Etag: "demo"})
		}
		return nil
	}); err != nil {
		return err
	}
	for _, a := range demoAlbums {
		m := dynamicpb.NewMessage(albumType)
		if err := protojson.Unmarshal([]byte(a.album), m); err != nil {
			return fmt.Errorf("album %s: %w", a.key, err)
		}
		v, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		if err != nil {
			return err
		}
		if err := e.MutateRow(ctx, tgt, []byte(a.key), []storage.Mutation{{
			Kind: storage.SetCell, Family: "info", Qualifier: []byte("album"), Timestamp: may1.UnixMicro(), Value: v,
		}}); err != nil {
			return err
		}
	}
	return nil
}
