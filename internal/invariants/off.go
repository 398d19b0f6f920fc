//go:build !(invariants || race)

package invariants

// Enabled is true in invariant builds.
const Enabled = false
