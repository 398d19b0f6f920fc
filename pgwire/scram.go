package pgwire

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
)

// authenticate runs SCRAM-SHA-256 (RFC 5802, 7677) when passwords are
// configured; trust otherwise. Channel binding is not offered. A failure
// is a FATAL 28P01, the same whether the user or the password is wrong.
func (c *conn) authenticate() error {
	a := c.srv.opts.Auth
	if a == nil {
		return nil
	}
	failed := fatal(codeInvalidPassword, fmt.Sprintf("password authentication failed for user \"%s\"", c.user))
	secret := a.secretFor(c.user)
	if secret == nil { // a mock exchange, so as not to reveal which users exist
		secret, _ = newSecret(rand.Text())
	}
	c.w.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	if err := c.w.flush(); err != nil {
		return err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.be.Receive()
	if err != nil {
		return failed
	}
	init, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok || init.AuthMechanism != "SCRAM-SHA-256" {
		return fatal(codeProtocolViolation, "expected a SASLInitialResponse for SCRAM-SHA-256")
	}
	gs2, clientFirstBare, clientNonce, err := parseClientFirst(string(init.Data))
	if err != nil {
		return fatal(codeProtocolViolation, err.Error())
	}
	nonce := clientNonce + base64.RawStdEncoding.EncodeToString(randomBytes(18))
	serverFirst := fmt.Sprintf("r=%s,s=%s,i=%d", nonce, base64.StdEncoding.EncodeToString(secret.salt), secret.iterations)
	c.w.send(&pgproto3.AuthenticationSASLContinue{Data: []byte(serverFirst)})
	if err := c.w.flush(); err != nil {
		return err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.be.Receive()
	if err != nil {
		return failed
	}
	resp, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return fatal(codeProtocolViolation, "expected a SASLResponse")
	}
	final := string(resp.Data)
	withoutProof, proofB64, ok := strings.Cut(final, ",p=")
	if !ok || !strings.Contains(withoutProof, "r="+nonce) ||
		!strings.HasPrefix(withoutProof, "c="+base64.StdEncoding.EncodeToString([]byte(gs2))+",") {
		return failed
	}
	proof, err := base64.StdEncoding.DecodeString(proofB64)
	if err != nil || len(proof) != sha256.Size {
		return failed
	}
	authMessage := clientFirstBare + "," + serverFirst + "," + withoutProof
	sig := hmacSHA256(secret.storedKey, authMessage)
	clientKey := make([]byte, sha256.Size)
	subtle.XORBytes(clientKey, proof, sig)
	stored := sha256.Sum256(clientKey)
	if !hmac.Equal(stored[:], secret.storedKey) {
		return failed
	}
	serverSig := hmacSHA256(secret.serverKey, authMessage)
	c.w.send(&pgproto3.AuthenticationSASLFinal{Data: []byte("v=" + base64.StdEncoding.EncodeToString(serverSig))})
	return nil
}

// parseClientFirst splits "n,,n=user,r=nonce" into its GS2 header, the
// bare message and the client nonce.
func parseClientFirst(s string) (gs2, bare, nonce string, err error) {
	var ok bool
	switch {
	case strings.HasPrefix(s, "n,"), strings.HasPrefix(s, "y,"):
	default:
		return "", "", "", fmt.Errorf("SCRAM channel binding is not supported")
	}
	i := strings.Index(s[2:], ",")
	if i < 0 {
		return "", "", "", fmt.Errorf("malformed SCRAM client-first-message")
	}
	gs2, bare = s[:2+i+1], s[2+i+1:]
	for _, attr := range strings.Split(bare, ",") {
		if v, found := strings.CutPrefix(attr, "r="); found {
			nonce, ok = v, true
		}
	}
	if !ok || nonce == "" {
		return "", "", "", fmt.Errorf("malformed SCRAM client-first-message")
	}
	return gs2, bare, nonce, nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}
