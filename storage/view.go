package storage

import (
	"bytes"
	"sort"
)

// AuthorizedView restricts data access to a subset of a table (spec §3.6):
// rows with one of RowPrefixes, and cells of the listed families whose
// qualifier is listed or has a listed prefix.
type AuthorizedView struct {
	Name               string                  `json:"name"`
	RowPrefixes        [][]byte                `json:"row_prefixes,omitempty"`
	FamilySubsets      map[string]FamilySubset `json:"family_subsets,omitempty"`
	DeletionProtection bool                    `json:"deletion_protection,omitempty"`
	Etag               string                  `json:"etag,omitempty"`
}

// FamilySubset is the part of one family an authorized view exposes.
type FamilySubset struct {
	Qualifiers        [][]byte `json:"qualifiers,omitempty"`
	QualifierPrefixes [][]byte `json:"qualifier_prefixes,omitempty"`
}

// SchemaBundle is a table's protobuf schema bundle: a serialized
// FileDescriptorSet the engine stores for the layers above.
type SchemaBundle struct {
	Name        string `json:"name"`
	Descriptors []byte `json:"descriptors"`
	Etag        string `json:"etag,omitempty"`
}

// View returns the named authorized view, or nil.
func (t *Table) View(name string) *AuthorizedView {
	for i := range t.Views {
		if t.Views[i].Name == name {
			return &t.Views[i]
		}
	}
	return nil
}

// Bundle returns the named schema bundle, or nil.
func (t *Table) Bundle(name string) *SchemaBundle {
	for i := range t.Bundles {
		if t.Bundles[i].Name == name {
			return &t.Bundles[i]
		}
	}
	return nil
}

// containsRow reports whether the view exposes row key.
func (v *AuthorizedView) containsRow(key []byte) bool {
	for _, p := range v.RowPrefixes {
		if bytes.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// containsColumn reports whether the view exposes family:qualifier.
func (v *AuthorizedView) containsColumn(family string, qualifier []byte) bool {
	s, ok := v.FamilySubsets[family]
	if !ok {
		return false
	}
	for _, q := range s.Qualifiers {
		if bytes.Equal(q, qualifier) {
			return true
		}
	}
	for _, p := range s.QualifierPrefixes {
		if bytes.HasPrefix(qualifier, p) {
			return true
		}
	}
	return false
}

// rowRanges returns the view's row prefixes as sorted, non-overlapping
// ranges; an empty prefix covers every row.
func (v *AuthorizedView) rowRanges() []RowRange {
	ps := append([][]byte(nil), v.RowPrefixes...)
	sort.Slice(ps, func(i, j int) bool { return bytes.Compare(ps[i], ps[j]) < 0 })
	var out []RowRange
	for _, p := range ps {
		if n := len(out); n > 0 && bytes.HasPrefix(p, out[n-1].Start) {
			continue // covered by a shorter prefix
		}
		out = append(out, PrefixRange(p))
	}
	return out
}
