package sqlerr

import (
	"errors"
	"fmt"
)

// Code classifies a SQL error; it is stable (tests and edge mappings key on
// it).
type Code uint8

const (
	// Internal is a bug.
	Internal Code = iota
	// Syntax: the text does not parse.
	Syntax
	// NotSupported: valid GoogleSQL that Shale does not support (JOIN, CTE,
	// subqueries outside UNPACK...).
	NotSupported
	// UndefinedTable names an unknown table.
	UndefinedTable
	// UndefinedColumn names an unknown column, family or field.
	UndefinedColumn
	// UndefinedFunction names an unknown function or a signature that
	// does not exist.
	UndefinedFunction
	// UndefinedParameter uses an undeclared @parameter.
	UndefinedParameter
	// TypeMismatch: an expression has the wrong type.
	TypeMismatch
	// InvalidArgument: a bad argument value known at analysis time.
	InvalidArgument
	// DivisionByZero at run time.
	DivisionByZero
	// OutOfRange: overflow or a value outside a type's range at run time.
	OutOfRange
	// InvalidValue: a run-time conversion failed (bad UTF-8, a bad cast).
	InvalidValue
	// ResourceExhausted: a memory cap was reached (sort, aggregation).
	ResourceExhausted
	// Canceled: the query was canceled.
	Canceled
	// TooComplex: the statement is longer or nests deeper than Shale
	// parses (sql.MaxQueryBytes, sql.MaxNesting).
	TooComplex
)

var codeNames = [...]string{"internal", "syntax", "not supported", "undefined table", "undefined column",
	"undefined function", "undefined parameter", "type mismatch", "invalid argument", "division by zero",
	"out of range", "invalid value", "resource exhausted", "canceled", "too complex"}

func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("code(%d)", c)
}

// Pos is a 1-based line and column in the query text; the zero Pos is
// "unknown".
type Pos struct{ Line, Col int }

// Error is a SQL error with a code and, when known, a position. Offset is
// the 0-based byte offset of Pos (pgwire reports 1-based character
// positions).
type Error struct {
	Code   Code
	Pos    Pos
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return e.Msg
}

// New returns an error without a position.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// At returns an error at a byte offset of query (line and column computed
// from the text).
func At(query string, offset int, code Code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.Offset = offset
	e.Pos = PosOf(query, offset)
	return e
}

// PosOf converts a byte offset into a 1-based line and column (columns
// count characters, not bytes).
func PosOf(query string, offset int) Pos {
	if offset < 0 || offset > len(query) {
		return Pos{}
	}
	p := Pos{Line: 1, Col: 1}
	for _, r := range query[:offset] {
		if r == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}

// CodeOf returns the code of the first *Error in err's chain, or Internal.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}
