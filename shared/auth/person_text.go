package auth

import (
	"strings"
	"unicode"

	"github.com/edu-invite/invite/shared/domain"
)

// Normalized is the person with the IdP's claims made into text the
// service keeps, as its own input must be (domain.CheckText): a login must
// not fail over an odd claim, so nothing is refused. Names keep their
// words: line breaks, tabs and other control characters become spaces,
// bidirectional overrides go, runs of spaces become one, and they are cut
// at domain.MaxNameLength characters. Identifiers (e-mail, eppn, home
// organization, subject id, uid, fedId, acr) are not reworded: one with a
// control character, a bidirectional override or more than
// domain.MaxNameLength characters counts as not sent, so it keeps the
// stored value. The subject is the account's key and is left as it is.
func (p Person) Normalized() Person {
	for _, name := range []*string{&p.GivenName, &p.FamilyName, &p.Name} {
		*name = plainName(*name)
	}
	for _, id := range []*string{&p.EduPersonPrincipalName, &p.SchacHomeOrganization, &p.Email, &p.SubjectID, &p.UID, &p.FedID, &p.ACR} {
		*id = strings.TrimSpace(*id)
		if domain.CheckText("claim", *id, domain.MaxNameLength, false) != nil {
			*id = ""
		}
	}
	return p
}

// plainName is s on one line, without invisible direction changes.
func plainName(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsControl(r), unicode.IsSpace(r):
			b.WriteRune(' ')
		case domain.CheckText("", string(r), 1, false) != nil: // a bidirectional override
		default:
			b.WriteRune(r)
		}
	}
	words := strings.Fields(b.String())
	out := []rune(strings.Join(words, " "))
	if len(out) > domain.MaxNameLength {
		out = []rune(strings.TrimSpace(string(out[:domain.MaxNameLength])))
	}
	return string(out)
}
