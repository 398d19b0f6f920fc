package sql

import (
	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
)

// Limits on a statement's size and shape [I]. memefish parses nested
// parentheses in time quadratic in their depth (10,000 levels take 0.6 s,
// 50,000 take 14 s), and the binder and planner walk deep expression chains
// (a thousand ORs) in quadratic time too; without a bound one statement of
// a few hundred kilobytes would hold a core for minutes. Both checks run
// before the work they guard, and cost nothing for ordinary statements.
const (
	// MaxQueryBytes is the longest statement accepted: 1 MiB, the limit
	// BigQuery puts on a GoogleSQL query.
	MaxQueryBytes = 1 << 20
	// MaxBracketDepth bounds how deeply brackets — ( [ { — nest. A
	// megabyte of parentheses this deep parses in about two seconds.
	MaxBracketDepth = 250
	// MaxNesting bounds how deeply expressions nest: a chain of ORs is as
	// deep as it is long, so the bound is higher than the brackets'.
	MaxNesting = 1000
)

// checkSize refuses a statement longer than MaxQueryBytes or whose brackets
// nest deeper than MaxBracketDepth, before memefish parses it.
func checkSize(text string) error {
	if len(text) > MaxQueryBytes {
		return sqlerr.New(sqlerr.TooComplex, "the statement is %d bytes long; the limit is %d", len(text), MaxQueryBytes)
	}
	// Brackets can only nest as deep as there are opening ones, counted
	// here in comments and literals too; lex only when that bound is over.
	opening := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '(' || c == '[' || c == '{' {
			opening++
		}
	}
	if opening <= MaxBracketDepth {
		return nil
	}
	depth := 0
	for _, t := range lex(text) {
		switch t.Kind {
		case "(", "[", "{":
			if depth++; depth > MaxBracketDepth {
				return sqlerr.At(text, int(t.Pos), sqlerr.TooComplex, "brackets nest more than %d deep", MaxBracketDepth)
			}
		case ")", "]", "}":
			depth--
		}
	}
	return nil
}

// checkDepth refuses a parsed query whose expressions nest deeper than
// MaxNesting (a chain of a thousand ORs, or of unary minus signs), before
// the binder walks it. The walk is memefish's, which keeps its own stack.
func checkDepth(text string, q ast.Node) error {
	v := &depthVisitor{}
	ast.Walk(q, v)
	if v.deepest != nil {
		return sqlerr.At(text, int(v.deepest.Pos()), sqlerr.TooComplex, "expressions nest more than %d deep", MaxNesting)
	}
	return nil
}

// depthVisitor counts the expressions enclosing a node; the first one past
// MaxNesting ends the walk. An expression takes at least a byte of text
// beyond the expressions inside it, so only a statement longer than
// MaxNesting bytes is walked.
type depthVisitor struct {
	depth   int
	deepest ast.Expr // the expression past MaxNesting, if any
	root    *depthVisitor
}

func (v *depthVisitor) Visit(n ast.Node) ast.Visitor {
	root := v.root
	if root == nil {
		root = v
	}
	if root.deepest != nil {
		return nil
	}
	e, ok := n.(ast.Expr)
	if !ok {
		return v
	}
	if v.depth+1 > MaxNesting {
		root.deepest = e
		return nil
	}
	return &depthVisitor{depth: v.depth + 1, root: root}
}

func (v *depthVisitor) VisitMany([]ast.Node) ast.Visitor { return v }
func (v *depthVisitor) Field(string) ast.Visitor         { return v }
func (v *depthVisitor) Index(int) ast.Visitor            { return v }
