package protoschema

import (
	"fmt"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/shale-db/shale/sql/types"
)

// Path is a dot path into a message: Path[0] is a field of the message,
// Path[i+1] a field of Path[i].Message().
type Path []*Field

// Type is the SQL type of the value the path reads.
func (p Path) Type() *types.Type { return p[len(p)-1].Type }

// String renders the path as `a.b.c`.
func (p Path) String() string {
	s := ""
	for i, f := range p {
		if i > 0 {
			s += "."
		}
		s += f.Name
	}
	return s
}

// maxDepth bounds message nesting in Validate.
const maxDepth = 100

// Extract decodes the fields at paths from wire, a serialization of msg,
// walking only the levels the paths go through (PS2). Values alias wire
// (PS4).
func Extract(msg *Message, wire []byte, paths []Path) ([]types.Value, error) {
	out := make([]types.Value, len(paths))
	for i, p := range paths {
		if len(p) == 0 || p[0].parent != msg {
			return nil, fmt.Errorf("protoschema: path %d does not start in message %s", i, msg.FullName())
		}
		v, err := ExtractPath(wire, p)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// ExtractPath decodes the value at p from wire, a serialization of the
// message p[0] belongs to. A path through an absent message is NULL.
func ExtractPath(wire []byte, p Path) (types.Value, error) {
	cur := wire
	for _, f := range p[:len(p)-1] {
		b, found, err := messageBytes(cur, f)
		if err != nil {
			return types.Value{}, err
		}
		if !found {
			return types.NullOf(p.Type()), nil
		}
		cur = b
	}
	return decodeField(cur, p[len(p)-1])
}

// extractPathInto is ExtractPath writing into *dst: a top-level singular
// scalar outside a oneof, the common projection, is decoded in place
// without copying the value back through the callers. On error *dst is
// the zero Value.
func extractPathInto(dst *types.Value, wire []byte, p Path) error {
	if len(p) == 1 {
		if f := p[0]; !f.repeated && f.oneof == nil && f.kind != protoreflect.MessageKind && f.kind != protoreflect.GroupKind {
			if err := decodeSingular(dst, wire, f); err != nil {
				*dst = types.Value{}
				return err
			}
			return nil
		}
	}
	v, err := ExtractPath(wire, p)
	*dst = v
	return err
}

func malformed(f *Field, format string, args ...any) error {
	return fmt.Errorf("%w %s: "+format, append([]any{ErrMalformed, f.parent.FullName()}, args...)...)
}

// level walks the fields of one message level, calling visit for each
// occurrence of field f (with its wire type and value bytes) and reset
// when another member of f's oneof is set.
func level(b []byte, f *Field, visit func(typ protowire.Type, v []byte) error, reset func()) error {
	num := protowire.Number(f.Number)
	for len(b) > 0 {
		n, typ, tl, vl := consumeField(b)
		if tl < 0 {
			return malformed(f, "bad tag: %v", protowire.ParseError(tl))
		}
		b = b[tl:]
		if vl < 0 {
			return malformed(f, "field %d: %v", n, protowire.ParseError(vl))
		}
		v := b[:vl]
		b = b[vl:]
		switch {
		case n == num:
			if err := visit(typ, v); err != nil {
				return err
			}
		case f.oneof != nil && reset != nil:
			if o := f.oneof.Fields().ByNumber(n); o != nil && wireType(o.Kind()) == typ {
				reset()
			}
		}
	}
	return nil
}

// shortField measures the field at the start of b when its tag is one
// byte and its value a one-byte varint, fixed-width, or length-delimited
// with a one-byte length: the value is b[1:1+vl]. It returns 0 otherwise
// (consumeField then parses it). Small enough to be inlined, which is the
// point: the walk calls it for every field.
func shortField(b []byte) (vl int) {
	if len(b) < 2 || b[0] >= 0x80 || b[0] < 8 {
		return 0
	}
	switch protowire.Type(b[0] & 7) {
	case protowire.VarintType:
		if b[1] < 0x80 {
			vl = 1
		}
	case protowire.Fixed64Type:
		vl = 8
	case protowire.Fixed32Type:
		vl = 4
	case protowire.BytesType:
		if b[1] < 0x80 {
			vl = 1 + int(b[1])
		}
	}
	if vl >= len(b) {
		return 0
	}
	return vl
}

// consumeField parses the tag at the start of b and measures the field
// value after it: tl is the tag's length and vl the value's, or a negative
// protowire error code. One-byte tags of the common wire types, with short
// varints and one-byte lengths, take a fast path that protowire's general
// functions do not inline; everything else goes through them.
func consumeField(b []byte) (n protowire.Number, typ protowire.Type, tl, vl int) {
	if t := b[0]; t < 0x80 && t >= 8 {
		n, typ = protowire.Number(t>>3), protowire.Type(t&7)
		rest := b[1:]
		switch typ {
		case protowire.VarintType:
			for i := 0; i < len(rest) && i < 9; i++ {
				if rest[i] < 0x80 {
					return n, typ, 1, i + 1
				}
			}
		case protowire.Fixed64Type:
			if len(rest) >= 8 {
				return n, typ, 1, 8
			}
		case protowire.Fixed32Type:
			if len(rest) >= 4 {
				return n, typ, 1, 4
			}
		case protowire.BytesType:
			if len(rest) > 0 && rest[0] < 0x80 && int(rest[0]) < len(rest) {
				return n, typ, 1, 1 + int(rest[0])
			}
		}
	}
	n, typ, tl = protowire.ConsumeTag(b)
	if tl < 0 {
		return 0, 0, tl, 0
	}
	return n, typ, tl, protowire.ConsumeFieldValue(n, typ, b[tl:])
}

// messageBytes returns the (merged) bytes of singular message field f.
func messageBytes(b []byte, f *Field) ([]byte, bool, error) {
	var out []byte
	found, owned := false, false
	err := level(b, f, func(typ protowire.Type, v []byte) error {
		body, ok, err := bodyOf(f, typ, v)
		if !ok || err != nil {
			return err
		}
		switch {
		case !found:
			out, found = body, true
		case !owned:
			out, owned = append(append([]byte(nil), out...), body...), true
		default:
			out = append(out, body...)
		}
		return nil
	}, func() { out, found, owned = nil, false, false })
	return out, found, err
}

// bodyOf returns the message bytes of one occurrence of a message or
// group field; ok is false for a wire type that does not match (an
// unknown field, as protobuf treats it).
func bodyOf(f *Field, typ protowire.Type, v []byte) ([]byte, bool, error) {
	switch {
	case typ == protowire.BytesType && f.wire == protowire.BytesType:
		body, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return nil, false, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		return body, true, nil
	case typ == protowire.StartGroupType && f.wire == protowire.StartGroupType:
		body, n := protowire.ConsumeGroup(protowire.Number(f.Number), v)
		if n < 0 {
			return nil, false, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		return body, true, nil
	}
	return nil, false, nil
}

// decodeField decodes field f from one message level.
func decodeField(b []byte, f *Field) (types.Value, error) {
	if f.repeated {
		return decodeRepeated(b, f)
	}
	if f.kind == protoreflect.MessageKind || f.kind == protoreflect.GroupKind {
		body, found, err := messageBytes(b, f)
		if err != nil || !found {
			return types.NullOf(f.Type), err
		}
		return types.ProtoValue(f.Type, body), nil
	}
	if f.oneof == nil {
		var v types.Value
		err := decodeSingular(&v, b, f)
		return v, err
	}
	val := f.def
	err := level(b, f, func(typ protowire.Type, v []byte) error {
		if typ != f.wire {
			return nil // unknown field
		}
		x, _, err := decodeScalar(f, f.Type, v)
		if err == nil {
			val = x // the last occurrence wins
		}
		return err
	}, func() { val = f.def })
	return val, err
}

// decodeSingular is decodeField for a singular scalar outside a oneof,
// into *dst: level's walk without its callbacks, which cost more than the
// decoding when a query reads one number per row. On error *dst is
// unspecified.
func decodeSingular(dst *types.Value, b []byte, f *Field) error {
	num := protowire.Number(f.Number)
	*dst = f.def
	for len(b) > 0 {
		// The common case inline: a one-byte tag with a one-byte varint, a
		// fixed-width value or a one-byte length.
		if vl := shortField(b); vl > 0 {
			if t := b[0]; protowire.Number(t>>3) == num && protowire.Type(t&7) == f.wire {
				x, _, err := decodeScalar(f, f.Type, b[1:1+vl])
				if err != nil {
					return err
				}
				*dst = x
			}
			b = b[1+vl:]
			continue
		}
		n, typ, tl, vl := consumeField(b)
		if tl < 0 {
			return malformed(f, "bad tag: %v", protowire.ParseError(tl))
		}
		if vl < 0 {
			return malformed(f, "field %d: %v", n, protowire.ParseError(vl))
		}
		v := b[tl : tl+vl]
		b = b[tl+vl:]
		if n == num && typ == f.wire { // another wire type: an unknown field
			x, _, err := decodeScalar(f, f.Type, v)
			if err != nil {
				return err
			}
			*dst = x // the last occurrence wins
		}
	}
	return nil
}

func decodeRepeated(b []byte, f *Field) (types.Value, error) {
	var elems []types.Value
	err := level(b, f, func(typ protowire.Type, v []byte) error {
		var err error
		elems, err = appendElem(f, elems, typ, v)
		return err
	}, nil)
	if err != nil {
		return types.Value{}, err
	}
	return types.ArrayValue(f.Type, elems), nil
}

// appendElem appends the elements of one occurrence of repeated field f
// (wire type typ, value v: one element, a packed run or a map entry).
func appendElem(f *Field, elems []types.Value, typ protowire.Type, v []byte) ([]types.Value, error) {
	switch {
	case f.isMap:
		body, ok, err := bodyOf(f, typ, v)
		if !ok || err != nil {
			return elems, err
		}
		k, err := decodeField(body, f.mapKey)
		if err != nil {
			return elems, err
		}
		val, err := decodeField(body, f.mapVal)
		if err != nil {
			return elems, err
		}
		if val.IsNull() && val.Kind() == types.KindProto {
			val = types.ProtoValue(f.mapVal.Type, []byte{}) // an absent message value is empty
		}
		return append(elems, types.StructValue(f.elemType, []types.Value{k, val})), nil
	case f.wire == protowire.BytesType || f.wire == protowire.StartGroupType:
		if f.kind == protoreflect.MessageKind || f.kind == protoreflect.GroupKind {
			body, ok, err := bodyOf(f, typ, v)
			if ok && err == nil {
				elems = append(elems, types.ProtoValue(f.elemType, body))
			}
			return elems, err
		}
		if typ != protowire.BytesType {
			return elems, nil
		}
		x, _, err := decodeScalar(f, f.elemType, v)
		if err == nil {
			elems = append(elems, x)
		}
		return elems, err
	case typ == f.wire:
		x, _, err := decodeScalar(f, f.elemType, v)
		if err == nil {
			elems = append(elems, x)
		}
		return elems, err
	case typ == protowire.BytesType: // packed
		body, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return elems, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		for len(body) > 0 {
			x, used, err := decodeScalar(f, f.elemType, body)
			if err != nil {
				return elems, err
			}
			elems = append(elems, x)
			body = body[used:]
		}
	}
	return elems, nil
}

// decodeScalar decodes one value of f's kind (wire type f.wire) from the
// start of v, returning the bytes used.
func decodeScalar(f *Field, t *types.Type, v []byte) (types.Value, int, error) {
	switch f.wire {
	case protowire.VarintType:
		x, n := protowire.ConsumeVarint(v)
		if n < 0 {
			return types.Value{}, 0, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		switch f.kind {
		case protoreflect.BoolKind:
			return types.BoolValue(x != 0), n, nil
		case protoreflect.EnumKind:
			return types.EnumValue(t, int64(int32(x))), n, nil
		case protoreflect.Int32Kind:
			return types.Int64Value(int64(int32(x))), n, nil
		case protoreflect.Uint32Kind:
			return types.Int64Value(int64(uint32(x))), n, nil
		case protoreflect.Sint32Kind:
			return types.Int64Value(int64(int32(protowire.DecodeZigZag(x & math.MaxUint32)))), n, nil
		case protoreflect.Sint64Kind:
			return types.Int64Value(protowire.DecodeZigZag(x)), n, nil
		case protoreflect.Uint64Kind:
			if x > math.MaxInt64 {
				return types.Value{}, 0, fmt.Errorf("protoschema: %s.%s: uint64 value %d overflows INT64", f.parent.FullName(), f.Name, x)
			}
		}
		return types.Int64Value(int64(x)), n, nil
	case protowire.Fixed32Type:
		x, n := protowire.ConsumeFixed32(v)
		if n < 0 {
			return types.Value{}, 0, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		switch f.kind {
		case protoreflect.FloatKind:
			return types.Float32Value(math.Float32frombits(x)), n, nil
		case protoreflect.Sfixed32Kind:
			return types.Int64Value(int64(int32(x))), n, nil
		}
		return types.Int64Value(int64(x)), n, nil
	case protowire.Fixed64Type:
		x, n := protowire.ConsumeFixed64(v)
		if n < 0 {
			return types.Value{}, 0, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		switch f.kind {
		case protoreflect.DoubleKind:
			return types.Float64Value(math.Float64frombits(x)), n, nil
		case protoreflect.Fixed64Kind:
			if x > math.MaxInt64 {
				return types.Value{}, 0, fmt.Errorf("protoschema: %s.%s: fixed64 value %d overflows INT64", f.parent.FullName(), f.Name, x)
			}
		}
		return types.Int64Value(int64(x)), n, nil
	case protowire.BytesType:
		x, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return types.Value{}, 0, malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		if f.kind == protoreflect.StringKind {
			if !utf8.Valid(x) {
				return types.Value{}, 0, malformed(f, "field %s: invalid UTF-8", f.Name)
			}
			return types.StringBytesValue(x), n, nil
		}
		return types.BytesValue(x), n, nil
	}
	return types.Value{}, 0, malformed(f, "field %s: unexpected wire type", f.Name)
}

// Validate checks that wire is a valid serialization of msg: framing at
// every level, strings UTF-8, integers representable, nested messages
// valid. It is what CAST(bytes AS msg) runs; it decodes nothing into
// values it keeps.
func Validate(msg *Message, wire []byte) error {
	return validate(msg, wire, 0)
}

func validate(m *Message, b []byte, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("%w %s: nested deeper than %d", ErrMalformed, m.FullName(), maxDepth)
	}
	fields := m.d.Fields()
	for len(b) > 0 {
		n, typ, tl := protowire.ConsumeTag(b)
		if tl < 0 {
			return fmt.Errorf("%w %s: bad tag: %v", ErrMalformed, m.FullName(), protowire.ParseError(tl))
		}
		b = b[tl:]
		vl := protowire.ConsumeFieldValue(n, typ, b)
		if vl < 0 {
			return fmt.Errorf("%w %s: field %d: %v", ErrMalformed, m.FullName(), n, protowire.ParseError(vl))
		}
		v := b[:vl]
		b = b[vl:]
		fd := fields.ByNumber(n)
		if fd == nil {
			continue
		}
		f := m.fields[fd.Index()]
		if err := validateValue(f, typ, v, depth); err != nil {
			return err
		}
	}
	return nil
}

func validateValue(f *Field, typ protowire.Type, v []byte, depth int) error {
	switch {
	case f.isMap || f.kind == protoreflect.MessageKind || f.kind == protoreflect.GroupKind:
		body, ok, err := bodyOf(f, typ, v)
		if !ok || err != nil {
			return err
		}
		return validate(f.parent.bundle.message(f.d.Message()), body, depth+1)
	case typ == f.wire:
		_, _, err := decodeScalar(f, f.Type, v)
		return err
	case f.repeated && typ == protowire.BytesType:
		body, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return malformed(f, "field %s: %v", f.Name, protowire.ParseError(n))
		}
		for len(body) > 0 {
			_, used, err := decodeScalar(f, f.elemType, body)
			if err != nil {
				return err
			}
			body = body[used:]
		}
	}
	return nil
}
