package planner

import (
	"slices"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// Derive splits a scan predicate into the key set it restricts the scan to
// and the residual that must still be evaluated (spec §4.9). keyCol is the
// row column holding `_key`; with a row-key schema, key field i is
// column keyCol+1+i (catalog C1). A top-level conjunct is dropped from the
// residual only when its key set is exact: the keys in the set are exactly
// the ones for which the conjunct is TRUE. Predicates on key fields are
// exact only when they pin every field (their spans are otherwise a
// superset, and the rows they read must decode).
func Derive(pred sql.Expr, keyCol int, schema *rowkeyschema.Schema) (KeySet, sql.Expr) {
	if pred == nil {
		return AllKeys{}, nil
	}
	conj := []sql.Expr{pred}
	if a, ok := pred.(*sql.And); ok {
		conj = a.Args
	}
	var sets []KeySet
	var pinned []sql.Expr // conjuncts an exact key-field set already enforces
	if schema != nil {
		kf, exact := deriveKeyFields(conj, schema, keyCol+1)
		if kf != (AllKeys{}) {
			sets = append(sets, kf)
		}
		pinned = exact
	}
	var residual []sql.Expr
	for _, c := range conj {
		if slices.Contains(pinned, c) {
			continue
		}
		ks, exact := derive(c, keyCol)
		if _, all := ks.(AllKeys); !all {
			sets = append(sets, ks)
		}
		if !exact {
			residual = append(residual, c)
		}
	}
	var ks KeySet = AllKeys{}
	switch len(sets) {
	case 0:
	case 1:
		ks = sets[0]
	default:
		ks = &KeyAnd{Sets: sets}
	}
	switch len(residual) {
	case 0:
		return ks, nil
	case 1:
		return ks, residual[0]
	}
	return ks, &sql.And{Args: residual}
}

// derive returns the key set of one predicate and whether it is exact.
func derive(e sql.Expr, keyCol int) (KeySet, bool) {
	switch e := e.(type) {
	case *sql.And:
		var sets []KeySet
		exact := true
		for _, a := range e.Args {
			ks, ex := derive(a, keyCol)
			exact = exact && ex
			if _, all := ks.(AllKeys); !all {
				sets = append(sets, ks)
			}
		}
		if len(sets) == 0 {
			return AllKeys{}, false
		}
		if len(sets) == 1 {
			return sets[0], exact
		}
		return &KeyAnd{Sets: sets}, exact
	case *sql.Or:
		sets := make([]KeySet, 0, len(e.Args))
		exact := true
		for _, a := range e.Args {
			ks, ex := derive(a, keyCol)
			if _, all := ks.(AllKeys); all {
				return AllKeys{}, false
			}
			sets, exact = append(sets, ks), exact && ex
		}
		return &KeyOr{Sets: sets}, exact
	case *sql.Call:
		return deriveCall(e, keyCol)
	case *sql.In:
		if e.Neg || !isKey(e.X, keyCol) {
			return AllKeys{}, false
		}
		for _, v := range e.List {
			if !sql.IsConstant(v) {
				return AllKeys{}, false
			}
		}
		return &KeyPoints{Values: e.List}, true
	case *sql.InArray:
		if e.Neg || !isKey(e.X, keyCol) || !sql.IsConstant(e.Array) {
			return AllKeys{}, false
		}
		return &KeyArray{Array: e.Array}, true
	}
	return AllKeys{}, false
}

func isKey(e sql.Expr, keyCol int) bool {
	c, ok := e.(*sql.ColRef)
	return ok && c.Idx == keyCol && c.T.Kind == types.KindBytes
}

var flipped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func deriveCall(e *sql.Call, keyCol int) (KeySet, bool) {
	if len(e.Args) != 2 {
		return AllKeys{}, false
	}
	op, l, r := e.Fn.Name, e.Args[0], e.Args[1]
	if f, ok := flipped[op]; ok && !isKey(l, keyCol) && isKey(r, keyCol) {
		op, l, r = f, r, l
	}
	if !isKey(l, keyCol) || !sql.IsConstant(r) {
		return AllKeys{}, false
	}
	switch op {
	case "=":
		return &KeyPoints{Values: []sql.Expr{r}}, true
	case "<":
		return &KeyRange{Hi: r}, true
	case "<=":
		return &KeyRange{Hi: r, HiIncl: true}, true
	case ">":
		return &KeyRange{Lo: r}, true
	case ">=":
		return &KeyRange{Lo: r, LoIncl: true}, true
	case "STARTS_WITH":
		return &KeyPrefix{Prefix: r}, true
	case "LIKE":
		c, ok := r.(*sql.Const)
		if !ok {
			return &KeyPrefix{Prefix: r, Like: true}, false
		}
		if c.V.IsNull() {
			return AllKeys{}, false
		}
		p, exact := sql.LikePrefix(c.V.Bytes())
		if len(p) == 0 {
			return AllKeys{}, false
		}
		return &KeyPrefix{Prefix: sql.NewConst(types.BytesValue(p))}, exact
	}
	return AllKeys{}, false
}
