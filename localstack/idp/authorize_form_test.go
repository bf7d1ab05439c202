package idp

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestSignInFormSignsInTheTypedPerson: the form fills in no eppn, and a
// person typed with only a name and an e-mail address signs in as that
// address (their eppn and subject), never as the person the form suggests.
func TestSignInFormSignsInTheTypedPerson(t *testing.T) {
	p, err := New("http://127.0.0.1:1/idp")
	if err != nil {
		t.Fatal(err)
	}
	p.RegisterClient("web", Client{Secret: "s", RedirectURIs: []string{"http://127.0.0.1:1/login/callback"}})
	h := p.Handler()

	get := httptest.NewRecorder()
	h.ServeHTTP(get, httptest.NewRequest(http.MethodGet, "/authorize?"+url.Values{"client_id": {"web"},
		"redirect_uri": {"http://127.0.0.1:1/login/callback"}, "response_type": {"code"}, "code_challenge": {"c"},
		"code_challenge_method": {"S256"}, "state": {"st"}}.Encode(), nil))
	if get.Code != http.StatusOK || !strings.Contains(get.Body.String(), `id="eppn" name="eppn" value=""`) {
		t.Fatalf("the form pre-fills an eppn (%d):\n%s", get.Code, get.Body.String())
	}

	cases := []struct{ name, email, eppn, wantEPPN, wantSub string }{
		{"Bob Builder", "bob@example.org", "", "bob@example.org", "urn:collab:person:bob@example.org"},
		{"Carol Admin", "carol@example.org", "admin@example.org", "admin@example.org", "urn:collab:person:admin@example.org"},
	}
	for _, c := range cases {
		form := url.Values{"client_id": {"web"}, "redirect_uri": {"http://127.0.0.1:1/login/callback"}, "state": {"st"},
			"code_challenge": {"c"}, "action": {"signin"}, "name": {c.name}, "email": {c.email}, "eppn": {c.eppn}}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/authorize", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		h.ServeHTTP(rec, req)
		loc, err := url.Parse(rec.Header().Get("Location"))
		if rec.Code != http.StatusSeeOther || err != nil {
			t.Fatalf("%s: %d %v", c.email, rec.Code, err)
		}
		p.flow.mu.Lock()
		claims := p.flow.codes[loc.Query().Get("code")].claims
		p.flow.mu.Unlock()
		if claims["eduperson_principal_name"] != c.wantEPPN || claims["sub"] != c.wantSub || claims["email"] != c.email {
			t.Errorf("%s signed in as %v", c.email, claims)
		}
	}
}
