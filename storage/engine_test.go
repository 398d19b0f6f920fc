package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestEngineDataDriven runs the datadriven files testdata/{tables, mutations,
// reads, conditional, gc, tablets, views} against an Engine. Each file gets
// its own engine on an in-memory vfs with a manual clock and no background
// sweep; Check runs after every file (and on every reopen).
//
// Byte strings (row keys, qualifiers, values, prefixes) are written bare, up
// to the next delimiter, or as a Go-quoted string ("a\x00b", `x y`); a quoted
// string may be followed by *N to repeat it N times ("k"*4097). Output prints
// them the way Cell.String does: bare when printable, else quoted; strings
// longer than 64 bytes are cut to 16 and followed by …(N bytes). A cell
// whose value has 8 bytes and needs quoting is followed by (int64 N), its
// big-endian reading.
//
// Every data and table command takes instance=<name> (default "i"). Data
// commands take table=<name> and view=<name> (read or write through that
// authorized view). Errors print as "error: <message>".
//
// Engine lifecycle
//
//	open [split-size=N]   replaces the engine with a fresh one on a new vfs
//	                      (the first command of a file opens one implicitly)
//	reopen                Check, close, and reopen on the same vfs
//	check                 runs Engine.Check: "ok" or the error
//	flush                 flushes memtables to sstables
//	clock [advance=<dur>] [set=<RFC3339 | micros>]
//	                      moves the manual clock (initially
//	                      2024-01-01T00:00:00Z) and prints it
//	sweep                 Engine.Sweep; prints its SweepStats
//
// Catalog
//
//	create-table name=<t> [granularity=millis|micros] [splits=(k1,k2,...)] [protected]
//	<family> [<gc rule>] [sum|min|max]      one family per line
//	    gc rule = never | versions(N) | age(<Go duration>)
//	            | union(rule, ...) | intersection(rule, ...)
//	get-table name=<t>          list-tables (names, or "(no tables)")
//	delete-table name=<t>
//	modify-families table=<t>   one step per line, applied in one call:
//	    create <family line> | update <family line> | drop <family>
//	    (update with sum|min|max|plain checks the immutable aggregate)
//	drop-row-range table=<t> (prefix=<p> | all)
//	alter table=<t> [view=<v>] protected=on|off
//	create-view table=<t> name=<v> [protected]   appends an AuthorizedView
//	    rows <prefix> ...                         row prefixes
//	    family <fam> [<qualifier> | <prefix>* ...]  no qualifier: the whole family
//	delete-view table=<t> name=<v>
//
// Table commands print the table: name, granularity, protection, then
// families, splits and views, one per line.
//
// Data
//
//	mutate table=<t> row=<key>    one mutation per line, one MutateRow call:
//	    set <fam>:<qual>@<ts>=<value>      ts -1 is server time; @~ts marks
//	                                       a client-generated timestamp
//	    add <fam>:<qual>@<ts>=<int64>
//	    merge <fam>:<qual>@<ts>=<0xHEX | null>
//	    delete-column <fam>:<qual> [<range>]   range [start,end), end * = +∞
//	    delete-family <fam>
//	    delete-row
//	mutate-rows table=<t>         "row <key>" starts an entry; mutation lines
//	                              follow; prints "<index>: ok" or the error
//	read table=<t> [reversed] [limit=N] [filter=<text>] [stats]
//	     [families=(f,...)] [qualifiers=(f:q1:q2,...)] [latest-only]
//	     [keys-only] [keep-empty]
//	    key <k> ... | keys <k> ...  row keys
//	    range <range>             [a,b) (a,b] [a,+inf) [,b) ... (bounds may
//	                              be *, empty or +inf for unbounded)
//	    prefix <p>                PrefixRange(p)
//	    filter <text>             ParseFilter syntax (the arg form cannot
//	                              hold spaces)
//	  prints each row key, its cells indented, or "(no rows)"; stats adds
//	  the ReadStats.
//	check-and-mutate table=<t> row=<key>
//	    predicate <filter text>   (omitted or "none": the row has any cell)
//	    true: <mutation>
//	    false: <mutation>
//	  prints matched=true|false
//	read-modify-write table=<t> row=<key>
//	    append <fam>:<qual>=<bytes>
//	    increment <fam>:<qual>=<int64>
//	  prints the returned cells
//	sample table=<t> [offsets]    SampleRowKeys: one key per line, or
//	                              "(no samples)"
func TestEngineDataDriven(t *testing.T) {
	for _, file := range []string{"tables", "mutations", "reads", "conditional", "gc", "tablets", "views"} {
		t.Run(file, func(t *testing.T) {
			env := &ddEnv{t: t}
			datadriven.RunTest(t, "testdata/"+file, env.run)
		})
	}
}

// TestEngineDataDrivenReadahead runs the same files with every read reading
// ahead from its first row (readahead.go): the output must not change.
func TestEngineDataDrivenReadahead(t *testing.T) {
	withReadaheadAfter(0, func() { TestEngineDataDriven(t) })
}

// testEpoch is where every test clock starts.
var testEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// testClock is a manual clock for Options.Clock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock { return &testClock{now: testEpoch} }

// Now returns the clock's time.
func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// testEngine is an Engine on an in-memory vfs with a manual clock. The
// embedded *Engine changes on reopen.
type testEngine struct {
	*Engine
	t     testing.TB
	opts  Options
	clock *testClock
}

// testEngineDir is the engine's directory inside its vfs.
const testEngineDir = "shale"

// openTestEngine opens an engine on a fresh vfs.NewMem with a manual clock
// (starting at testEpoch) and no background sweep; adjust may change the
// options. A cleanup runs Check, failing the test on error, and closes the
// engine.
func openTestEngine(t testing.TB, adjust ...func(*Options)) *testEngine {
	t.Helper()
	clock := newTestClock()
	opts := Options{FS: vfs.NewMem(), SweepInterval: -1, Clock: clock.Now}
	for _, f := range adjust {
		f(&opts)
	}
	te := &testEngine{t: t, opts: opts, clock: clock}
	if err := te.open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := te.shutdown(); err != nil {
			t.Errorf("test engine: %v", err)
		}
	})
	return te
}

// createTable creates table name of instance "i" with families fams and
// returns its target.
func (te *testEngine) createTable(name string, fams ...string) Target {
	te.t.Helper()
	var spec TableSpec
	for _, f := range fams {
		spec.Families = append(spec.Families, Family{Name: f})
	}
	if _, err := te.CreateTable(context.Background(), "i", name, spec); err != nil {
		te.t.Fatal(err)
	}
	return Target{Instance: "i", Table: name}
}

func (te *testEngine) open() error {
	e, err := Open(testEngineDir, te.opts)
	if err != nil {
		return err
	}
	te.Engine = e
	return nil
}

// shutdown runs Check and closes the engine; a closed testEngine is left
// alone.
func (te *testEngine) shutdown() error {
	e := te.Engine
	if e == nil {
		return nil
	}
	te.Engine = nil
	checkErr := e.Check(context.Background())
	if checkErr != nil {
		checkErr = fmt.Errorf("check: %w", checkErr)
	}
	return errors.Join(checkErr, e.Close())
}

// reopen checks and closes the engine, then opens it again on the same vfs,
// proving that what the test wrote persists.
func (te *testEngine) reopen() error {
	if err := te.shutdown(); err != nil {
		return err
	}
	return te.open()
}

// ddEnv is the state of one datadriven file.
type ddEnv struct {
	t  *testing.T
	te *testEngine
}

func (env *ddEnv) engine() *testEngine {
	if env.te == nil {
		env.te = openTestEngine(env.t)
	}
	return env.te
}

func (env *ddEnv) run(t *testing.T, td *datadriven.TestData) string {
	ctx := context.Background()
	switch td.Cmd {
	case "open":
		return env.cmdOpen(t, td)
	case "reopen":
		return ddResult(env.engine().reopen())
	case "check":
		return ddResult(env.engine().Check(ctx))
	case "flush":
		return ddResult(env.engine().Flush())
	case "clock":
		return env.cmdClock(t, td)
	case "sweep":
		st, err := env.engine().Sweep(ctx)
		if err != nil {
			return ddError(err)
		}
		return fmt.Sprintf("tables-swept=%d cells-scanned=%d cells-deleted=%d splits=%d",
			st.TablesSwept, st.CellsScanned, st.CellsDeleted, st.Splits)

	case "create-table":
		return env.cmdCreateTable(t, td)
	case "get-table":
		tbl, err := env.engine().GetTable(ddInstance(td), ddArg(t, td, "name"))
		if err != nil {
			return ddError(err)
		}
		return ddDescribeTable(tbl)
	case "list-tables":
		var b strings.Builder
		for _, tbl := range env.engine().ListTables(ddInstance(td)) {
			fmt.Fprintln(&b, tbl.Name)
		}
		if b.Len() == 0 {
			return "(no tables)"
		}
		return b.String()
	case "delete-table":
		return ddResult(env.engine().DeleteTable(ctx, ddInstance(td), ddArg(t, td, "name")))
	case "modify-families":
		return env.cmdModifyFamilies(t, td)
	case "drop-row-range":
		var prefix []byte
		if td.HasArg("prefix") {
			prefix = ddArgBytes(t, td, "prefix")
		}
		return ddResult(env.engine().DropRowRange(ctx, ddInstance(td), ddArg(t, td, "table"), prefix, td.HasArg("all")))
	case "alter":
		return env.cmdAlter(t, td)
	case "create-view":
		return env.cmdCreateView(t, td)
	case "delete-view":
		name := ddArg(t, td, "name")
		tbl, err := env.engine().AlterTable(ctx, ddInstance(td), ddArg(t, td, "table"), func(tbl *Table) error {
			for i := range tbl.Views {
				if tbl.Views[i].Name == name {
					tbl.Views = append(tbl.Views[:i:i], tbl.Views[i+1:]...)
					return nil
				}
			}
			return fmt.Errorf("%w: authorized view %q", ErrNotFound, name)
		})
		if err != nil {
			return ddError(err)
		}
		return ddDescribeTable(tbl)

	case "mutate":
		muts := ddParseMutations(t, td, ddLines(td.Input))
		return ddResult(env.engine().MutateRow(ctx, ddTarget(t, td), ddArgBytes(t, td, "row"), muts))
	case "mutate-rows":
		return env.cmdMutateRows(t, td)
	case "read":
		return env.cmdRead(t, td)
	case "check-and-mutate":
		return env.cmdCheckAndMutate(t, td)
	case "read-modify-write":
		return env.cmdReadModifyWrite(t, td)
	case "sample":
		samples, err := env.engine().SampleRowKeys(ctx, ddTarget(t, td))
		if err != nil {
			return ddError(err)
		}
		if len(samples) == 0 {
			return "(no samples)"
		}
		var b strings.Builder
		for _, s := range samples {
			b.WriteString(ddQuote(s.Key))
			if td.HasArg("offsets") {
				fmt.Fprintf(&b, " offset=%d", s.Offset)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}

func (env *ddEnv) cmdOpen(t *testing.T, td *datadriven.TestData) string {
	if env.te != nil {
		if err := env.te.shutdown(); err != nil {
			return ddError(err)
		}
	}
	var splitSize int64
	if td.HasArg("split-size") {
		td.ScanArgs(t, "split-size", &splitSize)
	}
	env.te = openTestEngine(env.t, func(o *Options) {
		o.SplitSize = splitSize
	})
	return "ok"
}

func (env *ddEnv) cmdClock(t *testing.T, td *datadriven.TestData) string {
	c := env.engine().clock
	if td.HasArg("set") {
		s := ddArg(t, td, "set")
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			c.Set(time.UnixMicro(n).UTC())
		} else if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
			c.Set(ts)
		} else {
			td.Fatalf(t, "clock set=%s: want micros or RFC3339", s)
		}
	}
	if td.HasArg("advance") {
		d, err := time.ParseDuration(ddArg(t, td, "advance"))
		if err != nil {
			td.Fatalf(t, "clock advance: %v", err)
		}
		c.Advance(d)
	}
	now := c.Now()
	return fmt.Sprintf("now: %d (%s)", now.UnixMicro(), now.UTC().Format(time.RFC3339Nano))
}

func (env *ddEnv) cmdCreateTable(t *testing.T, td *datadriven.TestData) string {
	var spec TableSpec
	for _, line := range ddLines(td.Input) {
		f, _, err := ddParseFamilyLine(line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		spec.Families = append(spec.Families, f)
	}
	if td.HasArg("granularity") {
		switch g := ddArg(t, td, "granularity"); g {
		case "millis":
			spec.Granularity = Millis
		case "micros":
			spec.Granularity = Micros
		default:
			td.Fatalf(t, "unknown granularity %q", g)
		}
	}
	if arg, ok := td.Arg("splits"); ok {
		for _, v := range arg.Vals {
			k, err := ddParseBytesAll(v)
			if err != nil {
				td.Fatalf(t, "splits: %v", err)
			}
			spec.InitialSplits = append(spec.InitialSplits, k)
		}
	}
	spec.DeletionProtection = td.HasArg("protected")
	tbl, err := env.engine().CreateTable(context.Background(), ddInstance(td), ddArg(t, td, "name"), spec)
	if err != nil {
		return ddError(err)
	}
	return ddDescribeTable(tbl)
}

func (env *ddEnv) cmdModifyFamilies(t *testing.T, td *datadriven.TestData) string {
	var mods []FamilyModification
	for _, line := range ddLines(td.Input) {
		op, rest, _ := strings.Cut(line, " ")
		var m FamilyModification
		switch op {
		case "create", "update":
			f, checkAgg, err := ddParseFamilyLine(rest)
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			m = FamilyModification{Op: CreateFamily, Family: f}
			if op == "update" {
				m.Op, m.CheckAggregate = UpdateFamily, checkAgg
			}
		case "drop":
			m = FamilyModification{Op: DropFamily, Family: Family{Name: strings.TrimSpace(rest)}}
		default:
			td.Fatalf(t, "unknown family modification %q", line)
		}
		mods = append(mods, m)
	}
	tbl, err := env.engine().ModifyFamilies(context.Background(), ddInstance(td), ddArg(t, td, "table"), mods)
	if err != nil {
		return ddError(err)
	}
	return ddDescribeTable(tbl)
}

func (env *ddEnv) cmdAlter(t *testing.T, td *datadriven.TestData) string {
	var protect bool
	switch v := ddArg(t, td, "protected"); v {
	case "on":
		protect = true
	case "off":
	default:
		td.Fatalf(t, "protected=%s: want on or off", v)
	}
	view := ""
	if td.HasArg("view") {
		view = ddArg(t, td, "view")
	}
	tbl, err := env.engine().AlterTable(context.Background(), ddInstance(td), ddArg(t, td, "table"), func(tbl *Table) error {
		if view == "" {
			tbl.DeletionProtection = protect
			return nil
		}
		for i := range tbl.Views {
			if tbl.Views[i].Name == view {
				tbl.Views[i].DeletionProtection = protect
				return nil
			}
		}
		return fmt.Errorf("%w: authorized view %q", ErrNotFound, view)
	})
	if err != nil {
		return ddError(err)
	}
	return ddDescribeTable(tbl)
}

func (env *ddEnv) cmdCreateView(t *testing.T, td *datadriven.TestData) string {
	v := AuthorizedView{
		Name:               ddArg(t, td, "name"),
		FamilySubsets:      map[string]FamilySubset{},
		DeletionProtection: td.HasArg("protected"),
	}
	for _, line := range ddLines(td.Input) {
		kind, rest, _ := strings.Cut(line, " ")
		words, err := ddParseWords(rest)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		switch kind {
		case "rows":
			for _, w := range words {
				v.RowPrefixes = append(v.RowPrefixes, w.b)
			}
		case "family":
			if len(words) == 0 {
				td.Fatalf(t, "%s: missing family", line)
			}
			var s FamilySubset
			for _, w := range words[1:] {
				if w.star {
					s.QualifierPrefixes = append(s.QualifierPrefixes, w.b)
				} else {
					s.Qualifiers = append(s.Qualifiers, w.b)
				}
			}
			if len(words) == 1 {
				s.QualifierPrefixes = [][]byte{{}}
			}
			v.FamilySubsets[string(words[0].b)] = s
		default:
			td.Fatalf(t, "unknown view line %q", line)
		}
	}
	tbl, err := env.engine().AlterTable(context.Background(), ddInstance(td), ddArg(t, td, "table"), func(tbl *Table) error {
		if tbl.View(v.Name) != nil {
			return fmt.Errorf("%w: authorized view %q", ErrAlreadyExists, v.Name)
		}
		tbl.Views = append(tbl.Views, v)
		return nil
	})
	if err != nil {
		return ddError(err)
	}
	return ddDescribeTable(tbl)
}

func (env *ddEnv) cmdMutateRows(t *testing.T, td *datadriven.TestData) string {
	var entries []RowMutations
	for _, line := range ddLines(td.Input) {
		if rest, ok := strings.CutPrefix(line, "row "); ok {
			k, err := ddParseBytesAll(strings.TrimSpace(rest))
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			entries = append(entries, RowMutations{Key: k})
			continue
		}
		if len(entries) == 0 {
			td.Fatalf(t, "mutation %q before the first row line", line)
		}
		last := &entries[len(entries)-1]
		last.Mutations = append(last.Mutations, ddParseMutations(t, td, []string{line})...)
	}
	errs, err := env.engine().MutateRows(context.Background(), ddTarget(t, td), entries)
	if err != nil {
		return ddError(err)
	}
	var b strings.Builder
	for i, err := range errs {
		fmt.Fprintf(&b, "%d: %s\n", i, ddResult(err))
	}
	return b.String()
}

func (env *ddEnv) cmdRead(t *testing.T, td *datadriven.TestData) string {
	var opts ReadOptions
	opts.Reversed = td.HasArg("reversed")
	opts.KeysOnly = td.HasArg("keys-only")
	opts.KeepEmptyRows = td.HasArg("keep-empty")
	if td.HasArg("limit") {
		td.ScanArgs(t, "limit", &opts.Limit)
	}
	if td.HasArg("families") {
		td.ScanArgs(t, "families", &opts.Families)
	}
	opts.LatestOnly = td.HasArg("latest-only")
	if td.HasArg("qualifiers") { // qualifiers=(fam:q1:q2,fam2:q3)
		var specs []string
		td.ScanArgs(t, "qualifiers", &specs)
		opts.Qualifiers = map[string][][]byte{}
		for _, s := range specs {
			parts := strings.Split(s, ":")
			for _, q := range parts[1:] {
				opts.Qualifiers[parts[0]] = append(opts.Qualifiers[parts[0]], []byte(q))
			}
		}
	}
	filterText := ""
	if td.HasArg("filter") {
		filterText = ddArg(t, td, "filter")
	}
	for _, line := range ddLines(td.Input) {
		kind, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch kind {
		case "key", "keys":
			words, err := ddParseWords(rest)
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			for _, w := range words {
				opts.Rows.Keys = append(opts.Rows.Keys, w.b)
			}
		case "range":
			r, err := ddParseRowRange(rest)
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			opts.Rows.Ranges = append(opts.Rows.Ranges, r)
		case "prefix":
			p, err := ddParseBytesAll(rest)
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			opts.Rows.Ranges = append(opts.Rows.Ranges, PrefixRange(p))
		case "filter":
			filterText = rest
		default:
			td.Fatalf(t, "unknown read line %q", line)
		}
	}
	if filterText != "" {
		f, err := ParseFilter(filterText)
		if err != nil {
			td.Fatalf(t, "filter %s: %v", filterText, err)
		}
		opts.Filter = f
	}
	it, err := env.engine().ReadRows(context.Background(), ddTarget(t, td), opts)
	if err != nil {
		return ddError(err)
	}
	var b strings.Builder
	n := 0
	for row := it.Next(); row != nil; row = it.Next() {
		n++
		b.WriteString(ddQuote(row.Key))
		b.WriteByte('\n')
		for _, c := range row.Cells {
			fmt.Fprintf(&b, "  %s\n", ddCell(c))
		}
	}
	if err := it.Err(); err != nil {
		fmt.Fprintf(&b, "%s\n", ddError(err))
	} else if n == 0 {
		b.WriteString("(no rows)\n")
	}
	if td.HasArg("stats") {
		s := it.Stats()
		fmt.Fprintf(&b, "stats: rows-scanned=%d cells-scanned=%d rows-returned=%d cells-returned=%d\n",
			s.RowsScanned, s.CellsScanned, s.RowsReturned, s.CellsReturned)
	}
	if err := it.Close(); err != nil {
		td.Fatalf(t, "close: %v", err)
	}
	return b.String()
}

func (env *ddEnv) cmdCheckAndMutate(t *testing.T, td *datadriven.TestData) string {
	var pred Filter
	var trueMuts, falseMuts []Mutation
	for _, line := range ddLines(td.Input) {
		switch {
		case strings.HasPrefix(line, "predicate "):
			f, err := ParseFilter(strings.TrimPrefix(line, "predicate "))
			if err != nil {
				td.Fatalf(t, "%s: %v", line, err)
			}
			pred = f
		case strings.HasPrefix(line, "true:"):
			trueMuts = append(trueMuts, ddParseMutations(t, td, []string{strings.TrimSpace(line[len("true:"):])})...)
		case strings.HasPrefix(line, "false:"):
			falseMuts = append(falseMuts, ddParseMutations(t, td, []string{strings.TrimSpace(line[len("false:"):])})...)
		default:
			td.Fatalf(t, "unknown check-and-mutate line %q", line)
		}
	}
	matched, err := env.engine().CheckAndMutateRow(context.Background(), ddTarget(t, td), ddArgBytes(t, td, "row"), pred, trueMuts, falseMuts)
	if err != nil {
		return ddError(err)
	}
	return fmt.Sprintf("matched=%t", matched)
}

func (env *ddEnv) cmdReadModifyWrite(t *testing.T, td *datadriven.TestData) string {
	var rules []ReadModifyWriteRule
	for _, line := range ddLines(td.Input) {
		kind, rest, _ := strings.Cut(line, " ")
		fam, qual, rest, err := ddParseColumn(strings.TrimSpace(rest))
		if err == nil && !strings.HasPrefix(rest, "=") {
			err = fmt.Errorf("missing =")
		}
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		rest = rest[1:]
		rule := ReadModifyWriteRule{Family: fam, Qualifier: qual}
		switch kind {
		case "append":
			rule.Append, err = ddParseBytesAll(rest)
		case "increment":
			rule.IsIncrement = true
			rule.Increment, err = strconv.ParseInt(rest, 10, 64)
		default:
			err = fmt.Errorf("unknown rule %q", kind)
		}
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		rules = append(rules, rule)
	}
	row, err := env.engine().ReadModifyWriteRow(context.Background(), ddTarget(t, td), ddArgBytes(t, td, "row"), rules)
	if err != nil {
		return ddError(err)
	}
	var b strings.Builder
	for _, c := range row.Cells {
		fmt.Fprintf(&b, "%s\n", ddCell(c))
	}
	return b.String()
}
