package app

import (
	"context"
	"errors"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/oidc"
)

// personVerifier adapts the OIDC verifier to the authenticator's port.
type personVerifier struct{ v *oidc.Verifier }

func (p personVerifier) VerifyPerson(ctx context.Context, raw string) (auth.Person, error) {
	c, err := p.v.Verify(ctx, raw)
	if errors.Is(err, oidc.ErrProviderUnavailable) {
		return auth.Person{}, domain.Unavailablef("the identity provider cannot be reached; try again")
	}
	if err != nil {
		return auth.Person{}, err
	}
	return auth.Person{Sub: c.Subject, EduPersonPrincipalName: c.EduPersonPrincipalName, SchacHomeOrganization: c.SchacHomeOrganization,
		Email: c.Email, GivenName: c.GivenName, FamilyName: c.FamilyName, Name: c.Name, SubjectID: c.SubjectID, UID: c.UID, FedID: c.FedID}, nil
}
