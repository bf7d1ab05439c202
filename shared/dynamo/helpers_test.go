package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// testNow is the fixed time of the tests' clock.
var testNow = time.Date(2025, 3, 14, 9, 26, 53, 589793000, time.UTC)

func newStore(t *testing.T) *dynamo.Store {
	t.Helper()
	return dynamotest.NewStore(t, func() time.Time { return testNow })
}

func ctx(t *testing.T) context.Context { return t.Context() }

func role(id int64, name string, manageIDs ...string) domain.Role {
	r := domain.Role{
		ID:               id,
		Name:             name,
		ShortName:        domain.ShortNameOf(name),
		Description:      "role " + name,
		OrganizationGUID: "org-1",
		Auditable:        domain.Auditable{CreatedAt: testNow, CreatedBy: "admin"},
	}
	for i, m := range manageIDs {
		r.ApplicationUsages = append(r.ApplicationUsages, domain.ApplicationUsage{
			ID:          int64(i + 1),
			LandingPage: "https://" + m + "/landing",
			Application: domain.Application{ManageID: m, ManageType: "SAML20_SP", ProvisioningIDs: []string{"sp-" + m}},
		})
	}
	return r
}

func delivery(id string, kind domain.DeliveryKind, created time.Time) domain.Delivery {
	return domain.Delivery{ID: id, SPID: "sp-1", Kind: kind, RoleID: 1, CreatedAt: created}
}

func mustNotFound(t *testing.T, err error) {
	t.Helper()
	if !domain.IsNotFound(err) {
		t.Fatalf("want not found, got %v", err)
	}
}

func mustKind(t *testing.T, err error, kind domain.ErrorKind) {
	t.Helper()
	if domain.KindOf(err) != kind {
		t.Fatalf("want error of kind %d, got %v", kind, err)
	}
}

func mustVersionConflict(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, domain.ErrVersionConflict) {
		t.Fatalf("want version conflict, got %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func roleNames(roles []domain.Role) string {
	var s string
	for _, r := range roles {
		s += fmt.Sprintf("%d:%s ", r.ID, r.Name)
	}
	return s
}

func id(n int64) string { return fmt.Sprint(n) }
