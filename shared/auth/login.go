package auth

import (
	"context"
	"log/slog"

	"github.com/edu-invite/invite/shared/domain"
)

// LoginObserver keeps a known person's record in step with what the IdP
// asserted at this login (spec 3.1: changed attributes reach every SP where
// the user is known). It returns the user as stored afterwards. The service
// implements it; auth only calls it, so it does not depend on the service.
type LoginObserver interface {
	PersonLoggedIn(ctx context.Context, u domain.User, asserted Person) (domain.User, error)
}

// observeLogin tells the observer of a known person's login. A failure does
// not refuse the request: the person did authenticate, and the next login
// compares the attributes again.
func (a *Authenticator) observeLogin(ctx context.Context, u domain.User, person Person) domain.User {
	if a.OnLogin == nil {
		return u
	}
	updated, err := a.OnLogin.PersonLoggedIn(ctx, u, person)
	if err != nil {
		slog.WarnContext(ctx, "login attributes not synchronized", "user", u.ID, "error", err)
		return u
	}
	return updated
}
