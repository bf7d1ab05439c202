package service

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// AuditSearchWindow bounds the audit search (A1): it reads at most this
// many of the newest entries (of the role, or of all roles), one or a few
// DynamoDB Query requests, and filters, sorts and pages within them. Older
// entries are kept but not found by the search.
const AuditSearchWindow = 1000

// AuditSorts are the sort keys of the audit search; the first, createdAt,
// is the default, newest first.
var AuditSorts = []string{"createdAt", "userEmail", "roleName", "action", "authority", "id", "endDate"}

// SearchAudit is A1: audit entries of a role (roleID), or of all roles
// (roleID 0, super users only). The query matches a case-insensitive
// substring of the user's e-mail or the role's name, as the reference's
// LIKE '%query%' does.
func (s *Service) SearchAudit(ctx context.Context, p *auth.Principal, roleID int64, req domain.PageRequest) (domain.Page[domain.AuditEntry], error) {
	return s.SearchAuditFiltered(ctx, p, domain.AuditFilter{RoleID: roleID}, req)
}

// SearchAuditFiltered is SearchAudit narrowed by person, action and period
// (see domain.AuditFilter). The period's end is a key condition, so older
// periods are found beyond the newest AuditSearchWindow entries.
func (s *Service) SearchAuditFiltered(ctx context.Context, p *auth.Principal, f domain.AuditFilter, req domain.PageRequest) (domain.Page[domain.AuditEntry], error) {
	roleID := f.RoleID
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return domain.Page[domain.AuditEntry]{}, domain.Invalidf("the period's start must be before its end")
	}
	if p == nil {
		return domain.Page[domain.AuditEntry]{}, domain.Unauthenticatedf("authentication required")
	}
	var role *domain.Role
	if roleID != 0 {
		r, err := s.Store.GetRole(ctx, roleID)
		switch {
		case err == nil:
			role = &r
		case domain.IsNotFound(err) && p.SuperUser:
			// The audit of a deleted role outlives it; super users read it.
			role = &domain.Role{ID: roleID}
		default:
			return domain.Page[domain.AuditEntry]{}, err
		}
	}
	if !p.CanSearchAudit(role) {
		if role == nil {
			return domain.Page[domain.AuditEntry]{}, domain.Forbiddenf("only super users search the audit of all roles; give a roleId")
		}
		return domain.Page[domain.AuditEntry]{}, s.refuseRole(ctx, p, *role, domain.Forbiddenf("no access to the audit of role %d", roleID))
	}
	entries, err := s.Store.ListRecentAuditEntries(ctx, roleID, f.To, AuditSearchWindow)
	if err != nil {
		return domain.Page[domain.AuditEntry]{}, err
	}
	q := strings.ToLower(strings.TrimSpace(req.Query))
	entries = slices.DeleteFunc(entries, func(e domain.AuditEntry) bool { return !auditMatches(e, f, q) })
	sortAudit(entries, req.Sort, req.Descending)
	total := int64(len(entries))
	from := min(req.Offset(), len(entries))
	to := min(from+req.Size, len(entries))
	return domain.Page[domain.AuditEntry]{Items: entries[from:to], Total: total}, nil
}

func auditMatches(e domain.AuditEntry, f domain.AuditFilter, query string) bool {
	switch {
	case query != "" && !strings.Contains(strings.ToLower(e.UserEmail), query) && !strings.Contains(strings.ToLower(e.RoleName), query):
		return false
	case f.UserID != 0 && e.UserID != f.UserID:
		return false
	case f.Email != "" && !strings.EqualFold(e.UserEmail, strings.TrimSpace(f.Email)):
		return false
	case len(f.Actions) > 0 && !slices.Contains(f.Actions, e.Action):
		return false
	case !f.From.IsZero() && e.CreatedAt.Before(f.From):
		return false
	case !f.To.IsZero() && !e.CreatedAt.Before(f.To):
		return false
	}
	return true
}

// sortAudit orders entries by the sort key, then by time and id so that
// pages are stable.
func sortAudit(entries []domain.AuditEntry, sort string, descending bool) {
	key := func(a, b domain.AuditEntry) int {
		switch sort {
		case "roleName":
			return cmp.Compare(strings.ToLower(a.RoleName), strings.ToLower(b.RoleName))
		case "action":
			return cmp.Compare(a.Action, b.Action)
		case "authority":
			return cmp.Compare(a.Authority, b.Authority)
		case "id":
			return cmp.Compare(a.ID, b.ID)
		case "endDate": // no end date is the latest end
			switch {
			case a.EndDate == nil || b.EndDate == nil:
				return cmp.Compare(boolRank(a.EndDate == nil), boolRank(b.EndDate == nil))
			default:
				return a.EndDate.Compare(*b.EndDate)
			}
		case "userEmail":
			return cmp.Compare(strings.ToLower(a.UserEmail), strings.ToLower(b.UserEmail))
		default:
			return a.CreatedAt.Compare(b.CreatedAt)
		}
	}
	slices.SortStableFunc(entries, func(a, b domain.AuditEntry) int {
		c := cmp.Or(key(a, b), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
		if descending {
			c = -c
		}
		return c
	})
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
