package service

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// Defaults and bounds of the performance seed (S1).
const (
	DefaultSeedRoles = 500
	DefaultSeedUsers = 75000
	maxSeedRoles     = 10000
	maxSeedUsers     = 200000
)

// SeedResult says what the performance seed wrote.
type SeedResult struct {
	Roles     int   `json:"roles"`
	Users     int   `json:"users"`
	UserRoles int   `json:"userRoles"`
	FirstRole int64 `json:"firstRoleId"`
	FirstUser int64 `json:"firstUserId"`
}

// seedFirstNames and seedFamilyNames make seeded users searchable by names
// that repeat, as real ones do.
var (
	seedFirstNames  = []string{"Anna", "Bram", "Chris", "Daan", "Eva", "Femke", "Gijs", "Hanna", "Ivo", "Julia", "Kees", "Lotte"}
	seedFamilyNames = []string{"Jansen", "de Vries", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos", "Vos"}
)

// PerformanceSeed is S1 (super users, and only where the configuration
// allows it): numberOfRoles roles and numberOfUsers users, each user a
// GUEST of one role (round robin), written with batch writes through the
// store's Seed, which writes the same index items as every user write.
// Seed data are not provisioned: the roles have no applications and no
// SCIM deliveries are written or sent.
func (s *Service) PerformanceSeed(ctx context.Context, p *auth.Principal, numberOfRoles, numberOfUsers int) (SeedResult, error) {
	if err := s.checkSeed(p, numberOfRoles, numberOfUsers); err != nil {
		return SeedResult{}, err
	}
	firstRole, err := s.Store.NextIDs(ctx, "role", numberOfRoles)
	if err != nil {
		return SeedResult{}, err
	}
	var firstUser, firstUserRole int64
	if numberOfUsers > 0 {
		if firstUser, err = s.Store.NextIDs(ctx, "user", numberOfUsers); err != nil {
			return SeedResult{}, err
		}
		if firstUserRole, err = s.Store.NextIDs(ctx, "userrole", numberOfUsers); err != nil {
			return SeedResult{}, err
		}
	}
	now := s.now()
	// The run's first ids make names, subs and e-mails unique across runs.
	run := fmt.Sprintf("%d", firstRole)
	var seed domain.Seed
	for i := range numberOfRoles {
		id := firstRole + int64(i)
		name := fmt.Sprintf("Performance role %s-%d", run, i)
		short := domain.ShortNameOf(name)
		seed.Roles = append(seed.Roles, domain.Role{ID: id, Name: name, ShortName: short, Description: "Seeded for performance tests",
			URN: fmt.Sprintf("%s:%d:%s", s.urnPrefix(), id, short), Identifier: newIdentifier(), DefaultExpiryDays: 365,
			OrganizationGUID: "performance-seed", RemoteAPIUser: p.Name,
			Auditable: domain.Auditable{CreatedAt: now, CreatedBy: p.Name, UpdatedAt: now, UpdatedBy: p.Name}})
	}
	endDate := now.Add(365 * 24 * time.Hour)
	for i := range numberOfUsers {
		id := firstUser + int64(i)
		given, family := seedFirstNames[i%len(seedFirstNames)], seedFamilyNames[(i/len(seedFirstNames))%len(seedFamilyNames)]
		local := fmt.Sprintf("seed.%d", id)
		seed.Users = append(seed.Users, domain.User{ID: id, Sub: "urn:collab:person:seed.example.org:" + local,
			EduPersonPrincipalName: local + "@seed.example.org", SchacHomeOrganization: "seed.example.org",
			GivenName: given, FamilyName: family, Name: given + " " + family, Email: local + "@seed.example.org",
			CreatedAt: now, LastActivity: now})
		end := endDate
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: firstUserRole + int64(i), UserID: id,
			RoleID: firstRole + int64(i%numberOfRoles), Inviter: p.Name, EndDate: &end, CreatedAt: now,
			Authority: domain.Guest, Language: domain.English})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		return SeedResult{}, err
	}
	return SeedResult{Roles: numberOfRoles, Users: numberOfUsers, UserRoles: numberOfUsers, FirstRole: firstRole, FirstUser: firstUser}, nil
}

// checkSeed is who may seed, and the bounds of its sizes.
func (s *Service) checkSeed(p *auth.Principal, numberOfRoles, numberOfUsers int) error {
	switch {
	case p == nil:
		return domain.Unauthenticatedf("authentication required")
	case !p.SuperUser:
		return domain.Forbiddenf("super users only")
	case !s.Session.PerformanceSeedAllowed:
		return domain.Forbiddenf("the performance seed is not enabled in this installation")
	case numberOfRoles < 1 || numberOfRoles > maxSeedRoles:
		return domain.Invalidf("numberOfRole must be from 1 to %d", maxSeedRoles)
	case numberOfUsers < 0 || numberOfUsers > maxSeedUsers:
		return domain.Invalidf("numberOfUsers must be from 0 to %d", maxSeedUsers)
	}
	return nil
}
