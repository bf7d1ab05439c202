package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/oidc"
)

// identitySettings are how the institution's OpenID provider is used, beyond
// its issuer (OIDC_ISSUER) and the API's audience (OIDC_AUDIENCE):
//
//	OIDC_SCOPES                     scopes asked for at sign-in (default "openid profile email")
//	OIDC_CLAIM_EPPN                 claim of the eduPersonPrincipalName (default eduperson_principal_name)
//	OIDC_CLAIM_EMAIL                … of the e-mail address (default email)
//	OIDC_CLAIM_GIVEN_NAME           … (default given_name)
//	OIDC_CLAIM_FAMILY_NAME          … (default family_name)
//	OIDC_CLAIM_NAME                 … (default name)
//	OIDC_CLAIM_FEDERATED_ID         … of the federated id (default eduid)
//	OIDC_CLAIM_HOME_ORGANIZATION    … of the home organization (default schac_home_organization)
//	OIDC_ACR_ORDER                  authentication contexts, weakest first (commas or spaces)
//	OIDC_INTROSPECTION_CLIENT_ID    set: opaque access tokens are introspected (RFC 7662) as this client
//	OIDC_INTROSPECTION_SECRET       its secret's reference ("env:VAR" or "secretsmanager:name[#key]")
type identitySettings struct {
	Scopes                 []string
	Claims                 oidc.ClaimNames
	Contexts               auth.ContextOrder
	IntrospectionClientID  string
	IntrospectionSecretRef string
}

func identitySettingsFromEnv() (identitySettings, error) {
	list := func(name string) []string {
		return strings.FieldsFunc(os.Getenv(name), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	}
	s := identitySettings{
		Scopes: list("OIDC_SCOPES"),
		Claims: oidc.ClaimNames{
			EduPersonPrincipalName: strings.TrimSpace(os.Getenv("OIDC_CLAIM_EPPN")),
			Email:                  strings.TrimSpace(os.Getenv("OIDC_CLAIM_EMAIL")),
			GivenName:              strings.TrimSpace(os.Getenv("OIDC_CLAIM_GIVEN_NAME")),
			FamilyName:             strings.TrimSpace(os.Getenv("OIDC_CLAIM_FAMILY_NAME")),
			Name:                   strings.TrimSpace(os.Getenv("OIDC_CLAIM_NAME")),
			FedID:                  strings.TrimSpace(os.Getenv("OIDC_CLAIM_FEDERATED_ID")),
			SchacHomeOrganization:  strings.TrimSpace(os.Getenv("OIDC_CLAIM_HOME_ORGANIZATION")),
		},
		Contexts:               list("OIDC_ACR_ORDER"),
		IntrospectionClientID:  strings.TrimSpace(os.Getenv("OIDC_INTROSPECTION_CLIENT_ID")),
		IntrospectionSecretRef: strings.TrimSpace(os.Getenv("OIDC_INTROSPECTION_SECRET")),
	}
	if s.IntrospectionClientID != "" && s.IntrospectionSecretRef == "" {
		return s, errors.New("OIDC_INTROSPECTION_CLIENT_ID is set but OIDC_INTROSPECTION_SECRET (a secret reference) is not")
	}
	return s, nil
}

// checkProvider tells at start-up, in the log, what is wrong with the
// provider's configuration, rather than leaving it to the first person who
// signs in. It runs in the background: a cold start does not wait for the
// provider, and a provider that is down is only a warning.
func checkProvider(logger *slog.Logger, what string, check func(context.Context) error) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		err := check(ctx)
		switch {
		case errors.Is(err, oidc.ErrMisconfigured):
			logger.Error("identity provider misconfigured", "use", what, "problem", err.Error())
		case err != nil:
			logger.Warn("identity provider not reachable at start-up", "use", what, "error", err.Error())
		}
	}()
}
