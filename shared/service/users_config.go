package service

import (
	"strings"

	"github.com/edu-invite/invite/shared/auth"
)

// SessionSettings are the configured parts of the session configuration
// (U6). Empty URLs default to the service's PublicBaseURL; Languages to
// "en,nl"; Environment to "local".
type SessionSettings struct {
	ClientURL                     string
	WelcomeURL                    string
	ServerURL                     string
	ServerWelcomeURL              string
	FedIDEntityID                 string
	FedIDIdpSchacHomeOrganization string
	Languages                     string
	Environment                   string
	RoleSearchRequired            bool
	PastDateAllowed               bool
	// PerformanceSeedAllowed enables S1; off by default, so that a
	// production installation cannot be filled with seed data by mistake.
	PerformanceSeedAllowed bool
	AcrRequirements        []AcrRequirement
}

// AcrRequirement names an authentication context class and where it is explained.
type AcrRequirement struct {
	Key string `json:"key"`
	URL string `json:"url"`
}

// SessionConfig is the session configuration of spec 2.10.
type SessionConfig struct {
	ClientURL                     string           `json:"clientUrl"`
	WelcomeURL                    string           `json:"welcomeUrl"`
	ServerURL                     string           `json:"serverUrl"`
	ServerWelcomeURL              string           `json:"serverWelcomeUrl"`
	FedIDEntityID                 string           `json:"fedidEntityId"`
	RoleSearchRequired            bool             `json:"roleSearchRequired"`
	PastDateAllowed               bool             `json:"pastDateAllowed"`
	PerformanceSeedAllowed        bool             `json:"performanceSeedAllowed"`
	GroupURNPrefix                string           `json:"groupUrnPrefix"`
	Authenticated                 bool             `json:"authenticated"`
	Name                          string           `json:"name,omitempty"`
	FedIDIdpSchacHomeOrganization string           `json:"fedidIdpSchacHomeOrganization"`
	MissingAttributes             []string         `json:"missingAttributes,omitempty"`
	Languages                     string           `json:"languages"`
	Environment                   string           `json:"environment"`
	AcrRequirements               []AcrRequirement `json:"acrRequirements"`
}

// SessionConfig is U6. It works anonymously (authenticated false).
// authenticated is true for a person known to the service and for API
// tokens; a signed-in person not yet known is not authenticated yet (as in
// the reference: they have to accept an invitation first) and is told which
// required attributes their login lacks. guest asks for the guest view,
// for which the e-mail is enough.
func (s *Service) SessionConfig(p *auth.Principal, guest bool) SessionConfig {
	set := s.Session
	or := func(v, def string) string {
		if strings.TrimSpace(v) == "" {
			return def
		}
		return v
	}
	base := strings.TrimRight(s.PublicBaseURL, "/")
	c := SessionConfig{
		ClientURL: or(set.ClientURL, base), WelcomeURL: or(set.WelcomeURL, base), ServerURL: or(set.ServerURL, base),
		ServerWelcomeURL: or(set.ServerWelcomeURL, base), FedIDEntityID: set.FedIDEntityID,
		RoleSearchRequired: set.RoleSearchRequired, PastDateAllowed: set.PastDateAllowed,
		PerformanceSeedAllowed: set.PerformanceSeedAllowed, GroupURNPrefix: s.urnPrefix(),
		FedIDIdpSchacHomeOrganization: set.FedIDIdpSchacHomeOrganization,
		Languages:                     or(set.Languages, "en,nl"), Environment: or(set.Environment, "local"),
		AcrRequirements: append([]AcrRequirement{}, set.AcrRequirements...),
	}
	switch {
	case p == nil:
	case p.Person == nil:
		c.Authenticated, c.Name = true, p.Name
	case p.User != nil:
		c.Authenticated, c.Name = true, p.User.DisplayName()
	default:
		c.Name = userFromClaims(*p.Person).DisplayName()
		c.MissingAttributes = missingAttributes(*p.Person, guest)
	}
	return c
}

// missingAttributes lists the claims a person needs and lacks: the e-mail
// always; for institution members (not guests) also the names and the home
// organization, which roles and SCIM users are built from.
func missingAttributes(c auth.Person, guest bool) []string {
	var missing []string
	check := func(name, v string) {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	check("email", c.Email)
	if !guest {
		check("givenName", c.GivenName)
		check("familyName", c.FamilyName)
		check("schacHomeOrganization", c.SchacHomeOrganization)
	}
	return missing
}
