package storage

import "errors"

// Error classes. Every error the engine returns wraps exactly one of these
// sentinels with %w, so that edge packages (btserver, pgwire) can choose a
// protocol code with errors.Is without parsing messages.
var (
	// ErrNotFound: an instance, table, family or other named object is missing.
	ErrNotFound = errors.New("storage: not found")
	// ErrAlreadyExists: a create named an object that exists.
	ErrAlreadyExists = errors.New("storage: already exists")
	// ErrInvalidArgument: the request is malformed or breaks a limit of the
	// Bigtable model (sizes, names, timestamps, filters).
	ErrInvalidArgument = errors.New("storage: invalid argument")
	// ErrFailedPrecondition: the request is well formed but the state forbids
	// it (deletion protection, a non-8-byte cell under increment).
	ErrFailedPrecondition = errors.New("storage: failed precondition")
	// ErrPermissionDenied: a write falls outside an authorized view.
	ErrPermissionDenied = errors.New("storage: permission denied")
	// ErrAborted: an etag did not match.
	ErrAborted = errors.New("storage: aborted")
	// ErrResourceExhausted: a count quota (tables per instance, ...) is reached.
	ErrResourceExhausted = errors.New("storage: resource exhausted")
	// ErrClosed: the engine has been closed.
	ErrClosed = errors.New("storage: closed")
)
