package protoschema

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Incompatibility is one backward-incompatible change between two
// versions of a schema bundle (spec §6.5): something a query, a view or
// stored data written with the old descriptors may rely on and that the
// new descriptors no longer provide, or provide differently.
type Incompatibility struct {
	// Element is the full name of the message, field or enum concerned
	// (`pkg.Msg`, `pkg.Msg.field`, `pkg.Enum`, `pkg.Enum.VALUE`).
	Element string
	// Change says what changed, e.g. "field removed (number 2)".
	Change string
}

func (i Incompatibility) String() string { return i.Element + ": " + i.Change }

// CheckUpdate compares an old and a new serialized FileDescriptorSet and
// lists the incompatible changes, sorted by element (nil when the update
// is backward compatible). Compatible: adding files, messages, enums,
// fields and enum values; widening int32→int64, uint32→uint64,
// sint32→sint64 (same wire encoding, same SQL type INT64). Incompatible:
// removing a message, enum, field or enum value; renaming a field (its
// number now carries another name) or renumbering it (its name now has
// another number); changing a field's type (kind, message or enum type),
// its cardinality (singular ↔ repeated, map ↔ repeated message).
// Removing a file is only reported through the messages and enums it
// held. An error means either set does not load.
func CheckUpdate(oldSet, newSet []byte) ([]Incompatibility, error) {
	oldFiles, err := loadFiles("old", oldSet)
	if err != nil {
		return nil, err
	}
	newFiles, err := loadFiles("new", newSet)
	if err != nil {
		return nil, err
	}
	var out []Incompatibility
	add := func(el, format string, args ...any) {
		out = append(out, Incompatibility{Element: el, Change: fmt.Sprintf(format, args...)})
	}
	oldFiles.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		walkDecls(f.Messages(), f.Enums(), func(md protoreflect.MessageDescriptor) {
			if md.IsMapEntry() {
				return // compared through the map field
			}
			d, err := newFiles.FindDescriptorByName(md.FullName())
			nd, ok := d.(protoreflect.MessageDescriptor)
			if err != nil || !ok {
				add(string(md.FullName()), "message removed")
				return
			}
			compareFields(md, nd, add)
		}, func(ed protoreflect.EnumDescriptor) {
			d, err := newFiles.FindDescriptorByName(ed.FullName())
			nd, ok := d.(protoreflect.EnumDescriptor)
			if err != nil || !ok {
				add(string(ed.FullName()), "enum removed")
				return
			}
			vals := ed.Values()
			for i := 0; i < vals.Len(); i++ {
				v := vals.Get(i)
				nv := nd.Values().ByName(v.Name())
				switch {
				case nv == nil:
					add(string(ed.FullName())+"."+string(v.Name()), "enum value removed (number %d)", v.Number())
				case nv.Number() != v.Number():
					add(string(ed.FullName())+"."+string(v.Name()), "enum value renumbered from %d to %d", v.Number(), nv.Number())
				}
			}
		})
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Element < out[j].Element })
	return out, nil
}

// FormatIncompatibilities renders a list on one line: "a: x; b: y".
func FormatIncompatibilities(l []Incompatibility) string {
	s := make([]string, len(l))
	for i, x := range l {
		s[i] = x.String()
	}
	return strings.Join(s, "; ")
}

func loadFiles(which string, b []byte) (*protoregistry.Files, error) {
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &fds); err != nil {
		return nil, fmt.Errorf("protoschema: %s descriptor set: %v", which, err)
	}
	files, err := protodesc.NewFiles(&fds)
	if err != nil {
		return nil, fmt.Errorf("protoschema: %s descriptor set: %v", which, err)
	}
	return files, nil
}

// walkDecls visits every message and enum, nested ones included.
func walkDecls(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors,
	msg func(protoreflect.MessageDescriptor), enum func(protoreflect.EnumDescriptor)) {
	for i := 0; i < es.Len(); i++ {
		enum(es.Get(i))
	}
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		msg(m)
		walkDecls(m.Messages(), m.Enums(), msg, enum)
	}
}

func compareFields(od, nd protoreflect.MessageDescriptor, add func(el, format string, args ...any)) {
	ofs := od.Fields()
	for i := 0; i < ofs.Len(); i++ {
		of := ofs.Get(i)
		el := string(of.FullName())
		nf := nd.Fields().ByNumber(of.Number())
		if nf == nil {
			if byName := nd.Fields().ByName(of.Name()); byName != nil {
				add(el, "field renumbered from %d to %d", of.Number(), byName.Number())
			} else {
				add(el, "field removed (number %d)", of.Number())
			}
			continue
		}
		if nf.Name() != of.Name() {
			add(el, "field number %d renamed to %s", of.Number(), nf.Name())
			if byName := nd.Fields().ByName(of.Name()); byName != nil {
				add(el, "field renumbered from %d to %d", of.Number(), byName.Number())
			}
			// The type is compared too: a reused number with another
			// type breaks stored data, not only queries.
		}
		if ot, nt := fieldTypeName(of), fieldTypeName(nf); ot != nt && !widening(of.Kind(), nf.Kind()) {
			add(el, "field %d type changed from %s to %s", of.Number(), ot, nt)
		}
		if oc, nc := cardinality(of), cardinality(nf); oc != nc && !of.IsMap() && !nf.IsMap() {
			add(el, "field %d changed from %s to %s", of.Number(), oc, nc)
		}
	}
}

// fieldTypeName is a field's element type: its kind, or for a message or
// enum field the type's full name (a map field: map<key, value>).
func fieldTypeName(f protoreflect.FieldDescriptor) string {
	if f.IsMap() {
		return "map<" + fieldTypeName(f.MapKey()) + ", " + fieldTypeName(f.MapValue()) + ">"
	}
	switch f.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return string(f.Message().FullName())
	case protoreflect.EnumKind:
		return "enum " + string(f.Enum().FullName())
	}
	return f.Kind().String()
}

func cardinality(f protoreflect.FieldDescriptor) string {
	if f.IsList() {
		return "repeated"
	}
	return "singular"
}

// widening reports a change between integer kinds with one wire encoding
// whose old values all read back unchanged with the new kind.
func widening(o, n protoreflect.Kind) bool {
	switch {
	case o == protoreflect.Int32Kind && n == protoreflect.Int64Kind,
		o == protoreflect.Uint32Kind && n == protoreflect.Uint64Kind,
		o == protoreflect.Sint32Kind && n == protoreflect.Sint64Kind:
		return true
	}
	return false
}
