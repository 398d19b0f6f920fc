package protoschema

import (
	"errors"
	"fmt"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/shale-db/shale/sql/types"
)

// Extractor decodes a fixed set of paths from a message's wire bytes in
// one pass: each message level the paths go through is walked once, and
// every field occurrence is dispatched to the paths whose next field it
// is. For every path it yields exactly what ExtractPath yields. An
// Extractor is immutable, so one built at plan time can serve concurrent
// scans.
type Extractor struct {
	root  xlevel
	nulls []types.Value // NULL of each path's type: the value under an absent message
	// single is the path of an Extractor of one path, which ExtractPath
	// decodes (its walks are specialized).
	single Path
}

// xlevel is the fields read at one message level, sorted by number.
type xlevel struct {
	fields []xfield
	// index[n]-1 is the position of the first field numbered n, for the
	// numbers below len(index); 0 means none.
	index  []uint16
	big    bool // some field numbers are beyond index
	resets []oneofReset
	nstate int    // fields with a fieldState (xfield.state ≥ 0)
	owner  *Field // names the message in errors
}

// xfield is one field read at a level, by some paths ending at it
// (leaves) and some going below it (sub).
type xfield struct {
	f      *Field
	leaves []int   // the paths ending at f
	below  []int   // the paths going below f
	sub    *xlevel // the next level of the paths below f
	// what to accumulate over f's occurrences
	scalar bool // a singular scalar: the last occurrence, in out[leaves[0]]
	elems  bool // a repeated field: its elements
	merge  bool // a message: the merged bytes (singular leaf or sub)
	// only is set for a field read only as a singular scalar (the common
	// case, decoded inline).
	only bool
	// state is the position of the field's fieldState in a walk of its
	// level, or -1 (a singular scalar keeps its value in out).
	state int
}

// oneofReset: an occurrence of field num with wire type typ clears
// fields[field], another member of its oneof.
type oneofReset struct {
	num   protowire.Number
	typ   protowire.Type
	field int
}

// fieldState is what one walk of a level accumulates for one field.
type fieldState struct {
	body         []byte
	found, owned bool
	elems        []types.Value
}

// maxIndex bounds the number → field table of a level; higher field
// numbers are found by binary search.
const maxIndex = 256

// NewExtractor compiles paths (non-empty, each starting in some message;
// they need not all start in the same one) into an Extractor whose
// Extract fills out[i] with the value of paths[i].
func NewExtractor(paths []Path) (*Extractor, error) {
	x := &Extractor{nulls: make([]types.Value, len(paths))}
	for i, p := range paths {
		if len(p) == 0 {
			return nil, fmt.Errorf("protoschema: path %d is empty", i)
		}
		for _, f := range p {
			if f == nil {
				return nil, fmt.Errorf("protoschema: path %d has a nil field", i)
			}
		}
		x.nulls[i] = types.NullOf(p.Type())
	}
	if len(paths) == 0 {
		return x, nil
	}
	idx := make([]int, len(paths))
	for i := range idx {
		idx[i] = i
	}
	x.root = *compileLevel(paths, idx, 0)
	if len(paths) == 1 {
		x.single = paths[0]
	}
	return x, nil
}

// compileLevel builds the level at depth d of the paths idx (all of
// which go at least d+1 fields deep).
func compileLevel(paths []Path, idx []int, d int) *xlevel {
	l := &xlevel{}
	pos := map[*Field]int{}
	var deeper [][]int // per field, the paths going below it
	for _, i := range idx {
		f := paths[i][d]
		k, ok := pos[f]
		if !ok {
			k = len(l.fields)
			pos[f] = k
			l.fields = append(l.fields, xfield{f: f})
			deeper = append(deeper, nil)
		}
		if len(paths[i]) == d+1 {
			l.fields[k].leaves = append(l.fields[k].leaves, i)
		} else {
			deeper[k] = append(deeper[k], i)
		}
	}
	for k := range l.fields {
		xf := &l.fields[k]
		xf.below = deeper[k]
		if len(deeper[k]) > 0 {
			xf.sub = compileLevel(paths, deeper[k], d+1)
		}
		f := xf.f
		isMsg := f.kind == protoreflect.MessageKind || f.kind == protoreflect.GroupKind
		if len(xf.leaves) > 0 {
			switch {
			case f.repeated:
				xf.elems = true
			case isMsg:
				xf.merge = true
			default:
				xf.scalar = true
			}
		}
		if xf.sub != nil {
			xf.merge = true // ExtractPath merges any field it goes through
		}
		xf.only = xf.scalar && !xf.merge
		xf.state = -1
	}
	sort.SliceStable(l.fields, func(a, b int) bool { return l.fields[a].f.Number < l.fields[b].f.Number })
	l.owner = l.fields[0].f
	for k := range l.fields {
		if xf := &l.fields[k]; xf.elems || xf.merge {
			xf.state = l.nstate
			l.nstate++
		}
	}
	top := l.fields[len(l.fields)-1].f.Number
	if top >= maxIndex {
		top, l.big = maxIndex-1, true
	}
	if top >= 0 {
		l.index = make([]uint16, top+1)
		for k := len(l.fields) - 1; k >= 0; k-- {
			if n := l.fields[k].f.Number; n >= 0 && n < maxIndex {
				l.index[n] = uint16(k + 1)
			}
		}
	}
	// The oneof members of the fields read at this level: an occurrence
	// of another member (of its wire type) clears what a field holds.
	for k := range l.fields {
		f := l.fields[k].f
		if f.oneof == nil || f.repeated {
			continue
		}
		ms := f.oneof.Fields()
		for j := 0; j < ms.Len(); j++ {
			o := ms.Get(j)
			if int32(o.Number()) != f.Number {
				l.resets = append(l.resets, oneofReset{num: o.Number(), typ: wireType(o.Kind()), field: k})
			}
		}
	}
	return l
}

// Len is the number of paths.
func (x *Extractor) Len() int { return len(x.nulls) }

// Extract decodes every path from wire into out (len(out) ≥ x.Len()):
// out[i] is what ExtractPath(wire, paths[i]) returns. Values alias wire.
// On error out holds partial results; an error is returned only when
// ExtractPath fails for at least one of the paths.
func (x *Extractor) Extract(wire []byte, out []types.Value) error {
	if len(out) < len(x.nulls) {
		return errors.New("protoschema: Extract: out is too short")
	}
	if x.single != nil {
		return extractPathInto(&out[0], wire, x.single)
	}
	if len(x.nulls) == 0 {
		return nil
	}
	return x.walk(&x.root, wire, out)
}

// ExtractPaths decodes paths from wire into out (len(out) ≥ len(paths))
// in one pass: out[i] is what ExtractPath(wire, paths[i]) returns. To
// decode the same paths from many messages, build an Extractor once.
func ExtractPaths(wire []byte, paths []Path, out []types.Value) error {
	x, err := NewExtractor(paths)
	if err != nil {
		return err
	}
	return x.Extract(wire, out)
}

// find returns the position of the first field numbered n, or -1.
func (l *xlevel) find(n protowire.Number) int {
	if n < protowire.Number(len(l.index)) {
		return int(l.index[n]) - 1
	}
	if !l.big {
		return -1
	}
	k := sort.Search(len(l.fields), func(k int) bool { return protowire.Number(l.fields[k].f.Number) >= n })
	if k < len(l.fields) && protowire.Number(l.fields[k].f.Number) == n {
		return k
	}
	return -1
}

// walk decodes the fields of level l from one message's bytes b.
func (x *Extractor) walk(l *xlevel, b []byte, out []types.Value) error {
	var stBuf [4]fieldState
	st := stBuf[:0]
	if l.nstate <= len(stBuf) {
		st = stBuf[:l.nstate]
	} else {
		st = make([]fieldState, l.nstate)
	}
	for k := range l.fields {
		if xf := &l.fields[k]; xf.scalar {
			out[xf.leaves[0]] = xf.f.def
		}
	}
	for len(b) > 0 {
		var n protowire.Number
		var typ protowire.Type
		var v []byte
		// The common case inline: a one-byte tag with a one-byte varint,
		// a fixed-width value or a one-byte length.
		fast := false
		if vl := shortField(b); vl > 0 {
			n, typ = protowire.Number(b[0]>>3), protowire.Type(b[0]&7)
			v, b, fast = b[1:1+vl], b[1+vl:], true
		}
		if !fast {
			var tl, vl int
			n, typ, tl, vl = consumeField(b)
			if tl < 0 {
				return malformed(l.owner, "bad tag: %v", protowire.ParseError(tl))
			}
			if vl < 0 {
				return malformed(l.owner, "field %d: %v", n, protowire.ParseError(vl))
			}
			v, b = b[tl:tl+vl], b[tl+vl:]
		}
		k := -1
		if n < protowire.Number(len(l.index)) {
			k = int(l.index[n]) - 1
		} else if l.big {
			k = l.find(n)
		}
		if k >= 0 {
			for ; k < len(l.fields) && protowire.Number(l.fields[k].f.Number) == n; k++ {
				xf := &l.fields[k]
				if !xf.only {
					if err := xf.visit(st, typ, v, out); err != nil {
						return err
					}
					continue
				}
				if typ == xf.f.wire { // another wire type: an unknown field
					val, _, err := decodeScalar(xf.f, xf.f.Type, v)
					if err != nil {
						return err
					}
					out[xf.leaves[0]] = val // the last occurrence wins
				}
			}
		}
		for _, r := range l.resets {
			if r.num == n && r.typ == typ {
				xf := &l.fields[r.field]
				if xf.scalar {
					out[xf.leaves[0]] = xf.f.def
				}
				if xf.state >= 0 {
					st[xf.state] = fieldState{}
				}
			}
		}
	}
	for k := range l.fields {
		xf := &l.fields[k]
		var s *fieldState
		if xf.state >= 0 {
			s = &st[xf.state]
		}
		switch {
		case xf.scalar:
			for _, i := range xf.leaves[1:] {
				out[i] = out[xf.leaves[0]]
			}
		case xf.elems:
			v := types.ArrayValue(xf.f.Type, s.elems)
			for _, i := range xf.leaves {
				out[i] = v
			}
		case len(xf.leaves) > 0: // a singular message
			v := types.NullOf(xf.f.Type)
			if s.found {
				v = types.ProtoValue(xf.f.Type, s.body)
			}
			for _, i := range xf.leaves {
				out[i] = v
			}
		}
		if xf.sub == nil {
			continue
		}
		if !s.found {
			for _, i := range xf.below {
				out[i] = x.nulls[i]
			}
			continue
		}
		if err := x.walk(xf.sub, s.body, out); err != nil {
			return err
		}
	}
	return nil
}

// visit takes one occurrence of the field, of wire type typ and value v.
func (xf *xfield) visit(st []fieldState, typ protowire.Type, v []byte, out []types.Value) error {
	f := xf.f
	var s *fieldState
	if xf.state >= 0 {
		s = &st[xf.state]
	}
	if xf.scalar && typ == f.wire { // another wire type: an unknown field
		x, _, err := decodeScalar(f, f.Type, v)
		if err != nil {
			return err
		}
		out[xf.leaves[0]] = x // the last occurrence wins
	}
	if xf.elems {
		var err error
		if s.elems, err = appendElem(f, s.elems, typ, v); err != nil {
			return err
		}
	}
	if xf.merge {
		body, ok, err := bodyOf(f, typ, v)
		if err != nil {
			return err
		}
		if ok {
			switch {
			case !s.found:
				s.body, s.found = body, true
			case !s.owned:
				s.body, s.owned = append(append([]byte(nil), s.body...), body...), true
			default:
				s.body = append(s.body, body...)
			}
		}
	}
	return nil
}
