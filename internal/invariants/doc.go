// Package invariants holds assertions that run in invariant builds (the
// "invariants" or "race" build tags) and cost nothing in release builds.
//
// Enabled is a constant, so `if invariants.Enabled { ... }` blocks compile
// away. Fail returns an assertion error in release builds and panics in
// invariant builds, so tests stop at the first broken invariant while a
// production server reports it as an internal error.
package invariants
