package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Binding of the date and time syntax that memefish parses specially:
// EXTRACT(part FROM x [AT TIME ZONE tz]), INTERVAL n PART arguments (two
// arguments: the INT64 count and the part as a STRING constant),
// WEEK(<weekday>) part arguments, and CURRENT_DATE / CURRENT_TIMESTAMP
// written without parentheses.

// extractFn is EXTRACT; it is syntax, not a registered function.
var (
	extractFn     = &Function{Name: "EXTRACT"}
	extractDateOv = &Overload{Args: []*types.Type{types.Date, types.String}, Ret: types.Int64, Eval: extractDate}
	extractTSOv   = &Overload{Args: []*types.Type{types.Timestamp, types.String, types.String}, Ret: types.Int64,
		Eval: extractTimestamp}
)

func (b *binder) bindExtract(n *ast.ExtractExpr, ec *exprCtx) (Expr, error) {
	partName := strings.ToUpper(n.Part.Name)
	if real, ok := b.p.parts[int(n.Part.Pos())]; ok {
		partName = real // WEEK(<weekday>): see parsed.parts
	}
	p := parsePart([]byte(partName))
	if p == tpInvalid && strings.HasPrefix(partName, "WEEK(") {
		return nil, b.errAt(n.Part, sqlerr.InvalidArgument,
			"WEEK expects one of SUNDAY, MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY")
	}
	x, err := b.bindExpr(n.Expr, ec)
	if err != nil {
		return nil, err
	}
	if c, ok := x.(*Const); ok && c.Lit && c.V.IsNull() {
		x = &Const{V: types.NullOf(types.Timestamp), T: types.Timestamp}
	}
	args := []Expr{x, &Const{V: types.StringValue(partName), T: types.String}}
	call := &Call{Fn: extractFn, Args: args, T: types.Int64, Pos: int(n.Pos())}
	switch x.Type().Kind {
	case types.KindDate:
		if p == tpInvalid || p < tpDay || p == tpDate {
			return nil, b.errAt(n.Part, sqlerr.InvalidArgument, "EXTRACT from DATE does not support the %s date part", partName)
		}
		if n.AtTimeZone != nil {
			return nil, b.errAt(n.AtTimeZone, sqlerr.InvalidArgument, "EXTRACT from DATE does not support AT TIME ZONE")
		}
		call.Ov = extractDateOv
		return call, nil
	case types.KindTimestamp:
		if p == tpInvalid {
			return nil, b.errAt(n.Part, sqlerr.InvalidArgument, "EXTRACT from TIMESTAMP does not support the %s date part", partName)
		}
	default:
		return nil, b.errAt(n.Expr, sqlerr.TypeMismatch, "EXTRACT expects a DATE or TIMESTAMP, got %s", x.Type())
	}
	call.Ov = extractTSOv
	if p == tpDate {
		call.T = types.Date
	}
	if n.AtTimeZone != nil {
		tz, err := b.bindExpr(n.AtTimeZone.Expr, ec)
		if err != nil {
			return nil, err
		}
		ctz, _, ok := coerce(tz, types.String)
		if !ok {
			return nil, b.errAt(n.AtTimeZone.Expr, sqlerr.TypeMismatch, "AT TIME ZONE expects a STRING, got %s", tz.Type())
		}
		call.Args = append(call.Args, ctz)
	}
	return call, nil
}

// intervalParts lists the parts an INTERVAL argument may have per function;
// functions not listed accept any part (their Eval checks it).
var intervalParts = map[string]map[string]bool{
	"DATE_ADD": datePartSet, "DATE_SUB": datePartSet,
	"TIMESTAMP_ADD": timestampPartSet, "TIMESTAMP_SUB": timestampPartSet,
}

var (
	datePartSet      = map[string]bool{"DAY": true, "WEEK": true, "MONTH": true, "QUARTER": true, "YEAR": true}
	timestampPartSet = map[string]bool{"NANOSECOND": true, "MICROSECOND": true, "MILLISECOND": true,
		"SECOND": true, "MINUTE": true, "HOUR": true, "DAY": true}
)

// bindTimeArg binds the call arguments that are date-time syntax: INTERVAL
// n PART (two arguments) and WEEK(<weekday>) where argument i of the
// function takes a date part. ok is false for any other argument.
func (b *binder) bindTimeArg(fn string, i int, e ast.Expr, ec *exprCtx) (args []Expr, ok bool, err error) {
	switch n := e.(type) {
	case *ast.IntervalLiteralSingle:
		part := string(n.DateTimePart)
		if set := intervalParts[fn]; set != nil && !set[part] {
			return nil, false, b.errAt(n, sqlerr.InvalidArgument, "%s does not support the %s date part", fn, part)
		}
		v, isExpr := n.Value.(ast.Expr)
		if !isExpr {
			return nil, false, b.errAt(n, sqlerr.NotSupported, "this INTERVAL value is not supported")
		}
		x, err := b.bindExpr(v, ec)
		if err != nil {
			return nil, false, err
		}
		cx, _, isInt := coerce(x, types.Int64)
		if !isInt {
			return nil, false, b.errAt(v, sqlerr.TypeMismatch, "INTERVAL expects an INT64 count, got %s", x.Type())
		}
		return []Expr{cx, &Const{V: types.StringValue(part), T: types.String}}, true, nil
	case *ast.IntervalLiteralRange:
		return nil, false, b.errAt(n, sqlerr.NotSupported, "INTERVAL ranges are not supported")
	case *ast.CallExpr:
		if len(n.Func.Idents) != 1 || !strings.EqualFold(n.Func.Idents[0].Name, "WEEK") || !IsKeywordArg(fn, i, "WEEK") {
			return nil, false, nil
		}
		var day string
		if len(n.Args) == 1 {
			if ea, isExpr := n.Args[0].(*ast.ExprArg); isExpr {
				if id, isID := ea.Expr.(*ast.Ident); isID {
					day = strings.ToUpper(id.Name)
				}
			}
		}
		part := "WEEK(" + day + ")"
		if parsePart([]byte(part)) == tpInvalid || !IsKeywordArg(fn, i, part) {
			return nil, false, b.errAt(n, sqlerr.InvalidArgument,
				"WEEK expects one of SUNDAY, MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY")
		}
		return []Expr{&Const{V: types.StringValue(part), T: types.String}}, true, nil
	}
	return nil, false, nil
}

// resolveIdent resolves a bare name; CURRENT_DATE and CURRENT_TIMESTAMP
// without parentheses are calls when no column has that name.
func (b *binder) resolveIdent(n *ast.Ident, ec *exprCtx) (Expr, error) {
	e, err := b.resolvePath([]*ast.Ident{n}, ec.scope)
	if err != nil {
		if name := strings.ToUpper(n.Name); name == "CURRENT_DATE" || name == "CURRENT_TIMESTAMP" {
			return b.call(n, Lookup(name), nil)
		}
	}
	return e, err
}
