package exec

import (
	"encoding/binary"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// buildRow turns a storage row into the scan's SQL row (`_key`, the key
// fields when the query reads them, then one MAP per family read; what is
// not read is NULL). Values live in the batch slabs (invariant E1). A key
// that does not decode under the table's row-key schema is an error
// naming the key (spec §5.5).
func (s *scanOp) buildRow(r *storage.Row) ([]types.Value, error) {
	w := s.n.Width
	start := len(s.vals)
	s.vals = append(s.vals, make([]types.Value, w)...)
	if s.n.NeedKey || s.n.DecodeKey {
		key := s.copyBytes(r.Key)
		s.vals[start] = types.BytesValue(key)
		if s.n.DecodeKey {
			if err := s.decodeKey(s.vals[start+1:start+1+s.n.Table.NumKeyFields()], key); err != nil {
				return nil, err
			}
		}
	}
	cells := r.Cells
	for _, rd := range s.n.Reads {
		i := 0
		for i < len(cells) && cells[i].Family < rd.Family.Name {
			i++
		}
		j := i
		for j < len(cells) && cells[j].Family == rd.Family.Name {
			j++
		}
		if rd.CellCols != nil {
			s.directCells(rd, cells[i:j], s.vals[start:start+w])
		} else {
			v := s.familyValue(rd, cells[i:j]) // it appends to s.vals: index after
			s.vals[start+rd.Col] = v
		}
		cells = cells[j:]
	}
	row := s.vals[start : start+w : start+w]
	s.extract(row, r.Key)
	return row, nil
}

// extract decodes the protobuf fields the scan extracts (planner
// Scan.ExtractGroups), all the fields of one cell in one pass over it. A
// transient cell column holds bytes in storage's buffer, valid only until
// the next row: a message that fails to decode leaves the columns of all
// its fields unset, and its cell is then copied into the batch so that
// the expressions' fallback can report the error (or, per field, read it).
func (s *scanOp) extract(row []types.Value, key []byte) {
	for i := range s.n.ExtractGroups {
		g := &s.n.ExtractGroups[i]
		in := &row[g.In]
		if in.IsNull() {
			for _, x := range g.Extracts {
				row[x.Col] = types.NullOf(x.Get.Type())
			}
			continue
		}
		if len(g.Extracts) == 1 { // straight into its column
			c := g.Extracts[0].Col
			if err := g.Extractor.Extract(in.Bytes(), row[c:c+1]); err == nil {
				continue
			}
			row[c] = types.Value{} // unset: the fallback reports the error
		} else {
			// s.kv, the scratch of familyValue, is free once the row's
			// families are built.
			if cap(s.kv) < len(g.Extracts) {
				s.kv = make([]types.Value, len(g.Extracts))
			}
			out := s.kv[:len(g.Extracts)]
			if err := g.Extractor.Extract(in.Bytes(), out); err == nil {
				for k, x := range g.Extracts {
					row[x.Col] = out[k]
				}
				continue
			}
		}
		if g.Transient {
			row[g.In] = types.BytesValue(s.copyBytes(in.Bytes()))
		}
		if s.n.KeyOnError && row[0].IsNull() {
			row[0] = types.BytesValue(s.copyBytes(key))
		}
	}
}

// decodeKey decodes key (in the batch slab) into the key-field columns.
func (s *scanOp) decodeKey(dst []types.Value, key []byte) error {
	// dst has room for every field, so the values land in place.
	if _, err := s.n.Table.KeySchema.DecodeKey(dst[:0:len(dst)], key); err != nil {
		return sqlerr.New(sqlerr.InvalidValue, "row key %q does not match the row key schema of table %s", key, s.n.Table.Name)
	}
	return nil
}

// familyValue builds MAP<BYTES, V> (latest cell per qualifier) or, with
// history, MAP<BYTES, ARRAY<STRUCT<timestamp, value>>> (newest first). The
// entries of a latest-cell map are appended straight to the slab; a
// history map's are staged in s.kv, since each entry's versions take slab
// room of their own while the map is built.
func (s *scanOp) familyValue(rd planner.FamilyRead, cells []storage.Cell) types.Value {
	t := rd.Family.Type(s.n.History)
	start := len(s.vals)
	kv := s.kv[:0]
	for i := 0; i < len(cells); {
		q := cells[i].Qualifier
		j := i
		for j < len(cells) && string(cells[j].Qualifier) == string(q) {
			j++
		}
		switch {
		case !selected(rd, q):
		case s.n.History:
			kv = append(kv, types.BytesValue(s.copyBytes(q)), s.versions(rd.Family, cells[i:j]))
		default:
			if val := s.cellValue(rd.Family, cells[i:j]); !val.IsNull() {
				s.vals = append(s.vals, types.BytesValue(s.copyBytes(q)), val)
			}
		}
		i = j
	}
	if s.n.History {
		s.kv = kv
		start = len(s.vals)
		s.vals = append(s.vals, kv...)
	}
	return types.MapValue(t, s.vals[start:len(s.vals):len(s.vals)])
}

// directCells puts the newest cell of each qualifier rd selects into its
// cell column of row (planner.FamilyRead.CellCols). cells are one family's,
// in qualifier order like rd.Qualifiers.
func (s *scanOp) directCells(rd planner.FamilyRead, cells []storage.Cell, row []types.Value) {
	null := types.NullOf(rd.Family.Type(false).Elem)
	k := 0
	for i := 0; i < len(cells); {
		q := cells[i].Qualifier
		j := i + 1
		for j < len(cells) && string(cells[j].Qualifier) == string(q) {
			j++
		}
		for k < len(rd.Qualifiers) && string(rd.Qualifiers[k]) < string(q) {
			row[rd.CellCols[k]] = null
			k++
		}
		if k < len(rd.Qualifiers) && string(rd.Qualifiers[k]) == string(q) {
			var v types.Value
			if rd.Transient != nil && rd.Transient[k] {
				v = types.BytesValue(cells[i].Value) // storage's buffer: see buildRow
			} else {
				v = s.decode(rd.Family, cells[i].Value)
			}
			if v.IsNull() {
				v = null
			}
			row[rd.CellCols[k]] = v
			k++
		}
		i = j
	}
	for ; k < len(rd.Qualifiers); k++ {
		row[rd.CellCols[k]] = null
	}
}

func selected(rd planner.FamilyRead, q []byte) bool {
	if rd.Qualifiers == nil {
		return true
	}
	for _, x := range rd.Qualifiers {
		if string(x) == string(q) {
			return true
		}
	}
	return false
}

// cellValue returns the newest cell of a column, or NULL.
func (s *scanOp) cellValue(f catalog.Family, cells []storage.Cell) types.Value {
	if len(cells) == 0 {
		return types.Value{}
	}
	return s.decode(f, cells[0].Value)
}

func (s *scanOp) versions(f catalog.Family, cells []storage.Cell) types.Value {
	vt := f.VersionType()
	n := len(cells)
	if n == 0 {
		return types.Value{}
	}
	// Reserve the array and the struct fields in one slab region.
	start := len(s.vals)
	s.vals = append(s.vals, make([]types.Value, 3*n)...)
	elems := s.vals[start : start+n : start+n]
	fields := s.vals[start+n : start+3*n]
	for k, c := range cells {
		fields[2*k] = types.TimestampValue(c.Timestamp)
		fields[2*k+1] = s.decode(f, c.Value)
		elems[k] = types.StructValue(vt, fields[2*k:2*k+2:2*k+2])
	}
	return types.ArrayValue(types.ArrayOf(vt), elems)
}

func (s *scanOp) decode(f catalog.Family, v []byte) types.Value {
	if f.Int64 {
		if len(v) != 8 {
			return types.NullOf(types.Int64)
		}
		return types.Int64Value(int64(binary.BigEndian.Uint64(v)))
	}
	return types.BytesValue(s.copyBytes(v))
}

func (s *scanOp) copyBytes(b []byte) []byte {
	start := len(s.buf)
	s.buf = append(s.buf, b...)
	return s.buf[start:len(s.buf):len(s.buf)]
}
