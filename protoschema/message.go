package protoschema

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/shale-db/shale/sql/types"
)

// Message is a message type of a bundle.
type Message struct {
	bundle *Bundle
	d      protoreflect.MessageDescriptor
	fields []*Field

	typOnce sync.Once
	typ     *types.Type
}

// FullName is the message's protobuf full name (`package.Msg`).
func (m *Message) FullName() string { return string(m.d.FullName()) }

// Bundle is the bundle the message belongs to.
func (m *Message) Bundle() *Bundle { return m.bundle }

// Type is PROTO<bundle.package.Msg>, with its protojson hook (json.go):
// the same *types.Type as every field of this message type in the bundle.
func (m *Message) Type() *types.Type {
	m.typOnce.Do(func() { m.typ = m.bundle.protoType(m.d) })
	return m.typ
}

// Fields are the message's fields in declaration order (oneof members
// included, as individual fields).
func (m *Message) Fields() []*Field { return m.fields }

// Field resolves a field by name (case-insensitively, as GoogleSQL
// does). An unknown name is an error wrapping ErrNotFound that names the
// nearest field names.
func (m *Message) Field(name string) (*Field, error) {
	for _, f := range m.fields {
		if f.Name == name {
			return f, nil
		}
	}
	for _, f := range m.fields {
		if strings.EqualFold(f.Name, name) {
			return f, nil
		}
	}
	names := make([]string, len(m.fields))
	for i, f := range m.fields {
		names[i] = f.Name
	}
	return nil, fmt.Errorf("%w: field %s in message %s%s", ErrNotFound, name, m.FullName(), didYouMean(name, names))
}

// Field is one field of a message.
type Field struct {
	// Name is the field's name in the .proto file.
	Name   string
	Number int32
	// Type is the field's SQL type (see the package doc).
	Type *types.Type

	parent   *Message
	d        protoreflect.FieldDescriptor
	kind     protoreflect.Kind
	repeated bool
	isMap    bool
	wire     protowire.Type // the wire type of one unpacked element
	def      types.Value    // an absent singular field's value
	oneof    protoreflect.OneofDescriptor
	elemType *types.Type // element type of a repeated field
	mapKey   *Field      // a map field's entry key and value fields
	mapVal   *Field

	msgOnce sync.Once
	msg     *Message
}

// Message is the message type of a message (or group) field, or of a
// repeated one's elements; nil otherwise.
func (f *Field) Message() *Message {
	if f.d.Message() == nil || f.isMap {
		return nil
	}
	f.msgOnce.Do(func() { f.msg = f.parent.bundle.message(f.d.Message()) })
	return f.msg
}

// Repeated reports whether the field is repeated (maps included).
func (f *Field) Repeated() bool { return f.repeated }

func newField(m *Message, fd protoreflect.FieldDescriptor) *Field {
	f := &Field{Name: string(fd.Name()), Number: int32(fd.Number()), parent: m, d: fd, kind: fd.Kind(),
		repeated: fd.IsList() || fd.IsMap(), isMap: fd.IsMap(), wire: wireType(fd.Kind())}
	if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
		f.oneof = o
	}
	if f.isMap {
		entry := m.bundle.message(fd.Message())
		f.mapKey, f.mapVal = entry.fields[0], entry.fields[1]
		if f.mapKey.Number != 1 {
			f.mapKey, f.mapVal = f.mapVal, f.mapKey
		}
		st := types.StructOf(types.Field{Name: "key", Type: f.mapKey.Type},
			types.Field{Name: "value", Type: f.mapVal.Type})
		f.elemType = st
		f.Type = types.ArrayOf(st)
		return f
	}
	t := scalarType(m.bundle, fd)
	if f.repeated {
		f.elemType = t
		f.Type = types.ArrayOf(t)
		return f
	}
	f.Type = t
	f.def = defaultValue(fd, t)
	return f
}

// scalarType is the SQL type of one value of fd.
func scalarType(b *Bundle, fd protoreflect.FieldDescriptor) *types.Type {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return types.Bool
	case protoreflect.FloatKind:
		return types.Float32
	case protoreflect.DoubleKind:
		return types.Float64
	case protoreflect.StringKind:
		return types.String
	case protoreflect.BytesKind:
		return types.Bytes
	case protoreflect.EnumKind:
		return enumType(b.name, fd.Enum())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return b.protoType(fd.Message())
	}
	return types.Int64
}

// defaultValue is the value of an absent singular field: NULL for a
// message, else the declared (proto2) or zero (proto3) default.
func defaultValue(fd protoreflect.FieldDescriptor, t *types.Type) types.Value {
	d := fd.Default()
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return types.NullOf(t)
	case protoreflect.BoolKind:
		return types.BoolValue(d.Bool())
	case protoreflect.FloatKind:
		return types.Float32Value(float32(d.Float()))
	case protoreflect.DoubleKind:
		return types.Float64Value(d.Float())
	case protoreflect.StringKind:
		return types.StringValue(d.String())
	case protoreflect.BytesKind:
		return types.BytesValue(d.Bytes())
	case protoreflect.EnumKind:
		return types.EnumValue(t, int64(d.Enum()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return types.Int64Value(int64(d.Uint()))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		if d.Uint() > math.MaxInt64 {
			return types.NullOf(t) // an unrepresentable default reads NULL
		}
		return types.Int64Value(int64(d.Uint()))
	}
	return types.Int64Value(d.Int())
}

func wireType(k protoreflect.Kind) protowire.Type {
	switch k {
	case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		return protowire.Fixed32Type
	case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType
	case protoreflect.GroupKind:
		return protowire.StartGroupType
	}
	return protowire.VarintType
}

// enumType is the SQL type of an enum of bundle, with its value names for
// CAST to and from STRING.
func enumType(bundle string, ed protoreflect.EnumDescriptor) *types.Type {
	t := types.EnumOf(bundle + "." + string(ed.FullName()))
	vals := ed.Values()
	t.EnumName = func(n int64) (string, bool) {
		if v := vals.ByNumber(protoreflect.EnumNumber(n)); v != nil && int64(v.Number()) == n {
			return string(v.Name()), true
		}
		return "", false
	}
	t.EnumNumber = func(name string) (int64, bool) {
		if v := vals.ByName(protoreflect.Name(name)); v != nil {
			return int64(v.Number()), true
		}
		return 0, false
	}
	return t
}
