package sql

import (
	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/sql/types"
)

// Precomputed is X computed ahead of time by the operator that produced
// the row: column Col holds its value. The planner uses it for protobuf
// fields that the scan extracts while it builds each row (planner
// Scan.Extracts), so a field is decoded once, next to the cell, and the
// expressions above read a column. A column left as the zero Value (the
// producer could not compute it: the message does not parse) falls back
// to evaluating X, which reports the error (or, for SAFE_CAST, NULL)
// exactly as X would.
type Precomputed struct {
	Col int
	X   Expr
}

func (*Precomputed) exprNode()           {}
func (e *Precomputed) Type() *types.Type { return e.X.Type() }
func (e *Precomputed) String() string    { return e.X.String() }

func evalPrecomputed(e *Precomputed, env *Env) (types.Value, error) {
	if v := env.Row[e.Col]; v.Type() != nil {
		return v, nil
	}
	return Eval(e.X, env)
}

// Extract decodes the path of e out of wire bytes b (the value of e.X),
// without e's error handling: the caller falls back to Eval on error.
// e must have a non-empty Path.
func (e *ProtoGet) Extract(b []byte) (types.Value, error) {
	return protoschema.ExtractPath(b, e.Path)
}
