// Package protoschema holds a table's protobuf schema bundles (spec §3.3,
// §6) for the SQL layers: it loads a serialized FileDescriptorSet,
// resolves message names, describes fields in SQL types (package
// sql/types), and decodes only the fields a query asks for by walking the
// wire format with protowire — never a full dynamic unmarshal.
//
// It is the only package besides btserver (and generated-proto users)
// that imports the protobuf runtime; the SQL binder and executor see only
// the types declared here (Bundle, Message, Field, Path).
//
// # Data flow
//
//	storage.SchemaBundle{Name, Descriptors} → Load → *Bundle
//	binder: Bundle.Message("pkg.Msg") → *Message; Message.Field("f") → *Field;
//	        a dot path becomes a Path (the fields, outermost first)
//	exec:   Extract(msg, wire, paths) → one types.Value per path; a scan
//	        reading several paths of one cell builds NewExtractor(paths)
//	        at plan time and decodes them all in one walk per message
//	        level (Extractor.Extract, the same values as ExtractPath's)
//	        Validate(msg, wire) for a bare CAST(bytes AS msg)
//	edges:  a PROTO value's type carries AppendJSON (MessageJSON): pgwire
//	        renders a whole message as protojson without importing protobuf
//
// # Semantics (GoogleSQL proto access)
//
// Scalars map to INT64 (all integer kinds; a uint64/fixed64 above
// MaxInt64 is an error), FLOAT32, FLOAT64, BOOL, STRING, BYTES; enums to
// ENUM (the number); messages and groups to PROTO (their bytes, typed by
// the one *types.Type of that message in the bundle, which Message.Type
// returns too and which carries the protojson hook); repeated
// fields to ARRAY; map<k,v> to ARRAY<STRUCT<key, value>> in wire order.
// An absent singular scalar reads its default (proto3 zero or the proto2
// declared default); an absent message reads NULL and a path through it
// is NULL; an absent repeated field is an empty ARRAY. Occurrences merge
// as in protobuf: the last scalar wins, message occurrences concatenate,
// and a later member of a oneof clears the others.
//
// # Invariants
//
// PS1: Extract, Validate and MessageJSON never panic, whatever the bytes
// (FuzzDecode); an Extractor yields ExtractPath's value for every path,
// and fails only when ExtractPath fails for one (FuzzExtractPaths).
// PS2: a malformed message (bad tag, truncated length, invalid UTF-8 in a
// string field read) is an error wrapping ErrMalformed; fields outside
// the requested paths are skipped by their framing only. The one full
// (dynamicpb) unmarshal is MessageJSON, rendering a whole message a client
// selected; it never runs to read fields.
// PS3: a Bundle and everything reachable from it is immutable after Load
// apart from an internal, mutex-guarded cache; safe for concurrent use.
// PS4: values returned by Extract and Extractor.Extract alias the wire
// bytes (or the merged bytes of a repeated message field).
package protoschema
