// Package types is the SQL type system and value representation shared by
// the GoogleSQL front end, the planner, the executor and the protocol edges
// (pgwire, the Bigtable ExecuteQuery RPC).
//
// # Types
//
// A *Type is immutable. Scalars are the predeclared singletons (Bool,
// Int64, Float32, Float64, String, Bytes, Date, Timestamp); composite types
// are built with ArrayOf, MapOf, StructOf, ProtoOf and EnumOf. Equal
// compares structurally. A PROTO type may carry an AppendJSON hook (set by
// protoschema, which owns the descriptors) that renders a serialized
// message as JSON for the protocol edges; it is not part of the type's
// identity, so the edges stay free of the protobuf runtime.
//
// # Values
//
// A Value is a small struct, not an interface, so rows ([]Value) hold values
// without boxing. The zero Value is an untyped NULL; NullOf(t) is a typed
// one. STRING and BYTES share one []byte field; constructors copy nothing,
// so a Value aliases the bytes it was made from (document ownership at each
// producer).
//
// # Invariants
//
// T1: v.Type() is nil only for the untyped NULL.
// T2: a non-NULL STRING holds valid UTF-8 (producers check at the boundary:
// CAST(bytes AS STRING), parameters, protocol decoding).
// T3: a MAP value's entries are sorted by key and unique (MAP_KEYS and
// friends return sorted results without sorting again).
package types
