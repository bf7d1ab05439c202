package service

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// CRM connection states of the organisation lookup (C6), the reference's.
const (
	CRMPaired    = "Paired"
	CRMInProcess = "In process"
	CRMNotPaired = "Not paired"
)

var crmStatusCodes = map[string]string{CRMPaired: "paired", CRMInProcess: "in_process", CRMNotPaired: "not_paired"}

// CRMStatusCode is the status_code of a connection state.
func CRMStatusCode(status string) string { return crmStatusCodes[status] }

// CRMUserEntry is one contact of the organisation lookup (spec 2.10).
type CRMUserEntry struct {
	ContactID    string
	User         *domain.User
	Email        string
	Organisation domain.CRMOrganisation
	Status       string
}

// CRMOrganisationUsers looks up an organisation and returns its connected
// contacts by contact id (C6): contacts linked to a user are Paired; with
// an open invitation and no user yet they are In process, or Not paired once
// the invitation has expired. connected=true asks for the paired contacts
// only, false for the invited ones only (with the user's data when the
// contact has one), nil for both (paired wins). An unknown organisation has
// no contacts. The answer holds at most CRMProfilesBound contacts: with
// more it is refused (KindInvalid), for a map keyed by contact id has no
// room to say that it is a part, and the reads stop once the bound is
// passed.
func (s *Service) CRMOrganisationUsers(ctx context.Context, p *auth.Principal, organisationID string, connected *bool) (map[string]CRMUserEntry, error) {
	if err := requireCRM(p); err != nil {
		return nil, err
	}
	if strings.TrimSpace(organisationID) == "" {
		return nil, domain.Invalidf("org_guid is required")
	}
	org, err := s.Store.GetCRMOrganisation(ctx, organisationID)
	if domain.IsNotFound(err) {
		return map[string]CRMUserEntry{}, nil
	}
	if err != nil {
		return nil, err
	}
	bound := s.crmProfilesBound()
	out := map[string]CRMUserEntry{}
	if connected == nil || *connected {
		if err := s.crmPairedContacts(ctx, org, bound, out); err != nil {
			return nil, err
		}
		if connected != nil {
			return out, nil
		}
	}
	if err := s.crmInvitedContacts(ctx, org, bound, out); err != nil {
		return nil, err
	}
	if connected != nil { // the invited only: with their users' data
		if err := s.crmUsersOfInvited(ctx, org, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// crmLookupTooLarge refuses an organisation lookup of more than bound
// contacts, saying how to ask for less.
func crmLookupTooLarge(organisationID string, bound int) error {
	return domain.Invalidf("organisation %q has more than %d contacts to answer: ask for the paired (connected=true) and the invited (connected=false) apart, or search profiles by guid and role, or by uid and idp", organisationID, bound)
}

// crmPairedContacts adds the organisation's contacts linked to a user,
// reading one more contact than the bound lets in (a Query, and a
// BatchGetItem per 100 of their users), and more only for links to users
// that are gone, until more than bound are found.
func (s *Service) crmPairedContacts(ctx context.Context, org domain.CRMOrganisation, bound int, out map[string]CRMUserEntry) error {
	for after := ""; ; {
		contacts, more, err := s.Store.ListCRMContactsAfter(ctx, org.OrganisationID, after, bound+1-len(out))
		if err != nil {
			return err
		}
		ids := make([]int64, len(contacts))
		for i, c := range contacts {
			ids[i] = c.UserID
		}
		users, err := s.Store.GetUsers(ctx, ids)
		if err != nil {
			return err
		}
		for _, c := range contacts {
			if u, ok := users[c.UserID]; ok { // a link to a user that is gone is no user
				out[c.ContactID] = CRMUserEntry{ContactID: c.ContactID, User: &u, Email: u.Email, Organisation: org, Status: CRMPaired}
			}
		}
		if len(out) > bound {
			return crmLookupTooLarge(org.OrganisationID, bound)
		}
		if !more || len(contacts) == 0 {
			return nil
		}
		after = contacts[len(contacts)-1].ContactID
	}
}

// crmInvitedContacts adds the contacts with an open invitation that are
// not paired in out: In process while one is unexpired, else Not paired,
// with the address of the newest such invitation. It reads the
// invitation links a page at a time and the invitations of contacts not
// paired (a BatchGetItem per 100), until more than bound contacts are in out.
func (s *Service) crmInvitedContacts(ctx context.Context, org domain.CRMOrganisation, bound int, out map[string]CRMUserEntry) error {
	now := s.now()
	newest := map[string]int64{} // the invitation each invited entry shows
	for after := (domain.CRMInvitationLink{}); ; {
		links, more, err := s.Store.ListCRMInvitationLinksAfter(ctx, org.OrganisationID, after, 100)
		if err != nil {
			return err
		}
		var ids []int64
		for _, l := range links {
			if out[l.ContactID].Status != CRMPaired {
				ids = append(ids, l.InvitationID)
			}
		}
		invs, err := s.Store.GetCRMInvitations(ctx, ids)
		if err != nil {
			return err
		}
		for _, inv := range invs {
			if inv.Status != domain.InvitationOpen {
				continue
			}
			status := CRMInProcess
			if inv.Expired(now) {
				status = CRMNotPaired
			}
			if e, ok := out[inv.CRMContactID]; ok && (e.Status == CRMInProcess && status == CRMNotPaired || e.Status == status && newest[inv.CRMContactID] > inv.ID) {
				continue // an invitation still open wins over an expired one, then the newest
			}
			newest[inv.CRMContactID] = inv.ID
			out[inv.CRMContactID] = CRMUserEntry{ContactID: inv.CRMContactID, Email: inv.Email, Organisation: org, Status: status}
		}
		if len(out) > bound {
			return crmLookupTooLarge(org.OrganisationID, bound)
		}
		if !more || len(links) == 0 {
			return nil
		}
		after = links[len(links)-1]
	}
}

// crmUsersOfInvited gives the invited entries of contacts linked to a user
// that user's data (a BatchGetItem per 100 contacts, then users).
func (s *Service) crmUsersOfInvited(ctx context.Context, org domain.CRMOrganisation, out map[string]CRMUserEntry) error {
	contactIDs := make([]string, 0, len(out))
	for id := range out {
		contactIDs = append(contactIDs, id)
	}
	contacts, err := s.Store.GetCRMContacts(ctx, org.OrganisationID, contactIDs)
	if err != nil || len(contacts) == 0 {
		return err
	}
	ids := make([]int64, 0, len(contacts))
	for _, c := range contacts {
		ids = append(ids, c.UserID)
	}
	users, err := s.Store.GetUsers(ctx, ids)
	if err != nil {
		return err
	}
	for id, c := range contacts {
		if u, ok := users[c.UserID]; ok {
			e := out[id]
			e.User, e.Email = &u, u.Email
			out[id] = e
		}
	}
	return nil
}

// CRMProfileQuery is C7's search: by uid and idp, or by guid (a CRM
// organisation id) and optionally role (a CRM role name).
type CRMProfileQuery struct {
	UID, IDP, GUID, Role string
}

// CRMProfile is one profile of C7.
type CRMProfile struct {
	User           domain.User
	Organisation   domain.CRMOrganisation
	Authorisations []domain.Role
}

// CRMProfileResult is C7's answer: code 0 "OK" with profiles, or code 50
// when nothing matched, as the reference answers; code 51
// (CRMProfilesPartialCode) with the first profiles when a search by
// organisation matched more than it answers.
type CRMProfileResult struct {
	Message  string
	Code     int
	Profiles []CRMProfile
}

// CRMProfiles searches users with CRM roles (C7). Only users linked to a
// CRM contact are profiles; their authorisations are the memberships of
// roles with a crmRoleId.
func (s *Service) CRMProfiles(ctx context.Context, p *auth.Principal, q CRMProfileQuery) (CRMProfileResult, error) {
	if !p.CanUseCRMProfileSearch() {
		if p == nil {
			return CRMProfileResult{}, domain.Unauthenticatedf("authentication required")
		}
		return CRMProfileResult{}, domain.Forbiddenf("only CRM callers may search CRM profiles")
	}
	q.UID, q.IDP, q.GUID, q.Role = strings.TrimSpace(q.UID), strings.TrimSpace(q.IDP), strings.TrimSpace(q.GUID), strings.TrimSpace(q.Role)
	var profiles []CRMProfile
	var more bool
	var err error
	switch {
	case q.UID != "" && q.IDP != "":
		profiles, err = s.crmProfilesBySub(ctx, crmSubPrefix+":"+q.IDP+":"+q.UID)
	case q.GUID != "":
		profiles, more, err = s.crmProfilesOfOrganisation(ctx, q.GUID, q.Role)
	default:
		return CRMProfileResult{}, domain.Invalidf("search by uid and idp, or by guid (and role)")
	}
	if err != nil {
		return CRMProfileResult{}, err
	}
	profiles = inBoundOrganizationProfiles(p, profiles)
	if len(profiles) == 0 {
		return CRMProfileResult{Message: "Could not find any profiles with the given search parameters", Code: 50, Profiles: []CRMProfile{}}, nil
	}
	if more {
		return CRMProfileResult{Code: CRMProfilesPartialCode, Profiles: profiles,
			Message: fmt.Sprintf("More than %d profiles match: these are the first %d by the organisation's roles; search by role, or by uid and idp", len(profiles), len(profiles))}, nil
	}
	return CRMProfileResult{Message: "OK", Code: 0, Profiles: profiles}, nil
}

func (s *Service) crmProfilesBySub(ctx context.Context, sub string) ([]CRMProfile, error) {
	u, err := s.Store.GetUserBySub(ctx, sub)
	if domain.IsNotFound(err) {
		return nil, nil
	}
	if err != nil || u.CRMContactID == "" {
		return nil, err
	}
	contacts, err := s.Store.ListCRMContactsByContactID(ctx, u.CRMContactID)
	if err != nil {
		return nil, err
	}
	for _, c := range contacts {
		if c.UserID != u.ID {
			continue
		}
		org, err := s.Store.GetCRMOrganisation(ctx, c.OrganisationID)
		if domain.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		prof, err := s.crmProfileOf(ctx, u, org)
		if err != nil {
			return nil, err
		}
		return []CRMProfile{prof}, nil
	}
	return nil, nil
}

// DefaultCRMProfilesBound is how many profiles one CRM profile search by
// organisation answers (CRMProfilesBound when set): some 1 KB each, well
// inside a Lambda answer's 6 MB and a request's time, for an organisation
// of any size. Past it the answer holds that many and says so
// (CRMProfilesPartialCode).
const DefaultCRMProfilesBound = 1000

// CRMProfilesPartialCode is the code of a profile search by organisation
// that matched more profiles than it answers: not 0, so that an
// integrator who takes code 0 as the complete list never mistakes a part
// for the whole (and ends the roles of the people left out).
const CRMProfilesPartialCode = 51

func (s *Service) crmProfilesBound() int {
	if s.CRMProfilesBound > 0 {
		return s.CRMProfilesBound
	}
	return DefaultCRMProfilesBound
}

// crmProfilesOfOrganisation lists the members of the organisation's CRM
// roles (with role: of the roles with that CRM role name or
// abbreviation), by user id. It lists the roles' members until it has
// found one more person than the bound (more: true, and the first bound
// of them, walking the roles by name and each role's members by its
// index), then reads their users with a BatchGetItem per 100 (their role
// summaries; a Query only for a user without one) and the roles they hold
// with one more: a bounded number of requests whatever the roles' sizes.
func (s *Service) crmProfilesOfOrganisation(ctx context.Context, organisationID, roleName string) (profiles []CRMProfile, more bool, err error) {
	org, err := s.Store.GetCRMOrganisation(ctx, organisationID)
	if domain.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	roles, err := s.Store.ListRolesByOrganization(ctx, organisationID)
	if err != nil {
		return nil, false, err
	}
	bound := s.crmProfilesBound()
	seen := map[int64]bool{}
	var userIDs []int64
	for _, r := range roles {
		if r.CRMRoleID == "" || (roleName != "" && !strings.EqualFold(r.CRMRoleName, roleName) && !strings.EqualFold(r.CRMRoleAbbrevation, roleName)) {
			continue
		}
		for token := ""; len(userIDs) <= bound; {
			page, next, err := s.Store.ListUserRolesOfRole(ctx, r.ID, token, min(bound+1-len(userIDs), 1000))
			if err != nil {
				return nil, false, err
			}
			for _, ur := range page {
				if !seen[ur.UserID] {
					seen[ur.UserID] = true
					userIDs = append(userIDs, ur.UserID)
				}
			}
			if next == "" {
				break
			}
			token = next
		}
		if len(userIDs) > bound {
			break
		}
	}
	if more = len(userIDs) > bound; more {
		userIDs = userIDs[:bound]
	}
	found, err := s.Store.GetUsersWithRoles(ctx, userIDs)
	if err != nil {
		return nil, false, err
	}
	perUser, err := s.userRolesOfUsers(ctx, found)
	if err != nil {
		return nil, false, err
	}
	var held []domain.UserRole
	for _, urs := range perUser {
		held = append(held, urs...)
	}
	heldRoles, err := s.rolesOf(ctx, held)
	if err != nil {
		return nil, false, err
	}
	for i, f := range found {
		prof := CRMProfile{User: f.User, Organisation: org, Authorisations: []domain.Role{}}
		for _, ur := range perUser[i] {
			if r := heldRoles[ur.RoleID]; r.CRMRoleID != "" {
				prof.Authorisations = append(prof.Authorisations, r)
			}
		}
		profiles = append(profiles, prof)
	}
	slices.SortFunc(profiles, func(a, b CRMProfile) int { return cmp.Compare(a.User.ID, b.User.ID) })
	return profiles, more, nil
}

func (s *Service) crmProfileOf(ctx context.Context, u domain.User, org domain.CRMOrganisation) (CRMProfile, error) {
	memberships, roles, err := s.membershipsWithRoles(ctx, u.ID)
	if err != nil {
		return CRMProfile{}, err
	}
	prof := CRMProfile{User: u, Organisation: org, Authorisations: []domain.Role{}}
	for _, ur := range memberships {
		if r := roles[ur.RoleID]; r.CRMRoleID != "" {
			prof.Authorisations = append(prof.Authorisations, r)
		}
	}
	return prof, nil
}

// inBoundOrganizationProfiles keeps, for an organization's machine caller,
// the profiles of its own organization with their authorisations in it:
// another organization's profiles are as absent as unknown ones.
func inBoundOrganizationProfiles(p *auth.Principal, profiles []CRMProfile) []CRMProfile {
	org := p.BoundOrganization()
	if org == "" {
		return profiles
	}
	var out []CRMProfile
	for _, prof := range profiles {
		if prof.Organisation.OrganisationID != org {
			continue
		}
		prof.Authorisations = slices.DeleteFunc(prof.Authorisations, func(r domain.Role) bool { return r.OrganizationGUID != org })
		out = append(out, prof)
	}
	return out
}
