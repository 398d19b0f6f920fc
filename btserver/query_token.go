package btserver

import (
	"encoding/binary"
	"errors"
	"hash/crc32"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Prepared-query tokens are self-contained: they hold everything needed to
// prepare the statement again, so a restart or a cache eviction only costs
// a re-plan, never a client error. The encoding (protobuf wire format, then
// a CRC32C of everything before it, 4 bytes big-endian):
//
//	1: version (varint, 1)
//	2: identity (bytes): a deterministically serialized PrepareQueryRequest
//	   holding only instance_name, query and param_types
//	3: valid_until (varint, Unix microseconds)
//	4: schema (fixed32): CRC32C of the serialized ResultSetMetadata the
//	   client was given, so a re-prepare that yields other columns is
//	   caught instead of sending rows the client would misread
//
// Clients treat the token as opaque. A forged token can name no more than
// a query the caller could have prepared anyway; the checksum only guards
// against corruption.
type preparedToken struct {
	identity   []byte
	validUntil int64
	schema     uint32
}

const tokenVersion = 1

// crc32c is the Castagnoli table: batch checksums (spec §4.8) and tokens.
var crc32c = crc32.MakeTable(crc32.Castagnoli)

var errBadToken = errors.New("malformed token")

// queryIdentity serializes what determines a prepared statement.
func queryIdentity(instance, query string, params map[string]*btpb.Type) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(&btpb.PrepareQueryRequest{
		InstanceName: instance, Query: query, ParamTypes: params,
	})
}

func (t preparedToken) encode() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, tokenVersion)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, t.identity)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.validUntil))
	b = protowire.AppendTag(b, 4, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, t.schema)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c))
}

func decodePreparedToken(b []byte) (preparedToken, error) {
	var t preparedToken
	body, err := checkCRC(b)
	if err != nil {
		return t, err
	}
	version := uint64(0)
	for len(body) > 0 {
		num, typ, n := protowire.ConsumeTag(body)
		if n < 0 {
			return t, errBadToken
		}
		body = body[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			version, n = protowire.ConsumeVarint(body)
		case num == 2 && typ == protowire.BytesType:
			t.identity, n = protowire.ConsumeBytes(body)
		case num == 3 && typ == protowire.VarintType:
			var v uint64
			v, n = protowire.ConsumeVarint(body)
			t.validUntil = int64(v)
		case num == 4 && typ == protowire.Fixed32Type:
			t.schema, n = protowire.ConsumeFixed32(body)
		default:
			return t, errBadToken
		}
		if n < 0 {
			return t, errBadToken
		}
		body = body[n:]
	}
	if version != tokenVersion || t.identity == nil {
		return t, errBadToken
	}
	return t, nil
}

// request parses the token's identity.
func (t preparedToken) request() (*btpb.PrepareQueryRequest, error) {
	req := &btpb.PrepareQueryRequest{}
	if err := proto.Unmarshal(t.identity, req); err != nil {
		return nil, errBadToken
	}
	return req, nil
}

// checkCRC verifies and strips a token's CRC32C trailer.
func checkCRC(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errBadToken
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crc32c) != binary.BigEndian.Uint32(b[len(b)-4:]) {
		return nil, errBadToken
	}
	return body, nil
}

// resumeToken marks a point in a result stream: the number of rows
// released to the client so far, whether the stream is complete (the
// sentinel), and a fingerprint of the request (query and parameters), so a
// token is not applied to another query. Encoding: version byte, flags
// byte (1 = done), uvarint rows, fixed32 fingerprint, CRC32C trailer.
type resumeToken struct {
	rows        int64
	done        bool
	fingerprint uint32
}

func (r resumeToken) encode() []byte {
	b := []byte{tokenVersion, 0}
	if r.done {
		b[1] = 1
	}
	b = protowire.AppendVarint(b, uint64(r.rows))
	b = protowire.AppendFixed32(b, r.fingerprint)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c))
}

func decodeResumeToken(b []byte) (resumeToken, error) {
	var r resumeToken
	body, err := checkCRC(b)
	if err != nil {
		return r, err
	}
	if len(body) < 2 || body[0] != tokenVersion || body[1] > 1 {
		return r, errBadToken
	}
	r.done = body[1] == 1
	rows, n := protowire.ConsumeVarint(body[2:])
	if n < 0 || int64(rows) < 0 {
		return r, errBadToken
	}
	r.rows = int64(rows)
	fp, m := protowire.ConsumeFixed32(body[2+n:])
	if m < 0 || 2+n+m != len(body) {
		return r, errBadToken
	}
	r.fingerprint = fp
	return r, nil
}

// requestFingerprint identifies an execution: the query identity and the
// bound parameter values exactly as sent.
func requestFingerprint(identity []byte, params map[string]*btpb.Value) (uint32, error) {
	p, err := proto.MarshalOptions{Deterministic: true}.Marshal(&btpb.ExecuteQueryRequest{Params: params})
	if err != nil {
		return 0, err
	}
	return crc32.Update(crc32.Checksum(identity, crc32c), crc32c, p), nil
}
