package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/testkit"
)

type invitationPage = httpapi.PageJSON[httpapi.InvitationJSON]

func emailsOf(invs []httpapi.InvitationJSON) string {
	var out []string
	for _, inv := range invs {
		out = append(out, inv.Email)
	}
	return strings.Join(out, ",")
}

func TestSearchAndListInvitationsOfARole(t *testing.T) {
	w := newWorld(t)
	for _, e := range []string{"carol@uni.example", "bob@uni.example", "dave@other.example"} {
		w.invite(e, w.RoleA, domain.Guest)
	}
	w.invite("elsewhere@uni.example", w.RoleB, domain.Guest)
	tests := []struct {
		name, query, want string
		total             int64
		pages             int
	}{
		{"first page by e-mail", "&pageSize=2", "bob@uni.example,carol@uni.example", 4, 2},
		{"second page", "&pageSize=2&pageNumber=1", "dave@other.example,open@example.org", 4, 2},
		{"descending", "&pageSize=1&sortDirection=DESC", "open@example.org", 4, 4},
		{"query on an e-mail word prefix", "&query=UNI", "bob@uni.example,carol@uni.example", 2, 1},
		{"query on the inviter", "&query=root", "bob@uni.example,carol@uni.example,dave@other.example,open@example.org", 4, 1},
		{"no match", "&query=zz", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := w.do("inviter", "GET", "/api/v1/invitations/search?roleId={roleA}"+tt.query, "")
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			page := decode[invitationPage](t, rec)
			if got := emailsOf(page.Content); got != tt.want {
				t.Errorf("invitations %q, want %q", got, tt.want)
			}
			if page.TotalElements != tt.total || page.TotalPages != tt.pages || page.NumberOfElements != len(page.Content) {
				t.Errorf("envelope %+v", page)
			}
			for _, inv := range page.Content {
				if inv.Status != "OPEN" || len(inv.Roles) != 1 || inv.Roles[0].Role.ID != w.RoleA {
					t.Errorf("invitation %+v", inv)
				}
			}
		})
	}
	for q, status := range map[string]int{"?roleId=abc": 400, "?roleId=999": 404, "?roleId={roleA}&sort=hash": 400} {
		if rec := w.do("super", "GET", "/api/v1/invitations/search"+q, ""); rec.Code != status {
			t.Errorf("%s: status %d, want %d", q, rec.Code, status)
		}
	}

	invs := decode[[]httpapi.InvitationJSON](t, w.do("manager", "GET", "/api/v1/invitations/roles/{roleA}", ""))
	if got := emailsOf(invs); got != "open@example.org,carol@uni.example,bob@uni.example,dave@other.example" {
		t.Errorf("open invitations of role A by id: %q", got)
	}
	// An accepted invitation is no longer listed.
	w.inviteAndAccept("newcomer", w.RoleA, domain.Guest)
	if n := len(decode[[]httpapi.InvitationJSON](t, w.do("manager", "GET", "/api/v1/invitations/roles/{roleA}", ""))); n != 4 {
		t.Errorf("%d open invitations after an acceptance, want 4", n)
	}
}

func TestMyInvitations(t *testing.T) {
	w := newWorld(t)
	body := `{"intendedAuthority":"GUEST","invites":["mine1@example.org","mine2@example.org"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate},"suppressSendingEmails":true}`
	if rec := w.do("manager", "POST", "/api/v1/invitations", body); rec.Code != http.StatusCreated {
		t.Fatalf("invite: %d %s", rec.Code, rec.Body.String())
	}
	mine := decode[[]httpapi.InvitationJSON](t, w.do("manager", "GET", "/api/v1/invitations/mine", ""))
	if got := emailsOf(mine); got != "mine1@example.org,mine2@example.org" {
		t.Errorf("manager's invitations %q", got)
	}
	if mine[0].Inviter["name"] != "manager@example.org" || len(mine[0].Roles) != 1 {
		t.Errorf("invitation %+v", mine[0])
	}
	if others := decode[[]httpapi.InvitationJSON](t, w.do("inviter", "GET", "/api/v1/invitations/mine", "")); len(others) != 0 {
		t.Errorf("inviter sees %q", emailsOf(others))
	}
}

// capturingMailer keeps what would be sent.
type capturingMailer struct {
	mu   sync.Mutex
	sent []domain.Email
}

func (m *capturingMailer) Send(_ context.Context, e domain.Email) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, e)
	return nil
}

func withMail(t *testing.T, w *world) *capturingMailer {
	t.Helper()
	r, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	m := &capturingMailer{}
	w.Svc.Mailer, w.Svc.Renderer = m, r
	return m
}

func TestResendInvitationKeepsTheLinkAndMails(t *testing.T) {
	w := newWorld(t)
	mailer := withMail(t, w)
	// The invitation expired a day ago: a resend makes it valid for 14 days.
	w.Now = w.Now.Add(15 * 24 * time.Hour)
	queued := len(w.Queue.Deliveries())
	rec := w.do("inviter", "PUT", "/api/v1/invitations/{invitationA}", "")
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	body := decode[struct {
		Status int `json:"status"`
		URLs   []struct {
			Recipient     string `json:"recipient"`
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
	}](t, rec)
	if body.Status != 201 || len(body.URLs) != 1 || body.URLs[0].Recipient != "open@example.org" {
		t.Fatalf("body %+v", body)
	}
	secret := testkit.SecretOfURL(t, body.URLs[0].InvitationURL)
	// The same link, as in the reference (the secret is kept for it).
	if secret != w.OpenSecretA {
		t.Fatalf("resent link %q is not the original one", body.URLs[0].InvitationURL)
	}
	if len(mailer.sent) != 1 || mailer.sent[0].To != "open@example.org" || !strings.Contains(mailer.sent[0].HTML+mailer.sent[0].Text, secret) {
		t.Errorf("mails %+v", mailer.sent)
	}
	rec = w.do("anonymous", "GET", "/api/v1/invitations/public?hash="+url.QueryEscape(secret), "")
	if rec.Code != http.StatusOK {
		t.Fatalf("new link: status %d %s", rec.Code, rec.Body.String())
	}
	if inv := decode[httpapi.InvitationJSON](t, rec); inv.ID != w.OpenInvitationA || inv.ExpiryDate == nil ||
		*inv.ExpiryDate != w.Now.Add(14*24*time.Hour).Format(time.RFC3339) {
		t.Errorf("resent invitation %+v", inv)
	}
	if n := len(w.Queue.Deliveries()) - queued; n != 0 {
		t.Errorf("a resend queued %d SCIM deliveries", n)
	}
}

func TestResendAndDeleteRefusals(t *testing.T) {
	w := newWorld(t)
	mailer := withMail(t, w)
	accepted, secret := w.invite("taken@example.org", w.RoleA, domain.Guest)
	person := personOf("taken")
	if _, err := w.Svc.Accept(context.Background(), &auth.Principal{Kind: auth.KindPerson, Person: &person}, secret, accepted); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, caller, method, path string
		status                     int
	}{
		{"resend an accepted invitation", "super", "PUT", "/api/v1/invitations/" + itoa(accepted), http.StatusConflict},
		{"delete an accepted invitation", "super", "DELETE", "/api/v1/invitations/" + itoa(accepted), http.StatusConflict},
		{"resend an unknown invitation", "super", "PUT", "/api/v1/invitations/999", http.StatusNotFound},
		{"delete as a guest", "guest", "DELETE", "/api/v1/invitations/{invitationA}", http.StatusForbidden},
		{"resend as a guest", "guest", "PUT", "/api/v1/invitations/{invitationA}", http.StatusForbidden},
		{"bad id", "super", "DELETE", "/api/v1/invitations/x", http.StatusBadRequest},
	}
	for _, tt := range tests {
		rec := w.do(tt.caller, tt.method, tt.path, "")
		if rec.Code != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.name, rec.Code, tt.status, rec.Body.String())
		}
	}
	if len(mailer.sent) != 0 {
		t.Errorf("refused resends sent %d mails", len(mailer.sent))
	}
	if rec := w.do("anonymous", "GET", "/api/v1/invitations/public?hash="+url.QueryEscape(w.OpenSecretA), ""); rec.Code != http.StatusOK {
		t.Errorf("refusals changed the open invitation: %d", rec.Code)
	}
}

func TestDeleteInvitation(t *testing.T) {
	w := newWorld(t)
	if rec := w.do("inviter", "DELETE", "/api/v1/invitations/{invitationA}", ""); rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if _, err := w.Store.GetInvitation(context.Background(), w.OpenInvitationA); !domain.IsNotFound(err) {
		t.Errorf("invitation still stored: %v", err)
	}
	if rec := w.do("anonymous", "GET", "/api/v1/invitations/public?hash="+url.QueryEscape(w.OpenSecretA), ""); rec.Code != http.StatusNotFound {
		t.Errorf("deleted invitation's link: %d", rec.Code)
	}
	if invs := decode[[]httpapi.InvitationJSON](t, w.do("manager", "GET", "/api/v1/invitations/roles/{roleA}", "")); len(invs) != 0 {
		t.Errorf("role A still lists %q", emailsOf(invs))
	}
	if rec := w.do("inviter", "DELETE", "/api/v1/invitations/{invitationA}", ""); rec.Code != http.StatusNotFound {
		t.Errorf("second delete: %d", rec.Code)
	}
}

func TestSearchAllOpenInvitations(t *testing.T) {
	w := newWorld(t)
	for _, e := range []string{"zoe@uni.example", "yan@uni.example"} {
		w.invite(e, w.RoleB, domain.Guest)
	}
	w.Now = w.Now.Add(time.Minute)
	w.invite("xena@other.example", w.RoleC, domain.Guest)
	tests := []struct {
		name, query, want string
		total             int64
	}{
		{"by creation, first page", "?sort=createdAt&pageSize=2", "open@example.org,zoe@uni.example", 4},
		{"by creation, second page", "?sort=createdAt&pageSize=2&pageNumber=1", "yan@uni.example,xena@other.example", 4},
		{"newest first", "?sort=createdAt&pageSize=1&sortDirection=DESC", "xena@other.example", 4},
		{"by e-mail (default)", "?pageSize=3", "open@example.org,xena@other.example,yan@uni.example", 4},
		{"query", "?query=uni", "yan@uni.example,zoe@uni.example", 2},
		{"past the end", "?sort=createdAt&pageNumber=5", "", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := w.do("superToken", "GET", "/api/v1/invitations/search"+tt.query, "")
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			page := decode[invitationPage](t, rec)
			if got := emailsOf(page.Content); got != tt.want || page.TotalElements != tt.total {
				t.Errorf("invitations %q of %d, want %q of %d", got, page.TotalElements, tt.want, tt.total)
			}
		})
	}
	all := decode[[]httpapi.InvitationJSON](t, w.do("super", "GET", "/api/v1/invitations/all", ""))
	if got := emailsOf(all); got != "open@example.org,zoe@uni.example,yan@uni.example,xena@other.example" {
		t.Errorf("all open invitations %q", got)
	}
	// Role names come with each invitation.
	page := decode[invitationPage](t, w.do("super", "GET", "/api/v1/invitations/search?query=xena", ""))
	if len(page.Content) != 1 || len(page.Content[0].Roles) != 1 || page.Content[0].Roles[0].Role.Name != "Role C" {
		t.Errorf("page %+v", page.Content)
	}
}
