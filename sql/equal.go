package sql

import (
	"github.com/shale-db/shale/sql/types"
)

// Equal reports whether two bound expressions are the same computation
// (GROUP BY matching, ORDER BY reuse of select items).
func Equal(a, b Expr) bool {
	if !sameNode(a, b) {
		return false
	}
	ka, kb := Children(a), Children(b)
	if len(ka) != len(kb) {
		return false
	}
	for i := range ka {
		if !Equal(ka[i], kb[i]) {
			return false
		}
	}
	return true
}

func sameNode(a, b Expr) bool {
	switch x := a.(type) {
	case *Const:
		y, ok := b.(*Const)
		return ok && x.T.Equal(y.T) && types.Compare(x.V, y.V) == 0 && x.V.IsNull() == y.V.IsNull()
	case *Param:
		y, ok := b.(*Param)
		return ok && x.Name == y.Name
	case *ColRef:
		y, ok := b.(*ColRef)
		return ok && x.Idx == y.Idx
	case *Call:
		y, ok := b.(*Call)
		return ok && x.Fn == y.Fn && x.Ov == y.Ov && x.Safe == y.Safe
	case *ProtoGet:
		return x.equal(b)
	case *Precomputed:
		y, ok := b.(*Precomputed)
		return ok && x.Col == y.Col
	case *Cast:
		y, ok := b.(*Cast)
		return ok && x.T.Equal(y.T) && x.Safe == y.Safe
	case *Index:
		y, ok := b.(*Index)
		return ok && x.Mode == y.Mode
	case *Field:
		y, ok := b.(*Field)
		return ok && x.Idx == y.Idx
	case *IsNull:
		y, ok := b.(*IsNull)
		return ok && x.Neg == y.Neg
	case *IsBool:
		y, ok := b.(*IsBool)
		return ok && x.Neg == y.Neg && x.Val == y.Val
	case *In:
		y, ok := b.(*In)
		return ok && x.Neg == y.Neg
	case *InArray:
		y, ok := b.(*InArray)
		return ok && x.Neg == y.Neg
	case *Case:
		y, ok := b.(*Case)
		return ok && len(x.Whens) == len(y.Whens) && (x.Else == nil) == (y.Else == nil)
	case *aggMarker:
		y, ok := b.(*aggMarker)
		return ok && x.I == y.I
	case *Lambda:
		y, ok := b.(*Lambda)
		return ok && x.Mode == y.Mode && x.Slot == y.Slot && len(x.Params) == len(y.Params)
	case *LambdaVar:
		y, ok := b.(*LambdaVar)
		return ok && x.Slot == y.Slot
	}
	return sameType(a, b)
}

func sameType(a, b Expr) bool {
	switch a.(type) {
	case *And:
		_, ok := b.(*And)
		return ok
	case *Or:
		_, ok := b.(*Or)
		return ok
	case *Not:
		_, ok := b.(*Not)
		return ok
	case *Coalesce:
		_, ok := b.(*Coalesce)
		return ok
	case *MapGet:
		_, ok := b.(*MapGet)
		return ok
	case *MakeArray:
		_, ok := b.(*MakeArray)
		return ok
	case *MakeStruct:
		_, ok := b.(*MakeStruct)
		return ok
	}
	return false
}
