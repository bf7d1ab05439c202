package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/oidc"
)

// personVerifier adapts the OIDC verifier to the authenticator's port.
type personVerifier struct {
	v      *oidc.Verifier
	logger *slog.Logger
}

func (p personVerifier) VerifyPerson(ctx context.Context, raw string) (auth.Person, error) {
	c, err := p.v.Verify(ctx, raw)
	if errors.Is(err, oidc.ErrProviderUnavailable) {
		return auth.Person{}, providerError(ctx, p.logger, err)
	}
	if err != nil {
		return auth.Person{}, err
	}
	if c.IsClient() {
		return auth.Person{}, &auth.ClientBearer{ClientID: c.ClientID}
	}
	return personOf(c), nil
}

// providerError is what a caller is told when the provider could not judge
// a credential, with the cause in the log: a misconfiguration names what to
// fix rather than reading as an outage.
func providerError(ctx context.Context, logger *slog.Logger, err error) error {
	if errors.Is(err, oidc.ErrMisconfigured) {
		logger.ErrorContext(ctx, "identity provider misconfigured", "problem", err.Error())
		return domain.Unavailablef("the identity provider is not configured correctly; the service's log says what to fix")
	}
	logger.WarnContext(ctx, "identity provider cannot be reached", "error", err.Error())
	return domain.Unavailablef("the identity provider cannot be reached; try again")
}

// signIn adapts the OIDC relying party to the pages' port.
type signIn struct {
	rp     *oidc.RelyingParty
	logger *slog.Logger
}

func (s signIn) AuthCodeURL(ctx context.Context, state, nonce, verifier, acr string, freshLogin bool) (string, error) {
	u, err := s.rp.AuthCodeURL(ctx, state, nonce, verifier, acr, freshLogin)
	if errors.Is(err, oidc.ErrProviderUnavailable) {
		return "", providerError(ctx, s.logger, err)
	}
	return u, err
}

func (s signIn) Exchange(ctx context.Context, code, verifier, nonce string) (auth.Person, string, error) {
	c, idToken, err := s.rp.Exchange(ctx, code, verifier, nonce)
	if errors.Is(err, oidc.ErrProviderUnavailable) {
		return auth.Person{}, "", providerError(ctx, s.logger, err)
	}
	if err != nil {
		return auth.Person{}, "", err
	}
	return personOf(c), idToken, nil
}

func (s signIn) VerifyLogoutToken(ctx context.Context, raw string) (string, error) {
	sub, _, err := s.rp.VerifyLogoutToken(ctx, raw)
	if errors.Is(err, oidc.ErrProviderUnavailable) {
		return "", providerError(ctx, s.logger, err)
	}
	return sub, err
}

func (s signIn) EndSessionURL(ctx context.Context, idTokenHint, postLogoutRedirect string) string {
	return s.rp.EndSessionURL(ctx, idTokenHint, postLogoutRedirect)
}

func personOf(c oidc.Claims) auth.Person {
	return auth.Person{Sub: c.Subject, EduPersonPrincipalName: c.EduPersonPrincipalName, SchacHomeOrganization: c.SchacHomeOrganization,
		Email: c.Email, GivenName: c.GivenName, FamilyName: c.FamilyName, Name: c.Name, SubjectID: c.SubjectID, UID: c.UID, FedID: c.FedID, ACR: c.ACR}
}
