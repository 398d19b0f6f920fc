package protoschema

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/shale-db/shale/sql/types"
)

// protoType is PROTO<bundle.md>: one *types.Type per message type of the
// bundle, shared by Message.Type and every field (singular, repeated or map
// value) of that message type, carrying the AppendJSON hook (MessageJSON).
func (b *Bundle) protoType(md protoreflect.MessageDescriptor) *types.Type {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.types[md.FullName()]; ok {
		return t
	}
	t := types.ProtoOf(b.name + "." + string(md.FullName()))
	t.AppendJSON = func(dst, wire []byte) ([]byte, error) { return b.appendJSON(dst, md, wire) }
	if b.types == nil {
		b.types = map[protoreflect.FullName]*types.Type{}
	}
	b.types[md.FullName()] = t
	return t
}

// resolver resolves the bundle's messages and extensions (google.protobuf.Any
// type URLs, extension fields) for rendering.
func (b *Bundle) resolver() *dynamicpb.Types {
	b.resOnce.Do(func() { b.res = dynamicpb.NewTypes(b.files) })
	return b.res
}

// MessageJSON appends the protojson rendering of wire, a serialization of
// msg, to dst. It is the AppendJSON hook of msg.Type() (types.Type), which
// the protocol edges call to show a whole message (pgwire: jsonb).
//
// It is the one place this package unmarshals a whole message (into a
// dynamicpb message of the descriptor, PS2 is about field reads): a client
// asked for the whole message. The options are protojson's defaults —
// field names are the lowerCamelCase json_name (UseProtoNames false),
// unset fields are omitted (EmitUnpopulated false), enums are their value
// names (UseEnumNumbers false; a number with no name stays a number),
// 64-bit integers are strings, bytes are base64, well-known types
// (Timestamp, Duration, wrappers, Struct, Any…) have their JSON forms —
// plus AllowPartial (a proto2 message missing a required field still
// renders) and the bundle as resolver (Any and extensions of the bundle's
// types). Unknown fields are dropped. Bytes that do not parse, or that
// protojson cannot render (invalid UTF-8 in a string, an Any of a type
// outside the bundle), are an error wrapping ErrMalformed and dst is
// returned unchanged.
func MessageJSON(dst []byte, msg *Message, wire []byte) ([]byte, error) {
	return msg.bundle.appendJSON(dst, msg.d, wire)
}

func (b *Bundle) appendJSON(dst []byte, md protoreflect.MessageDescriptor, wire []byte) ([]byte, error) {
	res := b.resolver()
	m := dynamicpb.NewMessage(md)
	if err := unmarshalDynamic(wire, m, res); err != nil {
		return dst, fmt.Errorf("%w %s: %v", ErrMalformed, md.FullName(), err)
	}
	n := len(dst)
	out, err := protojson.MarshalOptions{AllowPartial: true, Resolver: res}.MarshalAppend(dst, m)
	if err != nil {
		return dst[:n], fmt.Errorf("%w %s: as JSON: %v", ErrMalformed, md.FullName(), err)
	}
	return out, nil
}

// unmarshalDynamic is proto.Unmarshal (AllowPartial, the bundle as resolver)
// into a dynamicpb message, with a panic of the protobuf runtime reported as
// an error. protobuf-go's reflective decoder (v1.36.12, the newest) panics
// with "cannot convert nil to map key" on a map entry whose key field comes
// once and then again with another wire type: the second read overwrites the
// key with an invalid value before the field is skipped as unknown. Stored
// cells are user bytes, so a decoder panic must not take a session down.
func unmarshalDynamic(wire []byte, m *dynamicpb.Message, res *dynamicpb.Types) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the protobuf runtime failed to decode it: %v", r)
		}
	}()
	return proto.UnmarshalOptions{AllowPartial: true, Resolver: res}.Unmarshal(wire, m)
}
