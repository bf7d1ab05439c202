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

// AuditSorts are the sort keys of the audit search; userEmail is the default.
var AuditSorts = []string{"userEmail", "roleName", "createdAt", "action", "authority", "id", "endDate"}

// SearchAudit is A1: audit entries of a role (roleID), or of all roles
// (roleID 0, super users only). The query matches a case-insensitive
// substring of the user's e-mail or the role's name, as the reference's
// LIKE '%query%' does.
func (s *Service) SearchAudit(ctx context.Context, p *auth.Principal, roleID int64, req domain.PageRequest) (domain.Page[domain.AuditEntry], error) {
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
		return domain.Page[domain.AuditEntry]{}, domain.Forbiddenf("no access to the audit of role %d", roleID)
	}
	entries, err := s.Store.ListRecentAuditEntries(ctx, roleID, AuditSearchWindow)
	if err != nil {
		return domain.Page[domain.AuditEntry]{}, err
	}
	if q := strings.ToLower(strings.TrimSpace(req.Query)); q != "" {
		matches := entries[:0]
		for _, e := range entries {
			if strings.Contains(strings.ToLower(e.UserEmail), q) || strings.Contains(strings.ToLower(e.RoleName), q) {
				matches = append(matches, e)
			}
		}
		entries = matches
	}
	sortAudit(entries, req.Sort, req.Descending)
	total := int64(len(entries))
	from := min(req.Offset(), len(entries))
	to := min(from+req.Size, len(entries))
	return domain.Page[domain.AuditEntry]{Items: entries[from:to], Total: total}, nil
}

// sortAudit orders entries by the sort key, then by time and id so that
// pages are stable.
func sortAudit(entries []domain.AuditEntry, sort string, descending bool) {
	key := func(a, b domain.AuditEntry) int {
		switch sort {
		case "roleName":
			return cmp.Compare(strings.ToLower(a.RoleName), strings.ToLower(b.RoleName))
		case "createdAt":
			return a.CreatedAt.Compare(b.CreatedAt)
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
		default:
			return cmp.Compare(strings.ToLower(a.UserEmail), strings.ToLower(b.UserEmail))
		}
	}
	slices.SortStableFunc(entries, func(a, b domain.AuditEntry) int {
		c := key(a, b)
		if descending {
			c = -c
		}
		return cmp.Or(c, a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
