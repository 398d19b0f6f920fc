package planner

import (
	"strings"

	"github.com/shale-db/shale/sql"
)

// KeySet describes the row keys a scan reads, as a tree over constant
// expressions (resolved per execution by Resolve). A sealed sum type.
type KeySet interface {
	String() string
	keySet()
}

// AllKeys is the whole table. (KeyFields, for row-key schemas, is in
// keyfields.go.)
type AllKeys struct{}

// KeyPoints are individual keys (=, IN list).
type KeyPoints struct{ Values []sql.Expr }

// KeyArray is every element of an array (IN UNNEST(@arr)).
type KeyArray struct{ Array sql.Expr }

// KeyRange is a range; a nil bound is unbounded.
type KeyRange struct {
	Lo, Hi         sql.Expr
	LoIncl, HiIncl bool
}

// KeyPrefix is the keys starting with Prefix. With Like set, Prefix is a
// LIKE pattern whose literal prefix is used.
type KeyPrefix struct {
	Prefix sql.Expr
	Like   bool
}

// KeyAnd intersects its sets.
type KeyAnd struct{ Sets []KeySet }

// KeyOr unions its sets.
type KeyOr struct{ Sets []KeySet }

func (AllKeys) keySet()    {}
func (*KeyPoints) keySet() {}
func (*KeyArray) keySet()  {}
func (*KeyRange) keySet()  {}
func (*KeyPrefix) keySet() {}
func (*KeyAnd) keySet()    {}
func (*KeyOr) keySet()     {}

func (AllKeys) String() string { return "FULL" }

func (k *KeyPoints) String() string {
	s := make([]string, len(k.Values))
	for i, v := range k.Values {
		s[i] = "{" + v.String() + "}"
	}
	return strings.Join(s, ", ")
}

func (k *KeyArray) String() string { return "{UNNEST(" + k.Array.String() + ")}" }

func (k *KeyRange) String() string {
	lo, hi := "(", ")"
	if k.LoIncl {
		lo = "["
	}
	if k.HiIncl {
		hi = "]"
	}
	l, h := "", ""
	if k.Lo != nil {
		l = k.Lo.String()
	}
	if k.Hi != nil {
		h = k.Hi.String()
	}
	return lo + l + ", " + h + hi
}

func (k *KeyPrefix) String() string {
	if k.Like {
		return "prefix(LIKE " + k.Prefix.String() + ")"
	}
	return "prefix(" + k.Prefix.String() + ")"
}

func (k *KeyAnd) String() string { return joinSets(k.Sets, " ∩ ") }
func (k *KeyOr) String() string  { return joinSets(k.Sets, " ∪ ") }

func joinSets(sets []KeySet, sep string) string {
	s := make([]string, len(sets))
	for i, x := range sets {
		s[i] = x.String()
		if _, ok := x.(*KeyPoints); ok && len(sets) > 1 {
			s[i] = "(" + s[i] + ")"
		}
	}
	return "(" + strings.Join(s, sep) + ")"
}

// IsConstant reports whether every leaf of k is a constant (no
// parameter), so its spans are known at plan time.
func IsConstant(k KeySet) bool {
	ok := true
	walkLeaves(k, func(e sql.Expr) {
		sql.Walk(e, func(x sql.Expr) bool {
			if _, isParam := x.(*sql.Param); isParam {
				ok = false
			}
			return ok
		})
	})
	return ok
}

func walkLeaves(k KeySet, fn func(sql.Expr)) {
	switch k := k.(type) {
	case *KeyPoints:
		for _, v := range k.Values {
			fn(v)
		}
	case *KeyArray:
		fn(k.Array)
	case *KeyRange:
		if k.Lo != nil {
			fn(k.Lo)
		}
		if k.Hi != nil {
			fn(k.Hi)
		}
	case *KeyPrefix:
		fn(k.Prefix)
	case *KeyFields:
		for _, alts := range k.Eq {
			for _, a := range alts {
				fn(a)
			}
		}
		if k.Lo != nil {
			fn(k.Lo)
		}
		if k.Hi != nil {
			fn(k.Hi)
		}
	case *KeyAnd:
		for _, s := range k.Sets {
			walkLeaves(s, fn)
		}
	case *KeyOr:
		for _, s := range k.Sets {
			walkLeaves(s, fn)
		}
	}
}
