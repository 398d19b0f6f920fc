package pgcatalog

import (
	"maps"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Shale tables as relations. A statement prepared with a Source
// (PrepareWith) may name a Shale table as public.<name>, or unqualified
// after pg_catalog's relations. Its columns are the Table's Columns, as the
// emulated catalog describes them (pg_attribute, information_schema.columns).
// Its rows come from Source.Scan, which reads only the columns some
// expression references (of a family looked up only at constant keys,
// only those keys: byKey) and, when the plan allows, only as many rows as
// LIMIT needs, in either key order (sortedByScan); a constant-false WHERE
// or LIMIT 0 reads nothing (selectplan.go).

// native is a scanned value's Datum.Native and the type of the column it
// was read from; it rides along in Value while the value is unchanged.
type native struct {
	v   any
	typ uint32
}

// table returns the Shale table called name, reading the Source's tables
// on first use; nil when there is none.
func (b *binder) table(name string) (*Table, error) {
	if b.tables == nil {
		tables, err := b.src.Tables(b.ctx, b.sess.Database)
		if err != nil {
			return nil, err
		}
		b.tables = make(map[string]*Table, len(tables))
		for _, t := range tables {
			t.Columns = append([]Column(nil), t.Columns...) // the Statement keeps it
			b.tables[t.Name] = &t
		}
	}
	return b.tables[name], nil
}

// tableScanPlan reads a Shale table.
type tableScanPlan struct {
	table *Table
	cols  []scopeCol
	used  []bool // set by colRef through scopeCol.use
	// push are the WHERE conjuncts the Source may narrow the scan with
	// (pushdown.go).
	push []pushCond
	// refs counts each column's references (colRef), keyRefs those that
	// only look a jsonb column up at a constant key, and keys collects
	// those keys: a family all of whose references are such is read with
	// only those keys (ScanColumn.Keys), so only their cells are read.
	refs, keyRefs []int
	keys          []map[string]bool
	// reverse reads the table in descending key order (sortedByScan).
	reverse bool
}

func newTableScan(t *Table) *tableScanPlan {
	n := len(t.Columns)
	p := &tableScanPlan{table: t, used: make([]bool, n), refs: make([]int, n), keyRefs: make([]int, n), keys: make([]map[string]bool, n)}
	for i, c := range t.Columns {
		p.cols = append(p.cols, scopeCol{name: c.Name, typ: c.TypeOID, use: &p.used[i], scan: p})
	}
	return p
}

func (p *tableScanPlan) columns() []scopeCol { return p.cols }

// column returns the index of the table column whose use flag is use; -1
// when it is none of p's (sc may hold the columns of several joined
// tables).
func (p *tableScanPlan) column(use *bool) int {
	for i := range p.used {
		if use == &p.used[i] {
			return i
		}
	}
	return -1
}

// tableColumn is a bare reference to a Shale table's column, which the
// operators that read only part of a family look for (byKey).
type tableColumn struct {
	scan *tableScanPlan
	idx  int
}

// byKey notes that e, when a bare reference to a Shale table's jsonb
// column, is read here only at key k, when k is a string constant (a
// literal, before its coercion to text): cf->'q', cf->>'q', cf ? 'q',
// cf #> '{q,...}' and jsonb_extract_path(cf, 'q', ...) see the same
// whether or not the family's other cells were read.
func byKey(e, k *cexpr) {
	if e.tableCol == nil || e.typ != tJSONB || !k.isConst || k.val.isNull() || k.typ != tText && k.typ != tUnknown {
		return
	}
	p, i := e.tableCol.scan, e.tableCol.idx
	if p.keys[i] == nil {
		p.keys[i] = map[string]bool{}
	}
	p.keys[i][k.val.s] = true
	p.keyRefs[i]++
}

// scanColumns lists the columns a scan reads: the used ones, a family read
// only by key with those keys, and idx their indexes among the table's.
func (p *tableScanPlan) scanColumns() (cols []ScanColumn, idx []int) {
	for i, u := range p.used {
		if !u {
			continue
		}
		c := ScanColumn{Name: p.table.Columns[i].Name}
		if p.keyRefs[i] > 0 && p.keyRefs[i] == p.refs[i] {
			c.Keys = slices.Sorted(maps.Keys(p.keys[i]))
		}
		cols = append(cols, c)
		idx = append(idx, i)
	}
	return cols, idx
}

// run reads the whole table (counting each row against maxTicks); the rows
// are kept for the rest of the run, so a table read again (a correlated
// subquery) is scanned once.
func (p *tableScanPlan) run(ev *evaluator, _ *env) ([][]Value, error) {
	if rows, ok := ev.scanned[p]; ok {
		return rows, nil
	}
	it, err := p.scan(ev, -1)
	if err != nil {
		return nil, err
	}
	defer it.close()
	var rows [][]Value
	for {
		r, err := it.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			break
		}
		if err := ev.check(); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	ev.scanned[p] = rows
	return rows, nil
}

// open streams the table, at most limit rows (< 0: all). Opened a second
// time in one run, it reads the whole table once (run) and serves it from
// memory from then on.
func (p *tableScanPlan) open(ev *evaluator, limit int64) (rowIter, error) {
	if rows, ok := ev.scanned[p]; ok {
		return &sliceIter{rows: rows}, nil
	}
	if ev.opened[p] {
		rows, err := p.run(ev, nil)
		return &sliceIter{rows: rows}, err
	}
	ev.opened[p] = true
	return p.scan(ev, limit)
}

// scan starts a Source scan of the referenced columns, after checking that
// the table still has the columns the statement was bound to.
func (p *tableScanPlan) scan(ev *evaluator, limit int64) (*scanIter, error) {
	if err := p.check(ev); err != nil {
		return nil, err
	}
	cols, idx := p.scanColumns()
	rows, err := ev.src.Scan(ev.ctx, ev.sess.Database, ScanRequest{Table: p.table.Name, Columns: cols, Filter: p.filter(ev), Limit: limit, Reverse: p.reverse})
	if err != nil {
		return nil, err
	}
	it := &scanIter{ev: ev, plan: p, rows: rows, idx: idx, width: len(p.cols)}
	for _, j := range idx {
		it.typs = append(it.typs, p.table.Columns[j].TypeOID)
	}
	ev.scans = append(ev.scans, it)
	return it, nil
}

// check compares the table's current columns with those the statement was
// bound to, as PostgreSQL rejects a cached plan whose tables changed shape.
func (p *tableScanPlan) check(ev *evaluator) error {
	snap, err := ev.catalog()
	if err != nil {
		return err
	}
	r := snap.relByName(nspPublic, p.table.Name)
	if r == nil || r.table == nil {
		return errorf(CodeUndefinedTable, noPos, "relation \"%s\" does not exist", p.table.Name)
	}
	for i, c := range p.table.Columns {
		if !p.used[i] {
			continue
		}
		found := false
		for _, now := range r.table.Columns {
			if now.Name == c.Name && now.TypeOID == c.TypeOID {
				found = true
			}
		}
		if !found {
			return errorf(CodeNotSupported, noPos, "cached plan must not change result type: column \"%s\" of table \"%s\" changed", c.Name, p.table.Name)
		}
	}
	return nil
}

// rowIter yields rows one at a time: nil at the end.
type rowIter interface {
	next() ([]Value, error)
	close()
}

type sliceIter struct {
	rows [][]Value
	i    int
}

func (it *sliceIter) next() ([]Value, error) {
	if it.i >= len(it.rows) {
		return nil, nil
	}
	it.i++
	return it.rows[it.i-1], nil
}

func (it *sliceIter) close() {}

// scanIter turns a Source scan's rows into Values: column idx[k] of the
// table's row takes the k-th Datum; columns nothing references are NULL.
type scanIter struct {
	ev     *evaluator
	plan   *tableScanPlan
	read   int64 // rows the Source returned (EXPLAIN ANALYZE)
	rows   TableRows
	idx    []int
	typs   []uint32
	width  int
	closed bool
	// reuse: the consumer is done with a row before it asks for the next
	// (reuseRows), so each row reuses the last one's slices.
	reuse bool
	row   []Value
	nats  []native
}

func (it *scanIter) next() ([]Value, error) {
	if it.closed {
		return nil, nil
	}
	if !it.rows.Next() {
		err := it.rows.Err()
		it.close()
		return nil, err
	}
	it.read++
	ds := it.rows.Row()
	if len(ds) != len(it.idx) {
		it.close()
		return nil, errorf("XX000", noPos, "table scan returned %d values for %d columns", len(ds), len(it.idx))
	}
	row, nats := it.row, it.nats
	if row == nil {
		row, nats = make([]Value, it.width), make([]native, len(ds))
	} else {
		clear(row)
	}
	if it.reuse {
		it.row, it.nats = row, nats
	}
	for k, d := range ds {
		if d.Null {
			continue
		}
		typ := it.typs[k]
		v := textV(d.Text) // jsonb's output form is its canonical text (Datum)
		if typ != tJSONB {
			var err error
			if v, err = it.ev.cast(v, tUnknown, typ); err != nil {
				it.close()
				return nil, err
			}
		}
		if d.Native != nil {
			nats[k] = native{v: d.Native, typ: typ}
			v.nat = &nats[k]
		}
		row[it.idx[k]] = v
	}
	return row, nil
}

// rowsRead is how many rows the run's scans of p read.
func (ev *evaluator) rowsRead(p *tableScanPlan) (n int64) {
	for _, it := range ev.scans {
		if it.plan == p {
			n += it.read
		}
	}
	return n
}

func (it *scanIter) close() {
	if !it.closed {
		it.closed = true
		it.rows.Close()
	}
}

// ClearlyPostgres reports whether sql is evidently PostgreSQL rather than
// GoogleSQL: PostgreSQL's parser accepts it, and it uses a form GoogleSQL
// cannot mean — a double-quoted identifier where GoogleSQL takes no string
// (a table name after FROM or JOIN, an alias after AS, a part of a dotted
// name), a :: cast, or a name qualified by schema public, pg_catalog or
// information_schema. A double-quoted word elsewhere proves nothing: it is
// a string literal in GoogleSQL. The server reports a failing fallback
// query's PostgreSQL error, rather than GoogleSQL's, for such text.
func ClearlyPostgres(sql string) (clearly bool) {
	defer func() {
		if recover() != nil {
			clearly = false
		}
	}()
	if _, err := pg_query.Parse(sql); err != nil {
		return false
	}
	res, err := pg_query.Scan(sql)
	if err != nil {
		return false
	}
	toks := res.Tokens
	tok := func(i int) pg_query.Token {
		if i < 0 || i >= len(toks) {
			return 0
		}
		return toks[i].Token
	}
	for i, t := range toks {
		if t.Start < 0 || t.Start > t.End || int(t.End) > len(sql) {
			return false
		}
		word := sql[t.Start:t.End]
		switch {
		case t.Token == pg_query.Token_TYPECAST:
			return true
		case t.Token == pg_query.Token_IDENT && strings.HasPrefix(word, `"`):
			switch tok(i - 1) {
			case pg_query.Token_FROM, pg_query.Token_JOIN, pg_query.Token_AS, pg_query.Token_ASCII_46:
				return true
			}
			if tok(i+1) == pg_query.Token_ASCII_46 {
				return true
			}
		case tok(i+1) == pg_query.Token_ASCII_46:
			switch strings.ToLower(word) {
			case "public", "pg_catalog", "information_schema":
				return true
			}
		}
	}
	return false
}
