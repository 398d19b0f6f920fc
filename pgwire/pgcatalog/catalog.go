package pgcatalog

import (
	"context"
	"hash/fnv"
	"sort"
	"strings"
)

// Namespace and role OIDs. pg_catalog, pg_toast, public and
// information_schema keep PostgreSQL 15's OIDs; the one role is the session
// user with the bootstrap superuser's OID.
const (
	nspCatalog    = 11
	nspToast      = 99
	nspPublic     = 2200
	nspInfoSchema = 13207
	roleOID       = 10
	dbOIDBase     = 16384
	heapAM        = 2
	btreeAM       = 403
	defaultColl   = 100
	// userOIDBase starts the range where table OIDs are hashed; each table
	// takes a slot of oidSlot consecutive OIDs (table, primary-key index,
	// primary-key constraint, row type).
	userOIDBase = 1 << 30
	oidSlot     = 4
	// rowTypeOffset places a table's row type (pg_type, typtype 'c') in its
	// slot.
	rowTypeOffset = 3
	oidSlots      = 1 << 26
)

type namespace struct {
	oid  uint32
	name string
}

var namespaces = []namespace{{nspToast, "pg_toast"}, {nspCatalog, "pg_catalog"}, {nspPublic, "public"}, {nspInfoSchema, "information_schema"}}

// rel is a pg_class row: a Shale table, its primary-key index, one of the
// emulated catalog relations, or an index of a catalog table.
type rel struct {
	oid   uint32
	name  string
	nsp   uint32
	kind  byte // 'r' table, 'v' view, 'i' index
	cols  []colDef
	table *Table  // Shale tables
	def   *relDef // catalog relations
	// Shale tables with a primary key: the key's attnums and the OIDs of
	// its index and constraint.
	pkey     []int64
	indexOID uint32
	// conOID is a Shale table's primary-key constraint, or the constraint
	// (of type conType, 'p' or 'u') an index backs.
	conOID  uint32
	conType byte
	// A table lists its indexes; an index points at its table with of and
	// names its key columns by their attnums in key.
	indexes         []*rel
	of              *rel
	key             []int64
	unique, primary bool
	collation       []int64 // per key column; nil: none
	class           []int64 // operator classes per key column; nil: 0s
}

// snapshot is the catalog of one statement: read once from the Source so
// that every relation of the statement sees the same tables (invariant C1
// in doc.go).
type snapshot struct {
	sess     *Session
	dbs      []string
	rels     []*rel // ordered by OID
	relByOID map[uint32]*rel
}

func buildSnapshot(ctx context.Context, src Source, sess *Session) (*snapshot, error) {
	s := &snapshot{sess: sess, relByOID: map[uint32]*rel{}}
	var tables []Table
	if src != nil {
		var err error
		if tables, err = src.Tables(ctx, sess.Database); err != nil {
			return nil, err
		}
		if dl, ok := src.(DatabaseLister); ok {
			if s.dbs, err = dl.Databases(ctx); err != nil {
				return nil, err
			}
		}
	}
	s.dbs = dedupSorted(append(s.dbs, sess.Database))
	for _, r := range sharedCatalogRels() {
		s.add(r)
	}
	s.addTables(tables)
	sort.Slice(s.rels, func(i, j int) bool { return s.rels[i].oid < s.rels[j].oid })
	return s, nil
}

func (s *snapshot) add(r *rel) {
	s.rels = append(s.rels, r)
	s.relByOID[r.oid] = r
}

// addTables assigns each table a stable OID slot: a hash of its name,
// probing forward on collision in name order, so the OIDs stay the same
// across statements while the set of tables does (invariant C2).
func (s *snapshot) addTables(tables []Table) {
	sorted := append([]Table(nil), tables...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	used := map[uint32]bool{}
	for i := range sorted {
		t := &sorted[i]
		h := fnv.New32a()
		h.Write([]byte(t.Name))
		slot := h.Sum32() % oidSlots
		for used[slot] {
			slot = (slot + 1) % oidSlots
		}
		used[slot] = true
		base := uint32(userOIDBase + slot*oidSlot)
		r := &rel{oid: base, name: t.Name, nsp: nspPublic, kind: 'r', table: t}
		for _, c := range t.Columns {
			r.cols = append(r.cols, colDef{name: c.Name, typ: c.TypeOID})
		}
		for _, k := range t.PrimaryKey {
			for i, c := range t.Columns {
				if c.Name == k {
					r.pkey = append(r.pkey, int64(i+1))
				}
			}
		}
		s.add(r)
		if len(r.pkey) > 0 {
			r.indexOID, r.conOID = base+1, base+2
			idx := &rel{oid: r.indexOID, name: t.Name + "_pkey", nsp: nspPublic, kind: 'i', of: r, key: r.pkey,
				unique: true, primary: true, conOID: r.conOID, conType: 'p'}
			for _, n := range r.pkey {
				idx.cols = append(idx.cols, r.cols[n-1])
			}
			r.indexes = []*rel{idx}
			s.add(idx)
		}
	}
}

func dedupSorted(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, x := range ss {
		if x != "" && (i == 0 || x != ss[i-1]) {
			out = append(out, x)
		}
	}
	return out
}

func nspName(oid uint32) string {
	for _, n := range namespaces {
		if n.oid == oid {
			return n.name
		}
	}
	return ""
}

func nspOID(name string) (uint32, bool) {
	for _, n := range namespaces {
		if n.name == name {
			return n.oid, true
		}
	}
	return 0, false
}

// searchPath is the effective list of schemas, pg_catalog first (it is
// searched first unless named explicitly), as current_schemas(true) shows.
func (s *snapshot) searchPath(implicit bool) []string {
	return searchPath(s.sess, implicit)
}

func searchPath(sess *Session, implicit bool) []string {
	var out []string
	hasCatalog := false
	for _, p := range strings.Split(setting(sess, "search_path"), ",") {
		p = strings.Trim(strings.TrimSpace(p), `"`)
		if p == "$user" {
			p = sess.User
		}
		if _, ok := nspOID(p); ok {
			out = append(out, p)
			hasCatalog = hasCatalog || p == "pg_catalog"
		}
	}
	if implicit && !hasCatalog {
		out = append([]string{"pg_catalog"}, out...)
	}
	return out
}

// visible reports whether a relation is found by its bare name.
func (s *snapshot) visible(r *rel) bool {
	for _, p := range s.searchPath(true) {
		o, _ := nspOID(p)
		if x := s.relByName(o, r.name); x != nil {
			return x == r
		}
	}
	return false
}

func (s *snapshot) relByName(nsp uint32, name string) *rel {
	for _, r := range s.rels {
		if r.nsp == nsp && r.name == name {
			return r
		}
	}
	return nil
}

// resolveRel resolves a possibly qualified relation name as regclass input
// does.
func (s *snapshot) resolveRel(schema, name string) *rel {
	if schema != "" {
		o, ok := nspOID(schema)
		if !ok {
			return nil
		}
		return s.relByName(o, name)
	}
	for _, p := range s.searchPath(true) {
		o, _ := nspOID(p)
		if r := s.relByName(o, name); r != nil {
			return r
		}
	}
	return nil
}

// regclassName renders a relation OID as regclass output does: qualified
// when not visible.
func (s *snapshot) regclassName(oid uint32) string {
	r := s.relByOID[oid]
	if r == nil {
		return itoa(int64(oid))
	}
	if s.visible(r) {
		return quoteIdent(r.name)
	}
	return quoteIdent(nspName(r.nsp)) + "." + quoteIdent(r.name)
}
