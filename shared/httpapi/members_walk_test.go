package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// seedMembersOfRole adds n members to a role (user ids from first, names
// that tie and sort apart from their ids), GUEST, INVITER and MANAGER
// with the guest role in turn, and answers their user ids.
func seedMembersOfRole(t *testing.T, w *world, roleID, first int64, n int) {
	t.Helper()
	kinds := []struct {
		authority domain.Authority
		guestRole bool
	}{{domain.Guest, false}, {domain.Inviter, false}, {domain.Manager, true}}
	var seed domain.Seed
	for i := range int64(n) {
		uid := first + i
		k := kinds[uid%3]
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("walk-", uid), Name: fmt.Sprintf("Walker %02d", (uid*7)%23),
			Email: fmt.Sprint("walker", uid, "@example.org"), CreatedAt: w.Now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: k.authority,
			GuestRoleIncluded: k.guestRole, CreatedAt: w.Now})
	}
	if err := w.Store.Seed(t.Context(), seed); err != nil {
		t.Fatal(err)
	}
}

// nextLinkPattern is a Link header with one target, rel="next".
var nextLinkPattern = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// walkPage is what the walk test reads of a page: the members' user ids
// in either item form (U9's user_id, U10's user.id) and the envelope.
type walkPage struct {
	Content []struct {
		UserID int64 `json:"user_id"`
		User   struct {
			ID int64 `json:"id"`
		} `json:"user"`
	} `json:"content"`
	TotalElements int64 `json:"totalElements"`
	Number        int   `json:"number"`
}

func (p walkPage) ids() []int64 {
	var ids []int64
	for _, c := range p.Content {
		ids = append(ids, max(c.UserID, c.User.ID))
	}
	return ids
}

// TestMembersWalkFollowsTheNextLink: a page of a role's members (U9 either
// side, U10 paged, either way, by person and by API token) links the next
// page (RFC 8288, rel="next") with pageNumber one up and a pageToken;
// following the links walks every member of the list once in the order
// one big page by number has, with that page's total and the link's page
// number in every envelope, and the last page has no link. A token is
// refused with the error body (400) for the other side, another role of
// the caller's organization, with a query, or mangled; a token of role A
// on a role of another organization answers as that role does without
// it: missing, to everyone but super users.
func TestMembersWalkFollowsTheNextLink(t *testing.T) {
	w := newWorld(t)
	seedMembersOfRole(t, w, w.RoleA, 70001, 60)
	seedMembersOfRole(t, w, w.RoleB, 80001, 20)
	roleD := w.createRole("Role D", "org-a", "wiki")
	seedMembersOfRole(t, w, roleD, 90001, 20)
	get := func(t *testing.T, caller, path string) (*http.Response, walkPage) {
		t.Helper()
		rec := w.do(caller, "GET", path, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", path, rec.Code, rec.Body)
		}
		return rec.Result(), decode[walkPage](t, rec)
	}
	tokens := map[string]string{}
	for _, tc := range []struct {
		name, caller, list, query string
	}{
		{"guests", "manager", "/api/v1/user_roles/search/{roleA}/true", ""},
		{"guests, descending", "orgToken", "/api/external/v1/user_roles/search/{roleA}/true", "&sortDirection=DESC"},
		{"non-guests", "inviter", "/api/v1/user_roles/search/{roleA}/false", ""},
		{"non-guests, descending", "manager", "/api/v1/user_roles/search/{roleA}/false", "&sortDirection=DESC"},
		{"all", "orgToken", "/api/external/v1/user_roles/roles/{roleA}", ""},
		{"all, descending", "inviter", "/api/v1/user_roles/roles/{roleA}", "&sortDirection=DESC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, whole := get(t, tc.caller, tc.list+"?pageSize=100"+tc.query)
			want := whole.ids()
			if len(want) < 20 || int64(len(want)) != whole.TotalElements {
				t.Fatalf("one page of 100: %d members, total %d", len(want), whole.TotalElements)
			}
			var got []int64
			path := tc.list + "?pageSize=7" + tc.query
			for number := 0; ; number++ {
				if number > len(want) {
					t.Fatal("the links do not end")
				}
				res, page := get(t, tc.caller, path)
				got = append(got, page.ids()...)
				if page.Number != number || page.TotalElements != whole.TotalElements {
					t.Errorf("page %d: number %d, total %d; want total %d", number, page.Number, page.TotalElements, whole.TotalElements)
				}
				link := res.Header.Get("Link")
				if link == "" {
					break
				}
				m := nextLinkPattern.FindStringSubmatch(link)
				if m == nil {
					t.Fatalf("page %d: Link %q is no rel=next link", number, link)
				}
				next, err := url.Parse(m[1])
				if err != nil {
					t.Fatalf("page %d: Link %q: %v", number, link, err)
				}
				q := next.Query()
				if next.Path != w.expand(tc.list) || q.Get("pageNumber") != strconv.Itoa(number+1) || q.Get("pageSize") != "7" || q.Get("pageToken") == "" {
					t.Fatalf("page %d: next %q, want %s with pageNumber %d, pageSize 7 and a pageToken", number, m[1], w.expand(tc.list), number+1)
				}
				tokens[tc.name] = q.Get("pageToken")
				path = m[1]
			}
			if !slices.Equal(got, want) {
				t.Errorf("walked %v,\nwant %v", got, want)
			}
		})
	}
	guestToken := url.QueryEscape(tokens["guests"])
	if guestToken == "" {
		t.Fatal("no token of the guests walk")
	}
	for _, tc := range []struct {
		name, caller, path string
		status             int
	}{
		{"the other side", "manager", "/api/v1/user_roles/search/{roleA}/false?pageToken=" + guestToken, 400},
		{"every member's list", "manager", "/api/v1/user_roles/roles/{roleA}?pageToken=" + guestToken, 400},
		{"the other direction", "manager", "/api/v1/user_roles/search/{roleA}/true?sortDirection=DESC&pageToken=" + guestToken, 400},
		{"another role of the organization", "instAdmin", fmt.Sprintf("/api/v1/user_roles/search/%d/true?pageToken=%s", roleD, guestToken), 400},
		{"with a query", "manager", "/api/v1/user_roles/search/{roleA}/true?query=walker&pageToken=" + guestToken, 400},
		{"by another sort", "manager", "/api/v1/user_roles/search/{roleA}/true?sort=email&pageToken=" + guestToken, 400},
		{"mangled", "manager", "/api/v1/user_roles/search/{roleA}/true?pageToken=x" + guestToken, 400},
		{"empty", "manager", "/api/v1/user_roles/roles/{roleA}?pageToken=", 400},
		{"on another organization's role", "instAdmin", "/api/v1/user_roles/search/{roleB}/true?pageToken=" + guestToken, 404},
		{"on another organization's role, by API token", "orgToken", "/api/external/v1/user_roles/roles/{roleB}?pageToken=" + guestToken, 404},
		{"on a missing role", "instAdmin", "/api/v1/user_roles/search/999999/true?pageToken=" + guestToken, 404},
		{"on another organization's role, by a super user", "super", "/api/v1/user_roles/search/{roleB}/true?pageToken=" + guestToken, 400},
		{"to a guest of the role", "guest", "/api/v1/user_roles/search/{roleA}/true?pageToken=" + guestToken, 403},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			rec := w.do(tc.caller, "GET", tc.path, "")
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if rec.Header().Get("Link") != "" {
				t.Errorf("a refusal with a Link: %s", rec.Header().Get("Link"))
			}
			body := decode[map[string]any](t, rec)
			for _, k := range []string{"timestamp", "status", "error", "exception", "message", "path"} {
				if _, ok := body[k]; !ok {
					t.Errorf("error body lacks %q: %v", k, body)
				}
			}
			if _, ok := body["content"]; ok {
				t.Errorf("a refusal with content: %v", body)
			}
		})
	}
	// Another organization's role answers exactly as a missing one.
	foreign := w.do("instAdmin", "GET", "/api/v1/user_roles/search/{roleB}/true?pageToken="+guestToken, "")
	missing := w.do("instAdmin", "GET", "/api/v1/user_roles/search/{roleB}/true", "")
	if foreign.Code != missing.Code || decode[map[string]any](t, foreign)["message"] != decode[map[string]any](t, missing)["message"] {
		t.Errorf("another organization's role with a token: %d %s; without: %d %s", foreign.Code, foreign.Body, missing.Code, missing.Body)
	}
}
