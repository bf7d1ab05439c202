package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// LogID names the caller in log lines without personal data: a person by
// their user id (or, before they have an account, a digest of their
// subject), never by e-mail address or eppn; a program by its name, which
// an operator or admin chose. The audit trail, not the log, says who by
// name.
func (p *Principal) LogID() string {
	switch {
	case p == nil:
		return "anonymous"
	case p.Kind == KindPerson && p.User != nil:
		return "user " + strconv.FormatInt(p.User.ID, 10)
	case p.Kind == KindPerson && p.Person != nil:
		sum := sha256.Sum256([]byte(p.Person.Sub))
		return "person " + hex.EncodeToString(sum[:6])
	}
	return string(p.Kind) + " " + p.Name
}
