package web

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestPersonName: one name for a person on every console page: the name
// claim, else given and family name, else the e-mail address.
func TestPersonName(t *testing.T) {
	for _, c := range []struct {
		u    domain.User
		want string
	}{
		{domain.User{Name: "Ann Smith", GivenName: "A", FamilyName: "S", Email: "ann@example.org"}, "Ann Smith"},
		{domain.User{GivenName: "Bob", FamilyName: "Jones", Email: "bob@example.org"}, "Bob Jones"},
		{domain.User{Email: "cid@example.org"}, "cid@example.org"},
	} {
		if got := personName(c.u); got != c.want {
			t.Errorf("personName(%+v) = %q, want %q", c.u, got, c.want)
		}
	}
}
