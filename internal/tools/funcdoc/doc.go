// Command funcdoc writes docs/functions.md, the conformance table of
// GoogleSQL for Bigtable's functions against Shale's function registry.
// It is run by `go generate ./sql`; TestUpToDate fails when the checked-in
// table differs from what the registry produces.
//
// The list of Google's functions (functions-all.tsv) is transcribed from
// the "All functions" page of GoogleSQL for Bigtable: name, category page,
// GoogleSQL signature, summary.
package main
