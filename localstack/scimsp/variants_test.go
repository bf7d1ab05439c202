package scimsp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/scim"
)

// The variants that support less: what they refuse, refused as an SP
// would (400 invalidFilter, 501), and said in /ServiceProviderConfig.
func TestVariantsRefuseFiltersAndPatch(t *testing.T) {
	ctx := context.Background()
	creds := scim.Credentials{Method: scim.AuthBearer, Token: "tok"}
	for _, tc := range []struct {
		name                       string
		opts                       Options
		userName, externalID, list bool // accepted
		filterSaid, patch          bool
	}{
		{"all", Options{}, true, true, true, true, true},
		{"no externalId filter", Options{Filters: FiltersNoExternalID}, true, false, true, true, true},
		{"no filters, no PATCH", Options{Filters: FiltersNone, NoPatch: true}, false, false, true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.BearerToken = "tok"
			_, c := start(t, New(tc.opts), creds)
			u := must(c.CreateUser(ctx, newUser("ann@uni.example", "Ann", "A")))(t)
			g := must(c.CreateGroup(ctx, scim.Group{DisplayName: "G", ExternalID: "urn:g"}))(t)
			accepted := func(err error) bool {
				if err != nil && !scim.IsFilterRefused(err) {
					t.Fatalf("unexpected error %v", err)
				}
				return err == nil
			}
			_, err := c.FindUsers(ctx, "userName", u.UserName)
			if got := accepted(err); got != tc.userName {
				t.Errorf("userName filter accepted = %v", got)
			}
			_, err = c.FindUsers(ctx, "externalId", u.ExternalID)
			if got := accepted(err); got != tc.externalID {
				t.Errorf("externalId filter accepted = %v", got)
			}
			page, err := c.ListUsers(ctx, 1, 10)
			if got := accepted(err); got != tc.list || (err == nil && (page.TotalResults != 1 || page.Resources[0].ID != u.ID)) {
				t.Errorf("listing %+v, %v", page, err)
			}
			cfg := must(c.GetServiceProviderConfig(ctx))(t)
			if cfg.Filter.Supported != tc.filterSaid || cfg.Patch.Supported != tc.patch {
				t.Errorf("ServiceProviderConfig %+v", cfg)
			}
			err = c.PatchGroupMembers(ctx, g.ID, scim.PatchAdd, []scim.Member{{Value: u.ID}})
			if tc.patch != (err == nil) {
				t.Errorf("PATCH: %v", err)
			}
			if !tc.patch {
				var se *scim.Error
				if !errors.As(err, &se) || se.Status != 501 {
					t.Errorf("PATCH refused with %v, want 501", err)
				}
			}
		})
	}
}

// TestPatchNoContent: the variant answers a PATCH with 204 and no body, and
// the change is made all the same; a refused PATCH still explains itself.
func TestPatchNoContent(t *testing.T) {
	sp := New(Options{BearerToken: "t", PatchNoContent: true})
	srv := httptest.NewServer(sp.Handler())
	defer srv.Close()
	ctx := context.Background()
	c := scim.NewClient(scim.Target{BaseURL: srv.URL, Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "t"}}, nil)
	a, err := c.CreateUser(ctx, newUser("a@x.example", "A", "A"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.CreateGroup(ctx, scim.Group{DisplayName: "G"})
	if err != nil {
		t.Fatal(err)
	}
	add := `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","path":"members","value":[{"value":"` + a.ID + `"}]}]}`
	resp := do(t, srv, "PATCH", "/v1/Groups/"+g.ID, add)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("PATCH = %d %q, want 204 without a body", resp.StatusCode, body)
	}
	if got := groupMemberIDs(sp.Groups()[0]); !slices.Equal(got, []string{a.ID}) {
		t.Errorf("members after the PATCH = %v, want [%s]", got, a.ID)
	}
	bad := strings.Replace(add, a.ID, "nobody", 1)
	if resp := do(t, srv, "PATCH", "/v1/Groups/"+g.ID, bad); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("PATCH with an unknown member = %d, want 400", resp.StatusCode)
	}
}
