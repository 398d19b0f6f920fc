package btserver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/shale-db/shale/storage"
)

// doneOperation wraps the result of an admin call that Bigtable runs as a
// long-running operation. Shale finishes every such call before answering,
// so the operation comes back done, with its response set.
func (s *Server) doneOperation(resource string, resp proto.Message) (*longrunningpb.Operation, error) {
	a, err := anypb.New(resp)
	if err != nil {
		return nil, fmt.Errorf("btserver: operation response: %w", err)
	}
	return &longrunningpb.Operation{
		Name:   fmt.Sprintf("%s/operations/%x", resource, s.seq.Add(1)),
		Done:   true,
		Result: &longrunningpb.Operation_Response{Response: a},
	}, nil
}

// Consistency tokens are opaque to clients: "shale-" followed by a hash of
// the table name and a sequence number. A single-node store is always
// consistent, so a token only has to be recognizably one issued for that
// table (an unknown token is INVALID_ARGUMENT, spec §3.1). Tokens need no
// state and survive restarts.
const tokenPrefix = "shale-"

func tableTokenHash(table string) string {
	h := sha256.Sum256([]byte(table))
	return hex.EncodeToString(h[:8])
}

func (s *Server) consistencyToken(table string) string {
	return fmt.Sprintf("%s%s-%x", tokenPrefix, tableTokenHash(table), s.seq.Add(1))
}

func checkConsistencyToken(table, token string) error {
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	hash, _, ok2 := strings.Cut(rest, "-")
	if !ok || !ok2 || hash != tableTokenHash(table) {
		return fmt.Errorf("%w: unknown consistency token %q", storage.ErrInvalidArgument, token)
	}
	return nil
}
