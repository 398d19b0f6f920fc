package sql

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"

	farm "github.com/dgryski/go-farm"
	"github.com/google/uuid"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Hash functions over STRING or BYTES (a STRING hashes as its UTF-8
// bytes), and GENERATE_UUID.
func init() {
	for _, t := range []*types.Type{types.String, types.Bytes} {
		Register("FARM_FINGERPRINT", fixedTo(types.Int64, farmFingerprint, t))
		Register("MD5", fixed(types.Bytes, digest(func(b []byte) []byte { s := md5.Sum(b); return s[:] }), t))
		Register("SHA1", fixed(types.Bytes, digest(func(b []byte) []byte { s := sha1.Sum(b); return s[:] }), t))
		Register("SHA256", fixed(types.Bytes, digest(func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }), t))
		Register("SHA512", fixed(types.Bytes, digest(func(b []byte) []byte { s := sha512.Sum512(b); return s[:] }), t))
	}
	Register("GENERATE_UUID", fixed(types.String, generateUUID))
	Lookup("GENERATE_UUID").Volatile = true
}

// farmFingerprint is FarmHash's Fingerprint64 read as a signed INT64.
func farmFingerprint(dst *types.Value, a []types.Value, _ *types.Type) error {
	*dst = types.Int64Value(int64(farm.Fingerprint64(a[0].Bytes())))
	return nil
}

func digest(sum func([]byte) []byte) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.BytesValue(sum(a[0].Bytes())), nil
	}
}

// generateUUID returns a random (version 4) UUID in lower-case 8-4-4-4-12
// form. It is evaluated per call, so per row.
func generateUUID(_ []types.Value, _ *types.Type) (types.Value, error) {
	u, err := uuid.NewRandom()
	if err != nil {
		return types.Value{}, sqlerr.New(sqlerr.Internal, "GENERATE_UUID: %v", err)
	}
	text, _ := u.MarshalText()
	return types.StringBytesValue(text), nil
}
