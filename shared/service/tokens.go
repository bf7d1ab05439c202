package service

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// PendingTokenLifetime is how long a generated token value may be
// persisted (T1) after it was shown.
const PendingTokenLifetime = 10 * time.Minute

// APITokenInput is the API token request of spec 2.10 (id, hashedValue and
// createdAt are the server's and ignored) plus the optional expiresAt.
type APITokenInput struct {
	Description      string
	OrganizationGUID string
	SuperUserToken   bool
	ExpiresAt        *time.Time
}

// GenerateAPIToken returns a new random token value and remembers only its
// hash, bound to the caller, for PendingTokenLifetime: the stateless
// equivalent of the reference service's session attribute. The value is
// shown here once; CreateAPIToken persists it.
func (s *Service) GenerateAPIToken(ctx context.Context, p *auth.Principal) (string, error) {
	if err := requireTokenAdmin(p); err != nil {
		return "", err
	}
	raw, err := newTokenValue()
	if err != nil {
		return "", err
	}
	err = s.Store.PutPendingAPIToken(ctx, domain.PendingAPIToken{CallerKey: tokenCallerKey(p), HashedValue: auth.HashToken(raw),
		ExpiresAt: s.now().Add(PendingTokenLifetime)})
	if err != nil {
		return "", err
	}
	return raw, nil
}

// CreateAPIToken is T1: it persists the token value the caller generated
// last, with a description. Super users create super-user tokens
// (superUserToken) or tokens of any organization; institution admins
// tokens of their own organization.
func (s *Service) CreateAPIToken(ctx context.Context, p *auth.Principal, in APITokenInput) (domain.APIToken, error) {
	if err := requireTokenAdmin(p); err != nil {
		return domain.APIToken{}, err
	}
	tok := domain.APIToken{Description: strings.TrimSpace(in.Description), OrganizationGUID: strings.TrimSpace(in.OrganizationGUID),
		SuperUserToken: in.SuperUserToken, CreatedAt: s.now(), Owner: p.Name, ExpiresAt: in.ExpiresAt}
	if tok.Description == "" {
		return domain.APIToken{}, domain.Invalidf("description is required")
	}
	if err := checkTexts(line("description", tok.Description), line("organizationGUID", tok.OrganizationGUID)); err != nil {
		return domain.APIToken{}, err
	}
	if err := domain.CheckFutureDate("expiresAt", tok.ExpiresAt, tok.CreatedAt); err != nil {
		return domain.APIToken{}, err
	}
	switch {
	case p.SuperUser:
		if !tok.SuperUserToken && tok.OrganizationGUID == "" {
			return domain.APIToken{}, domain.Invalidf("organizationGUID is required for a token that is not a super-user token")
		}
	case tok.SuperUserToken:
		return domain.APIToken{}, domain.Forbiddenf("only super users may create super-user tokens")
	case tok.OrganizationGUID != "" && tok.OrganizationGUID != p.OrganizationGUID:
		return domain.APIToken{}, domain.Forbiddenf("institution admins create tokens of their own organization only")
	default:
		tok.OrganizationGUID = p.OrganizationGUID
	}
	pending, err := s.Store.GetPendingAPIToken(ctx, tokenCallerKey(p))
	if domain.IsNotFound(err) {
		return domain.APIToken{}, domain.Invalidf("no generated token to persist: call GET /api/v1/tokens/generate-token first (a value is valid for %d minutes)",
			int(PendingTokenLifetime/time.Minute))
	}
	if err != nil {
		return domain.APIToken{}, err
	}
	tok.HashedValue = pending.HashedValue
	// Ids come from a sequence; a taken id (a token stored with a fixed id)
	// costs another reservation.
	for attempt := 0; ; attempt++ {
		if tok.ID, err = s.Store.NextIDs(ctx, "apitoken", 1); err != nil {
			return domain.APIToken{}, err
		}
		err = s.Store.CreateAPITokenFromPending(ctx, pending, tok)
		if err == nil {
			break
		}
		if !errors.Is(err, domain.ErrAPITokenIDTaken) || attempt == 9 {
			return domain.APIToken{}, err
		}
	}
	s.log().InfoContext(ctx, "API token created", "token", tok.ID, "organization", tok.OrganizationGUID, "superUserToken", tok.SuperUserToken)
	return tok, nil
}

// ListAPITokens returns the tokens the caller may manage: every token for
// super users, the organization tokens of their organization for
// institution admins.
func (s *Service) ListAPITokens(ctx context.Context, p *auth.Principal) ([]domain.APIToken, error) {
	if err := requireTokenAdmin(p); err != nil {
		return nil, err
	}
	org := ""
	if !p.SuperUser {
		org = p.OrganizationGUID
	}
	toks, err := s.Store.ListAPITokens(ctx, org)
	if err != nil {
		return nil, err
	}
	out := toks[:0]
	for _, t := range toks {
		if p.CanManageToken(t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// DeleteAPIToken deletes a token the caller may manage; from then on it
// authenticates nobody.
func (s *Service) DeleteAPIToken(ctx context.Context, p *auth.Principal, id int64) error {
	if err := requireTokenAdmin(p); err != nil {
		return err
	}
	tok, err := s.Store.GetAPIToken(ctx, id)
	if err != nil {
		return err
	}
	if !p.CanManageToken(tok) {
		if !p.SuperUser && tok.OrganizationGUID != p.OrganizationGUID {
			return domain.NotFoundf("API token %d not found", id) // as the store answers a missing one
		}
		return domain.Forbiddenf("no access to API token %d", id)
	}
	if err := s.Store.DeleteAPIToken(ctx, tok); err != nil {
		return err
	}
	s.log().InfoContext(ctx, "API token deleted", "token", tok.ID, "by", p.LogID())
	return nil
}

// CleanupAPITokens deletes tokens whose expiresAt has passed (part of the
// cleanup job, S6) and returns how many.
func (s *Service) CleanupAPITokens(ctx context.Context) (int, error) {
	removed := 0
	now := s.now()
	for {
		// A token expires at its expiresAt, which the half-open range must include.
		toks, err := s.Store.ListAPITokensExpiringBetween(ctx, now.Add(-s.lookback()), now.Add(time.Nanosecond), jobBatch)
		if err != nil {
			return removed, err
		}
		for _, t := range toks {
			if err := s.Store.DeleteAPIToken(ctx, t); err != nil {
				return removed, err
			}
		}
		removed += len(toks)
		if len(toks) < jobBatch {
			return removed, nil
		}
	}
}

func requireTokenAdmin(p *auth.Principal) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	if !p.CanAdministerTokens() {
		return domain.Forbiddenf("only super users and institution admins manage API tokens")
	}
	return nil
}

// tokenCallerKey binds a pending token to its caller: the person's subject,
// or the name of the API token that called.
func tokenCallerKey(p *auth.Principal) string {
	if p.Person != nil {
		return "person:" + p.Person.Sub
	}
	return "token:" + p.Name
}

// newTokenValue returns 32 random bytes, URL-safe base64 (43 characters).
func newTokenValue() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
