package sql

// Children returns e's direct sub-expressions, in order.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Const, *Param, *ColRef:
		return nil
	case *Call:
		return e.Args
	case *And:
		return e.Args
	case *Or:
		return e.Args
	case *Not:
		return []Expr{e.X}
	case *IsNull:
		return []Expr{e.X}
	case *IsBool:
		return []Expr{e.X}
	case *In:
		return append([]Expr{e.X}, e.List...)
	case *InArray:
		return []Expr{e.X, e.Array}
	case *Case:
		out := make([]Expr, 0, 2*len(e.Whens)+1)
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Then)
		}
		if e.Else != nil {
			out = append(out, e.Else)
		}
		return out
	case *Coalesce:
		return e.Args
	case *Cast:
		return []Expr{e.X}
	case *MapGet:
		return []Expr{e.Map, e.Key}
	case *Index:
		return []Expr{e.Arr, e.Idx}
	case *Field:
		return []Expr{e.X}
	case *MakeArray:
		return e.Elems
	case *MakeStruct:
		return e.Fields
	case *ProtoGet:
		return e.children()
	case *Lambda:
		return []Expr{e.Arr, e.Body}
	case *Precomputed:
		return []Expr{e.X}
	}
	return nil
}

// Rewrite rebuilds e bottom-up: fn is applied to every node after its
// children were rewritten; returning the node unchanged keeps it. Nodes are
// copied, never mutated, so bound IR can be shared.
func Rewrite(e Expr, fn func(Expr) (Expr, error)) (Expr, error) {
	kids := Children(e)
	if len(kids) > 0 {
		nk := make([]Expr, len(kids))
		changed := false
		for i, k := range kids {
			n, err := Rewrite(k, fn)
			if err != nil {
				return nil, err
			}
			nk[i] = n
			changed = changed || n != k
		}
		if changed {
			e = withChildren(e, nk)
		}
	}
	return fn(e)
}

// withChildren returns a copy of e with the given children (same shape as
// Children returns).
func withChildren(e Expr, k []Expr) Expr {
	switch e := e.(type) {
	case *Call:
		c := *e
		c.Args = k
		return &c
	case *And:
		return &And{Args: k}
	case *Or:
		return &Or{Args: k}
	case *Not:
		return &Not{X: k[0]}
	case *IsNull:
		return &IsNull{X: k[0], Neg: e.Neg}
	case *IsBool:
		return &IsBool{X: k[0], Val: e.Val, Neg: e.Neg}
	case *In:
		return &In{X: k[0], List: k[1:], Neg: e.Neg}
	case *InArray:
		return &InArray{X: k[0], Array: k[1], Neg: e.Neg}
	case *Case:
		c := &Case{T: e.T}
		for i := range e.Whens {
			c.Whens = append(c.Whens, When{Cond: k[2*i], Then: k[2*i+1]})
		}
		if e.Else != nil {
			c.Else = k[len(k)-1]
		}
		return c
	case *Coalesce:
		return &Coalesce{Args: k, T: e.T}
	case *Cast:
		return &Cast{X: k[0], T: e.T, Safe: e.Safe, Pos: e.Pos}
	case *MapGet:
		return &MapGet{Map: k[0], Key: k[1]}
	case *Index:
		return &Index{Arr: k[0], Idx: k[1], Mode: e.Mode, Pos: e.Pos}
	case *Field:
		return &Field{X: k[0], Idx: e.Idx, Name: e.Name}
	case *MakeArray:
		return &MakeArray{Elems: k, T: e.T}
	case *MakeStruct:
		return &MakeStruct{Fields: k, T: e.T}
	case *ProtoGet:
		return e.rebuild(k)
	case *Lambda:
		c := *e
		c.Arr, c.Body = k[0], k[1]
		return &c
	case *Precomputed:
		return &Precomputed{Col: e.Col, X: k[0]}
	}
	return e
}

// Walk calls fn on e and its descendants, pre-order; fn returning false
// skips a node's children.
func Walk(e Expr, fn func(Expr) bool) {
	if !fn(e) {
		return
	}
	for _, c := range Children(e) {
		Walk(c, fn)
	}
}
