package sqlerr

import (
	"errors"
	"fmt"
	"strings"
)

// Caret renders err the way tests and tools print SQL errors: the code and
// "line:col: message", then, when the error has a position, the query line
// and a caret under the column (memefish's style).
func Caret(query string, err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return "error (not a *sqlerr.Error): " + err.Error() + "\n"
	}
	out := fmt.Sprintf("error (%s): %s\n", e.Code, e.Error())
	if lines := strings.Split(query, "\n"); e.Pos.Line > 0 && e.Pos.Line <= len(lines) {
		out += lines[e.Pos.Line-1] + "\n" + strings.Repeat(" ", max(e.Pos.Col-1, 0)) + "^\n"
	}
	return out
}
