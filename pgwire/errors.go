package pgwire

import (
	"context"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/sql/sqlerr"
)

// SQLSTATE codes pgwire sends (PostgreSQL Appendix A).
const (
	codeSyntax              = "42601"
	codeUndefinedTable      = "42P01"
	codeUndefinedColumn     = "42703"
	codeUndefinedFunction   = "42883"
	codeUndefinedParameter  = "42P02"
	codeIndeterminateType   = "42P18"
	codeUndefinedObject     = "42704"
	codeDatatypeMismatch    = "42804"
	codeInvalidParamValue   = "22023"
	codeDivisionByZero      = "22012"
	codeOutOfRange          = "22003"
	codeInvalidText         = "22P02"
	codeInvalidDatetime     = "22007"
	codeInvalidBinary       = "22P03"
	codeCharacterNotInRep   = "22021"
	codeNotSupported        = "0A000"
	codeQueryCanceled       = "57014"
	codeAdminShutdown       = "57P01"
	codeInvalidPassword     = "28P01"
	codeInvalidAuthSpec     = "28000"
	codeProtocolViolation   = "08P01"
	codeResourceExhausted   = "53000"
	codeOutOfMemory         = "53200"
	codeTooManyConnections  = "53300"
	codeStatementTooComplex = "54001"
	codeInternal            = "XX000"
	codeActiveTxn           = "25001"
	codeNoActiveTxn         = "25P01"
	codeInFailedTxn         = "25P02"
	codeNoSavepoint         = "3B001"
	codeInvalidStatement    = "26000"
	codeInvalidCursor       = "34000"
	codeDuplicateCursor     = "42P03"
	codeDuplicateStatement  = "42P05"
	codeObjectNotInPrereq   = "55000"
	codeInvalidPortal       = "34000"
	codeWarning             = "01000"
	codeInvalidSQLStatement = "07000"
)

// pgError is an error with the facts an ErrorResponse carries. pos is a
// 0-based byte offset into the statement text the error concerns, or -1.
type pgError struct {
	code     string
	msg      string
	detail   string
	hint     string
	where    string // CONTEXT
	pos      int
	severity string // "" means ERROR
}

func (e *pgError) Error() string { return e.msg }

// errorf returns a pgError without a position.
func errorf(code, msg string) *pgError { return &pgError{code: code, msg: msg, pos: -1} }

// fatal marks err as closing the connection.
func fatal(code, msg string) *pgError {
	return &pgError{code: code, msg: msg, pos: -1, severity: "FATAL"}
}

// sqlState maps the SQL layers' codes to SQLSTATE (doc.go, "Errors").
func sqlState(c sqlerr.Code) string {
	switch c {
	case sqlerr.Syntax:
		return codeSyntax
	case sqlerr.NotSupported:
		return codeNotSupported
	case sqlerr.UndefinedTable:
		return codeUndefinedTable
	case sqlerr.UndefinedColumn:
		return codeUndefinedColumn
	case sqlerr.UndefinedFunction:
		return codeUndefinedFunction
	case sqlerr.UndefinedParameter:
		return codeUndefinedParameter
	case sqlerr.TypeMismatch:
		return codeDatatypeMismatch
	case sqlerr.InvalidArgument:
		return codeInvalidParamValue
	case sqlerr.DivisionByZero:
		return codeDivisionByZero
	case sqlerr.OutOfRange:
		return codeOutOfRange
	case sqlerr.InvalidValue:
		return codeInvalidText
	case sqlerr.ResourceExhausted:
		return codeOutOfMemory
	case sqlerr.Canceled:
		return codeQueryCanceled
	case sqlerr.TooComplex:
		return codeStatementTooComplex
	}
	return codeInternal
}

// toPGError converts any error to a pgError. ctx is the statement's
// context: once it is done, the error is a cancellation whatever the layer
// below made of it. offsets maps an offset in the text the Executor saw back
// to the client's text (nil: the identity).
func toPGError(ctx context.Context, err error, offsets func(int) int) *pgError {
	if ctx != nil && ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errStatementTimeout) {
			return errorf(codeQueryCanceled, "canceling statement due to statement timeout")
		}
		return errorf(codeQueryCanceled, "canceling statement due to user request")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errorf(codeQueryCanceled, "canceling statement due to user request")
	}
	var pe *pgError
	if errors.As(err, &pe) {
		return pe
	}
	var own interface {
		SQLState() string
		error
	}
	if errors.As(err, &own) { // an error that carries its SQLSTATE (the catalog emulator's)
		e := &pgError{code: own.SQLState(), msg: own.Error(), pos: -1}
		var at interface{ Offset() int } // and its byte offset in the client's text
		if errors.As(err, &at) {
			e.pos = at.Offset()
		}
		var hinted interface{ ErrorHint() string }
		if errors.As(err, &hinted) {
			e.hint = hinted.ErrorHint()
		}
		var detailed interface{ ErrorDetail() string }
		if errors.As(err, &detailed) {
			e.detail = detailed.ErrorDetail()
		}
		var placed interface{ ErrorContext() string }
		if errors.As(err, &placed) {
			e.where = placed.ErrorContext()
		}
		return e
	}
	var se *sqlerr.Error
	if errors.As(err, &se) {
		e := &pgError{code: sqlState(se.Code), msg: se.Msg, pos: -1}
		if se.Offset >= 0 && (se.Pos.Line > 0 || se.Code == sqlerr.Syntax) {
			e.pos = se.Offset
			if offsets != nil {
				e.pos = offsets(se.Offset)
			}
		}
		return e
	}
	return errorf(codeInternal, err.Error())
}

var errStatementTimeout = errors.New("pgwire: statement timeout")

// response builds the ErrorResponse of e for a statement that starts at
// byte base of text (Position counts characters from 1, as psql expects).
func (e *pgError) response(text string, base int) *pgproto3.ErrorResponse {
	sev := e.severity
	if sev == "" {
		sev = "ERROR"
	}
	r := &pgproto3.ErrorResponse{Severity: sev, SeverityUnlocalized: sev, Code: e.code, Message: e.msg,
		Detail: e.detail, Hint: e.hint, Where: e.where}
	if e.pos >= 0 && base+e.pos <= len(text) {
		r.Position = int32(utf8.RuneCountInString(text[:base+e.pos]) + 1)
	}
	return r
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
