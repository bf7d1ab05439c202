package service

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/auth"
)

// DefaultInvitationsPerDay is how many invitations one inviter may create
// in a day (UTC) when Service.InvitationsPerDay is 0: far above what a
// person or a CRM sends, low enough that a stolen account or token cannot
// make the service a mass mailer.
const DefaultInvitationsPerDay = 2000

// reserveInvitations counts n new invitations against the caller's daily
// limit, before anything is written; a refused request changes nothing.
// The inviter is counted by its log id: a person by account, a program by
// its name (so every token counts apart).
func (s *Service) reserveInvitations(ctx context.Context, p *auth.Principal, n int) error {
	limit := s.InvitationsPerDay
	switch {
	case limit < 0:
		return nil
	case limit == 0:
		limit = DefaultInvitationsPerDay
	}
	return s.Store.ReserveInvitations(ctx, p.LogID(), s.now().Format(time.DateOnly), n, limit)
}
