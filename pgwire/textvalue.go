package pgwire

import (
	"time"

	"github.com/shale-db/shale/sql/types"
)

// AppendText appends the text form pgwire sends for a non-NULL value in a
// result column of type t (described as TypeOID(t)), under the default
// session settings (TimeZone UTC, extra_float_digits 1). The server gives
// it to the catalog emulator as the text of scanned table values, so that
// PostgreSQL-dialect expressions see what a client would.
func AppendText(dst []byte, v types.Value, t *types.Type) ([]byte, error) {
	e := encoder{loc: time.UTC, floatDigits: 1}
	return e.appendText(dst, v, typeOID(t))
}
