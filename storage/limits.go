package storage

// Limits of the Bigtable model (spec §8), enforced by the engine.
const (
	// MaxRowKeySize is the largest row key, in bytes.
	MaxRowKeySize = 4 << 10
	// MaxQualifierSize is the largest column qualifier, in bytes.
	MaxQualifierSize = 16 << 10
	// MaxValueSize is the largest cell value, in bytes.
	MaxValueSize = 100 << 20
	// MaxFamilyNameLen is the longest family name.
	MaxFamilyNameLen = 64
	// MaxTableIDLen is the longest table id.
	MaxTableIDLen = 50
	// MaxFamilies is the most column families a table may have.
	MaxFamilies = 100
	// MaxTablesPerInstance is the most tables an instance may hold.
	MaxTablesPerInstance = 1000
	// MaxMutations is the most mutations one request may carry.
	MaxMutations = 100_000
	// MaxFilterDepth is the deepest a RowFilter may nest.
	MaxFilterDepth = 20
)
