package service

import (
	"context"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
)

// The audit of changes that are not memberships: roles, invitations, the
// registry and organizations. These entries are written just after the
// change they record (the change's own transaction belongs to its store
// method); a failed write is logged and loses the entry, never the change.

// changeEntry is an audit entry of action by the caller p (nil: a
// scheduled job).
func (s *Service) changeEntry(ctx context.Context, p *auth.Principal, action domain.AuditAction) domain.AuditEntry {
	by := "system"
	if p != nil {
		by = p.Name
	}
	return domain.AuditEntry{CreatedAt: s.now(), CreatedBy: by, Action: action, CorrelationID: domain.CorrelationID(ctx)}
}

// recordChanges numbers and writes the entries.
func (s *Service) recordChanges(ctx context.Context, entries []domain.AuditEntry) {
	if len(entries) == 0 {
		return
	}
	err := s.assignAuditIDs(ctx, entries)
	if err == nil {
		err = s.Store.AddAuditEntries(ctx, entries)
	}
	if err != nil {
		s.log().Error("audit entries of a change not written", "action", string(entries[0].Action), "entries", len(entries), "error", err)
	}
}

// recordRoleChange writes the entry of a created or deleted role.
func (s *Service) recordRoleChange(ctx context.Context, p *auth.Principal, role domain.Role, action domain.AuditAction) {
	e := s.changeEntry(ctx, p, action)
	e.RoleID, e.RoleName = role.ID, role.Name
	s.recordChanges(ctx, []domain.AuditEntry{e})
}

// recordRoleUpdate writes what an update of a role did: renamed (the
// former name as subject), moved to another organization (both names as
// subject), or, when neither, its other settings changed.
func (s *Service) recordRoleUpdate(ctx context.Context, p *auth.Principal, stored, updated domain.Role) {
	var entries []domain.AuditEntry
	add := func(action domain.AuditAction, subject string) {
		e := s.changeEntry(ctx, p, action)
		e.RoleID, e.RoleName, e.Subject = updated.ID, updated.Name, subject
		entries = append(entries, e)
	}
	if stored.Name != updated.Name {
		add(domain.AuditRoleRenamed, stored.Name)
	}
	if stored.OrganizationGUID != updated.OrganizationGUID {
		add(domain.AuditRoleMoved, s.OrganizationName(ctx, stored.OrganizationGUID, "en")+" → "+s.OrganizationName(ctx, updated.OrganizationGUID, "en"))
	}
	if len(entries) == 0 {
		add(domain.AuditRoleUpdated, "")
	}
	s.recordChanges(ctx, entries)
}

// recordInvitations writes one entry per invitation and role, so that each
// role's audit shows the invitations to it.
func (s *Service) recordInvitations(ctx context.Context, p *auth.Principal, action domain.AuditAction, invs []domain.Invitation, roles []domain.Role) {
	names := map[int64]string{}
	for _, r := range roles {
		names[r.ID] = r.Name
	}
	var unnamed []int64
	for _, inv := range invs {
		for _, id := range inv.RoleIDs {
			if _, ok := names[id]; !ok {
				unnamed = append(unnamed, id)
				names[id] = ""
			}
		}
	}
	if len(unnamed) > 0 {
		// The entry names each role; one that cannot be read stays unnamed.
		if more, err := s.Store.GetRoles(ctx, unnamed); err == nil {
			for _, r := range more {
				names[r.ID] = r.Name
			}
		}
	}
	var entries []domain.AuditEntry
	for _, inv := range invs {
		for _, roleID := range inv.RoleIDs {
			e := s.changeEntry(ctx, p, action)
			e.RoleID, e.RoleName, e.UserEmail, e.Authority = roleID, names[roleID], inv.Email, inv.IntendedAuthority
			e.Subject = itoa(inv.ID)
			entries = append(entries, e)
		}
	}
	s.recordChanges(ctx, entries)
}

// registryAuditActions are the audit actions of registry changes, by kind
// and change action.
var registryAuditActions = map[[2]string]domain.AuditAction{
	{config.KindApplication, config.ActionCreate}: domain.AuditApplicationCreated,
	{config.KindApplication, config.ActionUpdate}: domain.AuditApplicationUpdated,
	{config.KindApplication, config.ActionDelete}: domain.AuditApplicationDeleted,
	{config.KindConnection, config.ActionCreate}:  domain.AuditConnectionCreated,
	{config.KindConnection, config.ActionUpdate}:  domain.AuditConnectionUpdated,
	{config.KindConnection, config.ActionDelete}:  domain.AuditConnectionDeleted,
}

// recordRegistryChange writes the entry of a registry change: the item's
// id and the names of the fields changed (never their values, so no
// credential reaches the audit).
func (s *Service) recordRegistryChange(ctx context.Context, p *auth.Principal, ch config.Change) {
	action, ok := registryAuditActions[[2]string{ch.Kind, ch.Action}]
	if !ok {
		return
	}
	e := s.changeEntry(ctx, p, action)
	e.Subject = ch.ID
	if len(ch.Fields) > 0 {
		e.Subject += ": " + strings.Join(ch.Fields, ", ")
	}
	s.recordChanges(ctx, []domain.AuditEntry{e})
}

// recordRegistryImport writes the entry of a whole registry imported.
func (s *Service) recordRegistryImport(ctx context.Context, p *auth.Principal, res ImportResult) {
	e := s.changeEntry(ctx, p, domain.AuditRegistryImported)
	e.Subject = itoa(int64(res.Applications)) + " applications, " + itoa(int64(res.Connections)) + " connections"
	s.recordChanges(ctx, []domain.AuditEntry{e})
}

// recordOrganization writes the entry of an organization created or
// renamed: its GUID and names.
func (s *Service) recordOrganization(ctx context.Context, p *auth.Principal, action domain.AuditAction, o domain.Organization) {
	e := s.changeEntry(ctx, p, action)
	e.Subject = o.GUID + ": " + o.Name
	if o.NameNL != "" && o.NameNL != o.Name {
		e.Subject += " / " + o.NameNL
	}
	s.recordChanges(ctx, []domain.AuditEntry{e})
}

// openOnly are the open invitations of invs: withdrawing ends only those.
func openOnly(invs []domain.Invitation) []domain.Invitation {
	var open []domain.Invitation
	for _, inv := range invs {
		if inv.Status == domain.InvitationOpen {
			open = append(open, inv)
		}
	}
	return open
}
