package service

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The console's queries: what a signed-in person may do on a role, and the
// state of a role's members at its SPs in one read. The console asks these
// instead of copying the rules of shared/auth.

// RoleRights is what a caller may do on one role; the console offers only
// these actions, and every action is authorized again by its use case.
type RoleRights struct {
	SeeMembers         bool
	Manage             bool
	ChangeApplications bool
	// Grantable are the authorities the caller may invite with, lowest
	// first; empty when the caller may not invite to the role.
	Grantable []domain.Authority
}

// inviteLadder is every authority an invitation to a role may carry.
var inviteLadder = []domain.Authority{domain.Guest, domain.Inviter, domain.Manager, domain.ApplicationManager, domain.InstitutionAdmin}

// RightsOn answers RoleRights for a caller and a role.
func RightsOn(p *auth.Principal, r domain.Role) RoleRights {
	if p == nil {
		return RoleRights{}
	}
	out := RoleRights{SeeMembers: p.CanSeeMembers(r), Manage: p.CanManageRole(r), ChangeApplications: auth.MayChangeRoleApplications(p, r)}
	for _, a := range inviteLadder {
		if p.CanInvite(r, a) {
			out.Grantable = append(out.Grantable, a)
		}
	}
	return out
}

// MayRemove reports whether the caller may end a member's membership.
func MayRemove(p *auth.Principal, r domain.Role, ur domain.UserRole) bool {
	return p.CanRemoveMembership(r, ur, ur.Authority)
}

// MayCreateRoles reports whether the caller may create a role anywhere:
// super users anywhere, institution admins in their organization.
func MayCreateRoles(p *auth.Principal) bool {
	return p != nil && (p.SuperUser || (p.OrganizationGUID != "" && p.CanCreateRoleIn(p.OrganizationGUID)))
}

// MayListRoles reports whether the caller has a role list at all.
func MayListRoles(p *auth.Principal) bool { return auth.RoleListScopeOf(p) != auth.RolesNone }

// MaySearchUsers reports whether the caller may search users.
func MaySearchUsers(p *auth.Principal) bool {
	_, _, ok := p.UserSearchScope()
	return ok
}

// CheckRecipient answers the address as an invitation would store it, or
// the reason it cannot be invited (the rule of Invite, one address).
func CheckRecipient(s string) (string, error) { return normalizeEmail(s) }

// ApplicationChoices are the applications a role may be linked to, by
// name, for those who may change a role's applications.
func (s *Service) ApplicationChoices() []domain.Application {
	c := s.registryCatalogue()
	if c == nil {
		return nil
	}
	apps := c.Applications()
	sort.Slice(apps, func(i, j int) bool { return apps[i].Name < apps[j].Name })
	return apps
}

// ApplicationChoicesFor are the applications a role of an organization may
// use, for the role form: the organization's own and platform ones
// (without an organization). A super user creating a role of no named
// organization yet sees every application; the service refuses a mismatch
// on saving (checkApplicationsOfOrganization).
func (s *Service) ApplicationChoicesFor(p *auth.Principal, organizationGUID string) []domain.Application {
	if organizationGUID == "" && p != nil && !p.SuperUser {
		organizationGUID = p.OrganizationGUID
	}
	apps := s.ApplicationChoices()
	if organizationGUID == "" && p != nil && p.SuperUser {
		return apps
	}
	var out []domain.Application
	for _, a := range apps {
		if a.OrganizationGUID == "" || a.OrganizationGUID == organizationGUID {
			out = append(out, a)
		}
	}
	return out
}

// SPName is the display name of an SP, its id when it has none.
func (s *Service) SPName(id string) string {
	if sp, ok := s.Registry.ServiceProvider(id); ok && sp.Name != "" {
		return sp.Name
	}
	return id
}

// MembersProvisioning is where each member of a role stands at each SP of
// the role, by user id: pending where nothing was delivered yet. The
// caller must be allowed to see the role's members.
func (s *Service) MembersProvisioning(ctx context.Context, p *auth.Principal, role domain.Role, members []domain.Member) (map[int64][]ProvisioningStatus, error) {
	if !p.CanSeeMembers(role) {
		return nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", role.ID))
	}
	spIDs := s.spIDsOfRole(role)
	if len(spIDs) == 0 || len(members) == 0 {
		return map[int64][]ProvisioningStatus{}, nil
	}
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.User.ID
	}
	byUser := map[int64][]domain.SPLink{}
	links, err := s.Store.GetLinksOf(ctx, domain.ResourceUser, ids, spIDs)
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		byUser[l.LocalID] = append(byUser[l.LocalID], l)
	}
	gl, err := s.Store.ListLinks(ctx, domain.ResourceGroup, role.ID)
	if err != nil {
		return nil, err
	}
	return memberStatuses(members, byUser, spIDs, gl), nil
}

// memberStatuses is where each member stands at each of the SPs, from
// their links by user id (links to other SPs are left out).
//
// A member is at an SP only when the role's group is: where the group
// failed (groupLinks), the member is failed too, with the group's reason.
func memberStatuses(members []domain.Member, byUser map[int64][]domain.SPLink, spIDs []string, groupLinks []domain.SPLink) map[int64][]ProvisioningStatus {
	groups := failedGroups{}
	groups.add(groupLinks)
	out := make(map[int64][]ProvisioningStatus, len(members))
	if len(spIDs) == 0 {
		return out
	}
	for _, m := range members {
		if !m.UserRole.Provisioned() {
			// An inviter or manager who is not also a guest is never at
			// the applications: no state there to wait for.
			continue
		}
		expected := map[string]bool{}
		for _, sp := range spIDs {
			expected[sp] = true
		}
		var links []domain.SPLink
		for _, l := range byUser[m.User.ID] {
			if expected[l.SPID] {
				links = append(links, l)
			}
		}
		out[m.User.ID] = groups.apply(statuses(links, expected), false)
	}
	return out
}

// MayChangeEndDate reports whether the caller may change when a membership
// ends: whoever could grant the membership's authority on the role
// (auth.CanChangeEndDate); for their own membership only to shorten it
// (UpdateEndDate checks the date).
func MayChangeEndDate(p *auth.Principal, role domain.Role, ur domain.UserRole) bool {
	return p.CanChangeEndDate(role, ur)
}

// DeadLetterSummary is the dead letters of one SP: how many, since when,
// and the deliveries themselves (oldest first).
type DeadLetterSummary struct {
	SPID       string
	SPName     string
	Deliveries []domain.Delivery
}

// DeadLetters lists the dead letters of every SP the applications
// provision (super users only): one Query per SP.
func (s *Service) DeadLetters(ctx context.Context, p *auth.Principal) ([]DeadLetterSummary, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []DeadLetterSummary
	for _, app := range s.ApplicationChoices() {
		for _, id := range app.ProvisioningIDs {
			if seen[id] {
				continue
			}
			seen[id] = true
			ds, err := s.FailedDeliveries(ctx, p, id)
			if err != nil {
				return nil, err
			}
			out = append(out, DeadLetterSummary{SPID: id, SPName: s.SPName(id), Deliveries: ds})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SPName < out[j].SPName })
	return out, nil
}

// MayAdministerTokens reports whether the caller has the API token page.
func MayAdministerTokens(p *auth.Principal) bool { return p.CanAdministerTokens() }

// CreateAPITokenValue generates a token value and persists it at once
// (T1 in one step, for the console): the value is returned here only.
func (s *Service) CreateAPITokenValue(ctx context.Context, p *auth.Principal, in APITokenInput) (domain.APIToken, string, error) {
	raw, err := s.GenerateAPIToken(ctx, p)
	if err != nil {
		return domain.APIToken{}, "", err
	}
	tok, err := s.CreateAPIToken(ctx, p, in)
	if err != nil {
		return domain.APIToken{}, "", err
	}
	return tok, raw, nil
}

// PersonAudit is a person's history as the caller may read it: every
// entry of the person for super users, else the entries in the roles
// whose audit the caller may search; newest first, at most limit.
func (s *Service) PersonAudit(ctx context.Context, p *auth.Principal, userID int64, roleIDs []int64, limit int) ([]domain.AuditEntry, error) {
	f := domain.AuditFilter{UserID: userID}
	req := domain.PageRequest{Size: limit, Sort: "createdAt", Descending: true}
	if p != nil && p.SuperUser {
		page, err := s.SearchAuditFiltered(ctx, p, f, req)
		return page.Items, err
	}
	var out []domain.AuditEntry
	for _, id := range roleIDs {
		role, err := s.Store.GetRole(ctx, id)
		if domain.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !p.CanSearchAudit(&role) {
			continue
		}
		f.RoleID = id
		page, err := s.SearchAuditFiltered(ctx, p, f, req)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out[:min(len(out), limit)], nil
}

// ScheduledJobs are the scheduled functions whose last run the console
// shows, by the name of their Lambda.
var ScheduledJobs = []string{"expiry", "cleanup", "outbox-sweep", "reconcile"}

// RecordJobRun stores how a scheduled job's run went. A failure to record
// is logged, never the job's failure.
func (s *Service) RecordJobRun(ctx context.Context, name string, started time.Time, result any, runErr error) {
	s.finishJobRun(ctx, domain.JobRun{Name: name, StartedAt: started}, result, runErr)
}

// finishJobRun records the outcome of a run: an on-demand run keeps when
// it was queued and started.
func (s *Service) finishJobRun(ctx context.Context, run domain.JobRun, result any, runErr error) {
	if run.StartedAt.IsZero() {
		run.StartedAt = s.now()
	}
	run.FinishedAt, run.Failed = s.now(), runErr != nil
	if runErr != nil {
		run.Summary = runErr.Error()
	} else if raw, err := json.Marshal(result); err == nil {
		run.Summary = string(raw)
	}
	// A scheduled job's summary is counts; an on-demand job's (its name
	// has an id after #) is the report the caller polls for, kept whole
	// within an item's size.
	limit := 1000
	if strings.Contains(run.Name, "#") {
		limit = 350_000
	}
	if len(run.Summary) > limit {
		run.Summary = run.Summary[:limit]
	}
	if err := s.Store.PutJobRun(ctx, run); err != nil {
		s.log().WarnContext(ctx, "job run not recorded", "job", run.Name, "error", err)
	}
}

// JobRuns are the last runs of the scheduled jobs (super users only), one
// per job in ScheduledJobs' order; a job that never ran has a zero
// StartedAt.
func (s *Service) JobRuns(ctx context.Context, p *auth.Principal) ([]domain.JobRun, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	byName := map[string]domain.JobRun{}
	runs, err := s.Store.GetJobRuns(ctx, ScheduledJobs)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		byName[r.Name] = r
	}
	out := make([]domain.JobRun, len(ScheduledJobs))
	for i, n := range ScheduledJobs {
		r := byName[n]
		r.Name = n
		out[i] = r
	}
	return out, nil
}

// InvitableRoles is one page of the roles the caller may invite to: the
// page of the role list (ListRoles, with its word search and sort: the
// store's sorted listing, or the few roles the caller holds, read by id)
// without the roles where the caller has no grantable authority. A page
// costs what a role list page costs however many roles the scope holds;
// the page may hold fewer than its size when some roles are left out.
func (s *Service) InvitableRoles(ctx context.Context, p *auth.Principal, req domain.PageRequest) (domain.Page[domain.Role], error) {
	page, _, err := s.listRoles(ctx, p, req, false, false) // the form shows no member counts
	if err != nil {
		return domain.Page[domain.Role]{}, err
	}
	page.Items = slices.DeleteFunc(page.Items, func(r domain.Role) bool { return len(RightsOn(p, r).Grantable) == 0 })
	return page, nil
}

// MaxChosenRoles bounds the roles one invitation form shows as chosen
// (read by id), so that a posted form cannot make the page read more.
const MaxChosenRoles = 100

// ChosenInvitableRoles are the roles of ids (the first MaxChosenRoles, in
// their order, each once) that the caller may invite to, read by id: a
// role the caller may not invite to, of another organization or gone, is
// left out as a missing one (Invite refuses it again when the form is
// sent).
func (s *Service) ChosenInvitableRoles(ctx context.Context, p *auth.Principal, ids []int64) ([]domain.Role, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	ids = ids[:min(len(ids), MaxChosenRoles)]
	if len(ids) == 0 {
		return nil, nil
	}
	roles, err := s.Store.GetRoles(ctx, ids)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(roles, func(r domain.Role) bool { return len(RightsOn(p, r).Grantable) == 0 }), nil
}

// SearchPeople is the console's user search: SearchUsers' scope and
// search, without each user's roles (their page shows those). A super
// user's page costs the store's bounded search only; an organization's
// also reads the page's roles (one BatchGetItem), to show only people who
// hold a role of the organization now or administer it (users_scope.go).
func (s *Service) SearchPeople(ctx context.Context, p *auth.Principal, page domain.PageRequest) (domain.Page[domain.User], error) {
	if p == nil {
		return domain.Page[domain.User]{}, domain.Unauthenticatedf("authentication required")
	}
	org, all, ok := p.UserSearchScope()
	if !ok {
		return domain.Page[domain.User]{}, domain.Forbiddenf("only super users, institution admins and organization tokens search users")
	}
	q := domain.UserSearch{Page: page}
	if all {
		return s.Store.SearchUsers(ctx, q)
	}
	q.OrganizationGUID = org
	found, err := s.Store.SearchUsersWithRoles(ctx, q)
	if err != nil {
		return domain.Page[domain.User]{}, err
	}
	items, err := s.summariesInScope(ctx, org, found.Items)
	if err != nil {
		return domain.Page[domain.User]{}, err
	}
	users := make([]domain.User, len(items))
	for i, sum := range items {
		users[i] = sum.User
	}
	return domain.Page[domain.User]{Items: users, Total: found.Total}, nil
}
