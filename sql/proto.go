package sql

import (
	"errors"
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// ProtoGet reads a protobuf message held in BYTES (spec §6): with an
// empty Path it is CAST(X AS bundle.pkg.Msg), the whole message
// validated; with a Path it is CAST(X AS Msg).a.b, only that path
// decoded (protoschema.ExtractPath). X is BYTES or PROTO. Safe
// (SAFE_CAST) yields NULL for bytes that do not parse; otherwise the
// error names the row key read through Key (nil outside a table scope).
type ProtoGet struct {
	X    Expr
	Msg  *protoschema.Message
	Path protoschema.Path
	Safe bool
	Key  Expr
	Pos  int
}

func (*ProtoGet) exprNode() {}

// Type is PROTO<bundle.pkg.Msg> for the whole message, else the type of
// the path's field.
func (e *ProtoGet) Type() *types.Type {
	if len(e.Path) == 0 {
		return e.Msg.Type()
	}
	return e.Path.Type()
}

func (e *ProtoGet) String() string {
	fn := "CAST"
	if e.Safe {
		fn = "SAFE_CAST"
	}
	s := fn + "(" + e.X.String() + " AS " + e.Msg.Type().Name + ")"
	if len(e.Path) > 0 {
		s += "." + e.Path.String()
	}
	return s
}

func (e *ProtoGet) children() []Expr {
	if e.Key != nil {
		return []Expr{e.X, e.Key}
	}
	return []Expr{e.X}
}

func (e *ProtoGet) rebuild(k []Expr) Expr {
	c := *e
	c.X = k[0]
	if len(k) > 1 {
		c.Key = k[1]
	}
	return &c
}

func (e *ProtoGet) equal(o Expr) bool {
	y, ok := o.(*ProtoGet)
	if !ok || e.Msg != y.Msg || e.Safe != y.Safe || len(e.Path) != len(y.Path) {
		return false
	}
	for i := range e.Path {
		if e.Path[i] != y.Path[i] {
			return false
		}
	}
	return true
}

func evalProto(e *ProtoGet, env *Env) (types.Value, error) {
	x, err := Eval(e.X, env)
	if err != nil || x.IsNull() {
		return types.NullOf(e.Type()), err
	}
	var v types.Value
	if len(e.Path) == 0 {
		err = protoschema.Validate(e.Msg, x.Bytes())
		v = types.ProtoValue(e.Msg.Type(), x.Bytes())
	} else {
		v, err = protoschema.ExtractPath(x.Bytes(), e.Path)
	}
	if err == nil {
		return v, nil
	}
	if e.Safe {
		return types.NullOf(e.Type()), nil
	}
	row := ""
	if e.Key != nil {
		if k, kerr := Eval(e.Key, env); kerr == nil && !k.IsNull() {
			row = " in row " + k.String()
		}
	}
	return types.Value{}, at(sqlerr.New(sqlerr.InvalidValue, "cannot read %s as %s%s: %v",
		e.X, e.Msg.Type().Name, row, err), e.Pos)
}

// bindProtoCast binds CAST(x AS bundle.pkg.Msg) against the bundles of
// the tables in FROM.
func (b *binder) bindProtoCast(n *ast.CastExpr, t *ast.NamedType, x Expr, ec *exprCtx) (Expr, error) {
	if k := x.Type().Kind; k != types.KindBytes && k != types.KindProto {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "invalid cast from %s to %s: a message is read from BYTES",
			x.Type(), b.source(t))
	}
	names := make([]string, len(t.Path))
	for i, id := range t.Path {
		names[i] = id.Name
	}
	msg, err := b.protoMessage(names[0], strings.Join(names[1:], "."))
	if err != nil {
		return nil, b.errAt(t, sqlerr.UndefinedColumn, "%v", err)
	}
	return &ProtoGet{X: x, Msg: msg, Safe: n.Safe, Key: b.keyRef(ec), Pos: int(n.Pos())}, nil
}

// protoMessage resolves bundle.msgName on the tables of the query.
func (b *binder) protoMessage(bundle, msgName string) (*protoschema.Message, error) {
	if len(b.tables) == 0 {
		return nil, errors.New("a message type needs a table with schema bundles in FROM")
	}
	var firstErr error
	for _, t := range b.tables {
		bd, err := t.Bundle(bundle)
		if err != nil {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		if msgName == "" {
			return nil, errors.New("CAST needs bundle.package.Message, got the bundle " + bundle + " alone")
		}
		return bd.Message(msgName)
	}
	return nil, firstErr
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// keyRef is a reference to the row key of the current table scope, if
// any, so run-time proto errors can name the row.
func (b *binder) keyRef(ec *exprCtx) Expr {
	if ec == nil || ec.scope == nil {
		return nil
	}
	if i, ok := ec.scope.find(catalog.KeyColumn, nil); ok && ec.scope.cols[i].t.Kind == types.KindBytes {
		return &ColRef{Idx: i, Name: catalog.KeyColumn, T: types.Bytes, Pos: -1}
	}
	return nil
}

// protoField binds x.name on a PROTO value.
func (b *binder) protoField(e Expr, id *ast.Ident) (Expr, error) {
	var msg *protoschema.Message
	g, isGet := e.(*ProtoGet)
	switch {
	case isGet && len(g.Path) == 0:
		msg = g.Msg
	case isGet:
		msg = g.Path[len(g.Path)-1].Message()
	default:
		name := e.Type().Name
		bundle, rest, _ := strings.Cut(name, ".")
		m, err := b.protoMessage(bundle, rest)
		if err != nil {
			return nil, b.errAt(id, sqlerr.UndefinedColumn, "%v", err)
		}
		msg, g = m, &ProtoGet{X: e, Msg: m, Pos: int(id.Pos())}
	}
	if msg == nil {
		return nil, b.errAt(id, sqlerr.Internal, "no message type for %s", e.Type())
	}
	f, err := msg.Field(id.Name)
	if err != nil {
		return nil, b.errAt(id, sqlerr.UndefinedColumn, "%v", err)
	}
	c := *g
	c.Path = append(append(protoschema.Path(nil), g.Path...), f)
	return &c, nil
}
