package pgwire

import (
	"bufio"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Auth holds the credentials SCRAM-SHA-256 checks. A nil *Auth is trust:
// any user connects without a password.
type Auth struct {
	users map[string]*scramSecret
	any   *scramSecret // --pg-password: for every user not in users
}

// scramSecret is a SCRAM-SHA-256 verifier (RFC 5802 §3).
type scramSecret struct {
	iterations           int
	salt                 []byte
	storedKey, serverKey []byte
}

// scramIterations is the PBKDF2 cost for passwords given in clear
// (PostgreSQL's default).
const scramIterations = 4096

// PasswordAuth returns the Auth of one password that every user name
// accepts (--pg-password).
func PasswordAuth(password string) (*Auth, error) {
	s, err := newSecret(password)
	if err != nil {
		return nil, err
	}
	return &Auth{users: map[string]*scramSecret{}, any: s}, nil
}

// LoadUsers reads a users file (--pg-users): one "name:secret" per line,
// where secret is a password or a verifier as PostgreSQL stores it,
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> (base64; from
// pg_authid.rolpassword). Blank lines and lines starting with # are
// ignored.
func LoadUsers(path string) (*Auth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseUsers(f)
}

// ParseUsers reads the users-file format of LoadUsers.
func ParseUsers(r io.Reader) (*Auth, error) {
	a := &Auth{users: map[string]*scramSecret{}}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		name, secret, ok := strings.Cut(text, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("pgwire: users file line %d: want name:password", line)
		}
		var s *scramSecret
		var err error
		if strings.HasPrefix(secret, "SCRAM-SHA-256$") {
			s, err = parseVerifier(secret)
		} else {
			s, err = newSecret(secret)
		}
		if err != nil {
			return nil, fmt.Errorf("pgwire: users file line %d: %w", line, err)
		}
		a.users[name] = s
	}
	return a, sc.Err()
}

// WithPassword adds a password that every user not in the file accepts.
func (a *Auth) WithPassword(password string) (*Auth, error) {
	s, err := newSecret(password)
	if err != nil {
		return nil, err
	}
	a.any = s
	return a, nil
}

func newSecret(password string) (*scramSecret, error) {
	salt := make([]byte, 16)
	rand.Read(salt)
	salted, err := pbkdf2.Key(sha256.New, password, salt, scramIterations, sha256.Size)
	if err != nil {
		return nil, err
	}
	clientKey := hmacSHA256(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	return &scramSecret{iterations: scramIterations, salt: salt, storedKey: stored[:],
		serverKey: hmacSHA256(salted, "Server Key")}, nil
}

func parseVerifier(v string) (*scramSecret, error) {
	rest := strings.TrimPrefix(v, "SCRAM-SHA-256$")
	iterSalt, keys, ok1 := strings.Cut(rest, "$")
	iter, salt, ok2 := strings.Cut(iterSalt, ":")
	stored, server, ok3 := strings.Cut(keys, ":")
	n, err := strconv.Atoi(iter)
	if !ok1 || !ok2 || !ok3 || err != nil || n <= 0 {
		return nil, fmt.Errorf("malformed SCRAM-SHA-256 verifier")
	}
	s := &scramSecret{iterations: n}
	for _, f := range []struct {
		dst *[]byte
		b64 string
	}{{&s.salt, salt}, {&s.storedKey, stored}, {&s.serverKey, server}} {
		if *f.dst, err = base64.StdEncoding.DecodeString(f.b64); err != nil {
			return nil, fmt.Errorf("malformed SCRAM-SHA-256 verifier: %w", err)
		}
	}
	return s, nil
}

// secretFor returns the verifier of a user, or nil.
func (a *Auth) secretFor(user string) *scramSecret {
	if s, ok := a.users[user]; ok {
		return s
	}
	return a.any
}

func hmacSHA256(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// Verifier returns password's SCRAM-SHA-256 verifier in PostgreSQL's
// stored format, for users files that should not hold passwords.
func Verifier(password string) string {
	s, err := newSecret(password)
	if err != nil {
		return ""
	}
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", s.iterations, b64(s.salt), b64(s.storedKey), b64(s.serverKey))
}
