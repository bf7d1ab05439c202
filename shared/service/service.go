// Package service holds the use cases of the REST API: roles, invitations
// and their acceptance. Each use case validates, authorizes, writes the
// domain change together with the SCIM deliveries it causes in one storage
// transaction (the outbox), and then hands the deliveries to the queue.
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
)

// Registry is the application registry of the configuration document.
type Registry interface {
	Application(manageID string) (domain.Application, bool)
	SPsOfRole(r domain.Role) []domain.ServiceProvider
	// ServiceProvider finds a SCIM target by id.
	ServiceProvider(id string) (domain.ServiceProvider, bool)
}

// MailRenderer renders the service's e-mails.
type MailRenderer interface {
	Invitation(m mail.Invitation) (domain.Email, error)
	Reminder(m mail.Reminder) (domain.Email, error)
	AccessEnded(m mail.AccessEnded) (domain.Email, error)
}

// Service is the set of use cases with their dependencies.
type Service struct {
	Store    domain.Store
	Queue    domain.Queue
	Registry Registry
	Mailer   domain.Mailer
	Renderer MailRenderer
	Clock    domain.Clock
	Logger   *slog.Logger
	// PublicBaseURL is where people open invitation links (the client).
	PublicBaseURL string
	// GroupURNPrefix starts every role URN, the group's externalId at SPs.
	GroupURNPrefix string
	// Lifecycle tunes reminders and expiry; the zero value is the default.
	Lifecycle Lifecycle
	// Session is the session configuration of U6 (users_config.go).
	Session SessionSettings
	// RegistryAdmin manages applications and SCIM connections (nil: not
	// managed here; registry_admin.go).
	RegistryAdmin *RegistryAdmin
	// Reconciler compares SPs with the service and repairs them (the
	// provisioner); nil: reconcile runs are refused as unavailable.
	Reconciler domain.Reconciler
	// ReconcileMaxDeleteShare is the default guard of reconcile runs (0:
	// domain.DefaultMaxDeleteShare).
	ReconcileMaxDeleteShare float64
}

func (s *Service) now() time.Time {
	if s.Clock != nil {
		return s.Clock().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// dispatch puts committed deliveries on the queue and marks them sent. A
// failure here loses nothing: the deliveries stay pending in the table and
// the outbox sweep sends them; so it is logged, not returned.
func (s *Service) dispatch(ctx context.Context, deliveries []domain.Delivery) {
	if len(deliveries) == 0 {
		return
	}
	if err := s.Queue.Enqueue(ctx, deliveries); err != nil {
		s.log().WarnContext(ctx, "deliveries left for the outbox sweep", "count", len(deliveries), "error", err)
		return
	}
	s.dispatchMarkSent(ctx, deliveries)
}

func (s *Service) dispatchMarkSent(ctx context.Context, deliveries []domain.Delivery) {
	for _, d := range deliveries {
		d.Status = domain.DeliverySent
		d.UpdatedAt = s.now()
		if err := s.Store.UpdateDeliveryStatus(ctx, d); err != nil {
			s.log().WarnContext(ctx, "delivery sent but not marked", "delivery", d.ID, "error", err)
		}
	}
}

// newDelivery builds a pending delivery for the current request.
func (s *Service) newDelivery(ctx context.Context, sp domain.ServiceProvider, kind domain.DeliveryKind, userID, roleID int64) domain.Delivery {
	now := s.now()
	return domain.Delivery{ID: domain.NewDeliveryID(now), SPID: sp.ID, OrderKey: domain.OrderKeyOf(sp, kind, userID, roleID),
		Kind: kind, UserID: userID, RoleID: roleID,
		CorrelationID: domain.CorrelationID(ctx), CreatedAt: now, UpdatedAt: now, Status: domain.DeliveryPending}
}
