package scimsp

import (
	"context"
	"errors"
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
