// Package service holds the use cases of the REST API: roles, invitations
// and their acceptance. Each use case validates, authorizes, writes the
// domain change together with the SCIM deliveries it causes in one storage
// transaction (the outbox), and then hands the deliveries to the queue.
//
// One file per use case or group of them (acceptance.go, roles.go,
// crm_profile.go, …); the write steps they share have one home each:
// audit.go (audit entries), outbox.go (deliveries: newDelivery, dispatch,
// the sweep) and ids.go. Accept in acceptance.go is the path to read first.
package service

import (
	"log/slog"
	"time"

	"github.com/edu-invite/invite/shared/auth"
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
	// MembersSearchBound is how many members of a role U9 reads to filter
	// by a query or sort by another field than the name (0:
	// DefaultMembersSearchBound).
	MembersSearchBound int
	// MembersListedBound is how many members one unpaged answer holds
	// (U10, the consequences of a role's deletion; 0: MaxMembersListed).
	MembersListedBound int
	// RoleDeletionBudget is how many members a role's DELETE request
	// removes itself before it hands the rest to a role deletion job (0:
	// DefaultRoleDeletionBudget).
	RoleDeletionBudget int
	// RoleMoveBudget is how many members a role's move to another
	// organization carries in its request (DefaultRoleMoveBudget when 0);
	// a role move job carries the rest.
	RoleMoveBudget int
	// CRMProfilesBound is how many profiles a CRM profile search by
	// organisation answers (DefaultCRMProfilesBound when 0).
	CRMProfilesBound int
	// Lifecycle tunes reminders and expiry; the zero value is the default.
	Lifecycle Lifecycle
	// Session is the session configuration of U6 (users_config.go).
	Session SessionSettings
	// Contexts orders the authentication contexts (acr values), weakest
	// first, so that a stronger sign-in meets a role asking for a weaker
	// one; empty means exact matches only.
	Contexts auth.ContextOrder
	// RegistryAdmin manages applications and SCIM connections (nil: not
	// managed here; registry_admin.go).
	RegistryAdmin *RegistryAdmin
	// Reconciler compares SPs with the service and repairs them (the
	// provisioner); nil: reconcile runs are refused as unavailable.
	Reconciler domain.Reconciler
	// ReconcileMaxDeleteShare is the default guard of reconcile runs (0:
	// domain.DefaultMaxDeleteShare).
	ReconcileMaxDeleteShare float64
	// Jobs starts on-demand jobs in a function that has the time for them
	// (the jobs function in AWS); nil: they run in this process.
	Jobs domain.JobStarter
	// InvitationsPerDay bounds the invitations one inviter creates in a day
	// (UTC): 0 is DefaultInvitationsPerDay, negative no limit.
	InvitationsPerDay int
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
