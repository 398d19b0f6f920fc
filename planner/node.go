package planner

import (
	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// Node is a plan node; a sealed sum type.
type Node interface {
	Children() []Node
	planNode()
}

// Plan is a planned statement.
type Plan struct {
	Root    Node
	Columns []types.Field
	Params  map[string]*types.Type
	Explain bool
	Analyze bool
}

// FamilyRead is one family a scan reads into row column Col.
type FamilyRead struct {
	Family catalog.Family
	Col    int
	// Qualifiers, when non-nil, are the only qualifiers read (sorted,
	// unique); nil reads the whole family.
	Qualifiers [][]byte
	// CellCols, when set, reads the family as cells rather than a MAP:
	// the newest cell of Qualifiers[i] goes to row column CellCols[i]
	// (NULL when absent) and column Col stays NULL (directCells).
	CellCols []int
	// Transient[i] marks a cell column read only to extract protobuf
	// fields from (markTransient): the scan does not keep its bytes.
	Transient []bool
}

// Extract is one protobuf field a scan decodes from its group's cell
// column (ExtractGroup.In) into column Col; a message that does not parse
// leaves Col unset, and the sql.Precomputed reading it falls back to Get
// (which reports the error).
type Extract struct {
	Get *sql.ProtoGet
	Col int
}

// ExtractGroup is the Extracts of one cell column In, which the scan
// decodes together in one pass over the cell: Extractor's i-th path is
// Extracts[i].Get.Path. A message that does not parse leaves every
// column of the group unset.
type ExtractGroup struct {
	In        int
	Extracts  []Extract
	Extractor *protoschema.Extractor
	// Transient: column In is a transient cell column (FamilyRead.Transient),
	// so the cell is copied when its message does not parse.
	Transient bool
}

// Scan reads rows of a table.
type Scan struct {
	Table *catalog.Table
	// Width is the row width: `_key`, the key fields, one column per
	// family (catalog C1), then the cell columns of FamilyRead.CellCols.
	Width   int
	NeedKey bool
	// DecodeKey: the query reads key fields, so each row's key is decoded
	// with Table.KeySchema, and a key that does not decode fails the
	// query (spec §5.5).
	DecodeKey bool
	Reads     []FamilyRead
	// Protos are the protobuf field paths the query reads, per cell and
	// message (EXPLAIN).
	Protos []ProtoRead
	// ExtractGroups are the protobuf fields the scan decodes into columns
	// of their own as it builds each row (extractField), by cell column.
	ExtractGroups []ExtractGroup
	// KeyOnError: `_key` is read only to name the row when an extracted
	// field fails to decode, so the scan copies it only then.
	KeyOnError bool
	History    bool
	// Temporal bounds, constant expressions or nil (spec §4.3).
	AsOf, After, AfterOrEqual, Before, BeforeOrEqual, LatestN sql.Expr
	Keys                                                      KeySet
	Residual                                                  sql.Expr
	// Limit and Offset, when Limit is set, stop the scan after
	// Limit+Offset rows (pushed down).
	Limit, Offset sql.Expr
	Reverse       bool
}

// Values produces one row with no columns.
type Values struct{}

// Filter passes rows for which Pred is TRUE.
type Filter struct {
	Input Node
	Pred  sql.Expr
}

// Project computes Exprs over each input row.
type Project struct {
	Input Node
	Exprs []sql.Expr
	// Names name the output columns (EXPLAIN).
	Names []string
}

// Aggregate groups rows by GroupBy (hash aggregation) and computes Aggs;
// its row is [GroupBy..., Aggs...]. With no GroupBy it yields one row.
type Aggregate struct {
	Input   Node
	GroupBy []sql.Expr
	Aggs    []*sql.AggCall
}

// Distinct drops duplicate rows (SELECT DISTINCT; NULLs equal), passing
// the first of each in input order.
type Distinct struct {
	Input Node
}

// Sort orders rows; with Limit set it keeps only the first Limit+Offset
// (top-N).
type Sort struct {
	Input         Node
	Keys          []sql.OrderItem
	Limit, Offset sql.Expr
}

// Limit skips Offset rows then passes at most Count.
type Limit struct {
	Input         Node
	Count, Offset sql.Expr
}

// Unnest appends each element of Array (and its offset) to its input row,
// one output row per element.
type Unnest struct {
	Input      Node
	Array      sql.Expr
	WithOffset bool
}

// Unpack expands each input row into one row per distinct cell timestamp
// (spec §4.4); its row is the input columns transformed by Kinds, then
// `_timestamp`.
type Unpack struct {
	Input Node
	Kinds []sql.UnpackKind
}

func (n *Scan) Children() []Node      { return nil }
func (n *Values) Children() []Node    { return nil }
func (n *Filter) Children() []Node    { return []Node{n.Input} }
func (n *Project) Children() []Node   { return []Node{n.Input} }
func (n *Aggregate) Children() []Node { return []Node{n.Input} }
func (n *Distinct) Children() []Node  { return []Node{n.Input} }
func (n *Sort) Children() []Node      { return []Node{n.Input} }
func (n *Limit) Children() []Node     { return []Node{n.Input} }
func (n *Unnest) Children() []Node    { return []Node{n.Input} }
func (n *Unpack) Children() []Node    { return []Node{n.Input} }

// Input returns n's input: Children()[0], or nil for a leaf (Scan,
// Values). Unlike Children it does not allocate, for code that walks a
// plan on every execution (exec.Build).
func Input(n Node) Node {
	switch n := n.(type) {
	case *Filter:
		return n.Input
	case *Project:
		return n.Input
	case *Aggregate:
		return n.Input
	case *Distinct:
		return n.Input
	case *Sort:
		return n.Input
	case *Limit:
		return n.Input
	case *Unnest:
		return n.Input
	case *Unpack:
		return n.Input
	}
	return nil
}

func (*Scan) planNode()      {}
func (*Values) planNode()    {}
func (*Filter) planNode()    {}
func (*Project) planNode()   {}
func (*Aggregate) planNode() {}
func (*Distinct) planNode()  {}
func (*Sort) planNode()      {}
func (*Limit) planNode()     {}
func (*Unnest) planNode()    {}
func (*Unpack) planNode()    {}
