package invariants

import "fmt"

// AssertionError is a broken invariant.
type AssertionError struct{ msg string }

func (e *AssertionError) Error() string { return "assertion failed: " + e.msg }

// Fail returns an AssertionError; in invariant builds it panics with it.
func Fail(format string, args ...any) error {
	err := &AssertionError{msg: fmt.Sprintf(format, args...)}
	if Enabled {
		panic(err)
	}
	return err
}
