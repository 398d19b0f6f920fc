package pgcatalog

import "fmt"

// SQLSTATE codes the package reports.
const (
	CodeSyntax                = "42601"
	CodeUndefinedTable        = "42P01"
	CodeUndefinedColumn       = "42703"
	CodeUndefinedFunc         = "42883"
	CodeUndefinedObject       = "42704"
	CodeAmbiguousColumn       = "42702"
	CodeAmbiguousFunc         = "42725"
	CodeDuplicateColumn       = "42701"
	CodeDatatypeMismatch      = "42804"
	CodeCannotCoerce          = "42846"
	CodeGrouping              = "42803"
	CodeWindowing             = "42P20"
	CodeInvalidText           = "22P02"
	CodeInvalidDatetimeFormat = "22007"
	CodeInvalidParameter      = "22023"
	CodeNullValue             = "22004"
	CodeDivisionByZero        = "22012"
	CodeOutOfRange            = "22003"
	CodeInvalidRegex          = "2201B"
	CodeInvalidEscape         = "22025"
	CodeSubstring             = "22011"
	CodeCardinality           = "21000"
	CodeNotSupported          = "0A000"
	CodeWrongObjectType       = "42809"
	CodeCanceled              = "57014"
	CodeIOError               = "58030"
)

// Error is a catalog query error with its SQLSTATE. Position is 1-based in
// the statement text (0: unknown), as ErrorResponse wants it.
type Error struct {
	Code     string
	Message  string
	Position int
	Detail   string // optional: more about what went wrong
	Hint     string // optional: what to do about it
	Context  string // optional: where it went wrong (CONTEXT)
	parser   bool   // PostgreSQL's parser refused the text
}

func (e *Error) Error() string { return e.Message }

// FromParser reports whether PostgreSQL's parser refused the statement,
// rather than its evaluation failing.
func (e *Error) FromParser() bool { return e.parser }

// ErrorHint returns the hint ("" for none) for the ErrorResponse.
func (e *Error) ErrorHint() string { return e.Hint }

// ErrorContext returns the context ("" for none) for the ErrorResponse.
func (e *Error) ErrorContext() string { return e.Context }

// ErrorDetail returns the detail ("" for none) for the ErrorResponse.
func (e *Error) ErrorDetail() string { return e.Detail }

// SQLState returns the SQLSTATE code.
func (e *Error) SQLState() string { return e.Code }

// Offset is the error's 0-based byte offset in the statement text, or -1.
func (e *Error) Offset() int { return e.Position - 1 }

func errorf(code string, pos int32, format string, args ...any) *Error {
	p := 0
	if pos >= 0 {
		p = int(pos) + 1
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Position: p}
}

// noPos marks an error without a location.
const noPos = -1
