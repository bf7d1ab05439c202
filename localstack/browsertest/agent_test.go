package browsertest

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// agent is a browser without a browser, for the security tests that need
// to forge what a browser would never send: it keeps the stack's cookies
// (Go's cookie jar drops Secure cookies over http) and follows no
// redirects.
type agent struct {
	t       *testing.T
	cookies map[string]string
	client  *http.Client
}

func newAgent(t *testing.T) *agent {
	return &agent{t: t, cookies: map[string]string{}, client: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request (a form when form is not nil) and returns the
// status, the Location and the body.
func (a *agent) do(method, rawURL string, form url.Values, header http.Header) (int, string, string) {
	a.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, rawURL, body)
	must(a.t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if strings.HasPrefix(rawURL, stk.URL+"/") && !strings.HasPrefix(rawURL, stk.URL+"/idp/") {
		for name, value := range a.cookies {
			req.AddCookie(&http.Cookie{Name: name, Value: value})
		}
	}
	resp, err := a.client.Do(req)
	must(a.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 {
			delete(a.cookies, c.Name)
			continue
		}
		a.cookies[c.Name] = c.Value
		remember(c.Value)
	}
	loc := resp.Header.Get("Location")
	if strings.HasPrefix(loc, "/") {
		loc = stk.URL + loc
	}
	return resp.StatusCode, loc, string(raw)
}

// startLogin asks the pages for a sign-in returning to next and returns
// the IdP's authorization address.
func (a *agent) startLogin(next string) string {
	a.t.Helper()
	status, to, _ := a.do("GET", stk.URL+"/login?"+url.Values{"next": {next}}.Encode(), nil, nil)
	if status != http.StatusSeeOther || !strings.Contains(to, "/idp/authorize") {
		a.t.Fatalf("login = %d to %s", status, to)
	}
	return to
}

// code submits the IdP's form for p, after tamper changed the form's
// fields, and returns the callback address the IdP sends the browser to.
func (a *agent) code(authorize string, p person, tamper func(url.Values)) string {
	a.t.Helper()
	u, err := url.Parse(authorize)
	must(a.t, err)
	form := u.Query()
	form.Set("name", p.Name)
	form.Set("email", p.Email)
	form.Set("eppn", p.Email)
	form.Set("fedid", "on")
	form.Set("acr", p.ACR)
	form.Set("action", "signin")
	if tamper != nil {
		tamper(form)
	}
	status, to, _ := a.do("POST", stk.URL+"/idp/authorize", form, nil)
	if status != http.StatusSeeOther || !strings.Contains(to, "/login/callback?") {
		a.t.Fatalf("IdP form = %d to %s", status, to)
	}
	cb, _ := url.Parse(to)
	remember(cb.Query().Get("code"))
	return to
}

// signIn is the whole sign-in of p returning to next; it returns where the
// callback sends the browser.
func (a *agent) signIn(next string, p person) string {
	a.t.Helper()
	status, to, _ := a.do("GET", a.code(a.startLogin(next), p, nil), nil, nil)
	if status != http.StatusSeeOther {
		a.t.Fatalf("callback = %d", status)
	}
	return to
}

// signedIn reports whether the start page greets a signed-in person.
func (a *agent) signedIn() bool {
	a.t.Helper()
	status, _, body := a.do("GET", stk.URL+"/", nil, nil)
	if status != http.StatusOK {
		a.t.Fatalf("start page = %d", status)
	}
	return strings.Contains(body, `action="/logout"`)
}
