// Package textdist measures how far apart two names are, for the error
// messages that suggest the names a user probably meant (sql's unknown
// functions and star EXCEPT names, protoschema's bundles, messages and
// fields).
package textdist
