package protoschema

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/shale-db/shale/internal/textdist"
	"github.com/shale-db/shale/sql/types"
)

// ErrMalformed marks bytes that are not a valid serialization of a message.
var ErrMalformed = errors.New("protoschema: malformed message")

// ErrNotFound marks an unknown message or field name.
var ErrNotFound = errors.New("protoschema: not found")

// Bundle is a loaded schema bundle: the files of one FileDescriptorSet.
type Bundle struct {
	name  string
	files *protoregistry.Files

	mu    sync.Mutex
	msgs  map[protoreflect.FullName]*Message
	types map[protoreflect.FullName]*types.Type // PROTO types (json.go)

	resOnce sync.Once
	res     *dynamicpb.Types // for rendering whole messages (json.go)
}

// Load parses a serialized FileDescriptorSet (every import included) as
// bundle name.
func Load(name string, descriptors []byte) (*Bundle, error) {
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(descriptors, &fds); err != nil {
		return nil, fmt.Errorf("protoschema: bundle %q is not a FileDescriptorSet: %v", name, err)
	}
	files, err := protodesc.NewFiles(&fds)
	if err != nil {
		return nil, fmt.Errorf("protoschema: bundle %q: %v", name, err)
	}
	return &Bundle{name: name, files: files, msgs: map[protoreflect.FullName]*Message{},
		types: map[protoreflect.FullName]*types.Type{}}, nil
}

// DescriptorSetFromText converts a FileDescriptorSet in protobuf text
// format into its serialized form (tests, fixtures, the CLI).
func DescriptorSetFromText(text string) ([]byte, error) {
	var fds descriptorpb.FileDescriptorSet
	if err := prototext.Unmarshal([]byte(text), &fds); err != nil {
		return nil, fmt.Errorf("protoschema: descriptor set text: %v", err)
	}
	return proto.Marshal(&fds)
}

// Name is the bundle id.
func (b *Bundle) Name() string { return b.name }

// Message resolves a message by its full name (`package.Msg`, nested
// `package.Outer.Inner`). An unknown name is an error wrapping
// ErrNotFound that names the nearest message names.
func (b *Bundle) Message(fullName string) (*Message, error) {
	d, err := b.files.FindDescriptorByName(protoreflect.FullName(fullName))
	if err == nil {
		if md, ok := d.(protoreflect.MessageDescriptor); ok {
			return b.message(md), nil
		}
	}
	return nil, fmt.Errorf("%w: message %s in schema bundle %s%s", ErrNotFound, fullName, b.name,
		didYouMean(fullName, b.MessageNames()))
}

// MessageNames lists every message full name of the bundle, sorted
// (map entry types excluded).
func (b *Bundle) MessageNames() []string {
	var out []string
	var walk func(ms protoreflect.MessageDescriptors)
	walk = func(ms protoreflect.MessageDescriptors) {
		for i := 0; i < ms.Len(); i++ {
			m := ms.Get(i)
			if !m.IsMapEntry() {
				out = append(out, string(m.FullName()))
			}
			walk(m.Messages())
		}
	}
	b.files.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		walk(f.Messages())
		return true
	})
	sort.Strings(out)
	return out
}

// message returns the cached *Message of md.
func (b *Bundle) message(md protoreflect.MessageDescriptor) *Message {
	b.mu.Lock()
	m, ok := b.msgs[md.FullName()]
	b.mu.Unlock()
	if ok {
		return m
	}
	// Built outside the lock: newField loads map entry types (which are
	// never recursive); message fields resolve lazily (Field.Message).
	m = &Message{bundle: b, d: md}
	m.fields = make([]*Field, md.Fields().Len())
	for i := range m.fields {
		m.fields[i] = newField(m, md.Fields().Get(i))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.msgs[md.FullName()]; ok {
		return old
	}
	b.msgs[md.FullName()] = m
	return m
}

// didYouMean renders up to three names nearest to name
// (textdist.Closeness, which counts a name with the same last part as
// near).
func didYouMean(name string, names []string) string {
	if len(names) == 0 {
		return " (it has none)"
	}
	return "; nearest: " + strings.Join(textdist.Nearest(name, names, 3, -1), ", ")
}
