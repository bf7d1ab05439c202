package dynamo

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// Reads of a role's members index (members_index.go).

// MemberRowsOfRole reads a role (consistently) and up to limit of its
// members by name, each with the copy of its user, in two requests sent
// together (one more Query per 1 MB of members, some 2,000); more is set when the role
// has more than limit members. A missing role is NotFound.
func (s *Store) MemberRowsOfRole(ctx context.Context, roleID int64, limit int) (role domain.Role, members []domain.Member, more bool, err error) {
	var items []item
	err = together(ctx, func(gctx context.Context) error {
		var err error
		role, err = s.getRoleRecord(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		in, err := s.partitionQuery(indexGSI4, membersIndexPK(roleID), sortKeyPrefix(prefixUserRole))
		if err != nil {
			return err
		}
		// One more than asked tells whether there is more; bounded by the
		// caller; 1 MB a request.
		items, err = queryUpTo(gctx, s, in, limit+1, asItem)
		return err
	})
	if err != nil {
		return domain.Role{}, nil, false, err
	}
	if len(items) > limit {
		items, more = items[:limit], true
	}
	members, err = listedMembers(items)
	return role, members, more, err
}

func listedMembers(items []item) ([]domain.Member, error) {
	urs, err := decodeUserRoles(items)
	if err != nil {
		return nil, err
	}
	members := make([]domain.Member, 0, len(urs))
	for _, ur := range urs {
		members = append(members, domain.Member{UserRole: ur, User: ur.Listing.User(ur.UserID)})
	}
	return members, nil
}

// RoleView reads what a role's page shows in three requests: a Query of
// the role's index up to its members (the role and its invitation links
// with their copies) and a Query of a page of its members, sent together,
// then one consistent BatchGetItem of the role itself (the page shows and
// decides with the stored role), its member counter, the page's members'
// links at spIDsOf(role) and the invitations' other roles. More requests
// only when that BatchGetItem would exceed 100 keys, an index partition 1
// MB, or the role's SPs changed a moment ago;
// one consistent GetItem more when the role is not (yet) in its own index
// (a role created a moment ago: the index is eventually consistent). The
// index and the member counter are trusted: data of older versions is
// completed once by the index repair (RebuildMembersIndexOfRole,
// RecountMembersOfRole), not read around. after is Next of the
// page before ("" for the first); a token of another role is Invalid; a
// missing role is NotFound.
func (s *Store) RoleView(ctx context.Context, roleID int64, after string, size int, spIDsOf func(domain.Role) []string) (view domain.RoleView, err error) {
	partition := membersIndexPK(roleID)
	var head, page []item
	err = together(ctx, func(gctx context.Context) error {
		in, err := s.partitionQuery(indexGSI4, partition, func(sk expression.KeyBuilder) expression.KeyConditionBuilder {
			return expression.KeyLessThan(sk, expression.Value(prefixUserRole))
		})
		if err != nil {
			return err
		}
		head, err = s.roleViewHead(gctx, in)
		return err
	}, func(gctx context.Context) error {
		in, err := s.partitionQuery(indexGSI4, partition, sortKeyPrefix(prefixUserRole))
		if err != nil {
			return err
		}
		if after != "" {
			if in.ExclusiveStartKey, err = decodeIndexToken(after, partition); err != nil {
				return err
			}
		}
		page, err = queryUpTo(gctx, s, in, size+1, asItem)
		return err
	})
	if err != nil {
		return domain.RoleView{}, err
	}
	var links []invitationRoleRecord
	found := false
	for _, av := range head {
		if stringAttr(av, attrGSI4SK) == roleIndexSK {
			var rec roleRecord
			if err := unmarshal(av, &rec); err != nil {
				return domain.RoleView{}, err
			}
			if view.Role, err = rec.domain(); err != nil {
				return domain.RoleView{}, err
			}
			found = true
			continue
		}
		var link invitationRoleRecord
		if err := unmarshal(av, &link); err != nil {
			return domain.RoleView{}, err
		}
		if !link.Listed {
			continue // a link of an older version, without a copy: the repair gives it one
		}
		links = append(links, link)
	}
	if !found {
		if view.Role, err = s.getRoleRecord(ctx, roleID); err != nil {
			return domain.RoleView{}, err
		}
	}
	if len(page) > size {
		page = page[:size]
		if view.Next, err = encodeIndexToken(page[size-1]); err != nil {
			return domain.RoleView{}, err
		}
	}
	if view.Members, err = listedMembers(page); err != nil {
		return domain.RoleView{}, err
	}
	if err := s.roleViewDetails(ctx, &view, links, spIDsOf); err != nil {
		return domain.RoleView{}, err
	}
	return view, nil
}

// RoleViewHistory is how many invitations no longer open (the newest) a
// role's page shows beside its open ones.
const RoleViewHistory = 25

// roleViewHead reads the head of a role's members index: the role, the
// links of its open invitations, and the newest RoleViewHistory links of
// its history (INVH#…, newest first), then stops: a year of accepted
// invitations costs the page nothing more.
func (s *Store) roleViewHead(ctx context.Context, in *dynamodb.QueryInput) ([]item, error) {
	in.TableName = aws.String(s.table)
	var head []item
	history := 0
	for {
		in.Limit = aws.Int32(int32(100 + RoleViewHistory))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query role index: %w", err)
		}
		for _, av := range out.Items {
			if strings.HasPrefix(stringAttr(av, attrGSI4SK), prefixInvitationHistory) {
				if history == RoleViewHistory {
					return head, nil
				}
				history++
			}
			head = append(head, av)
		}
		if len(out.LastEvaluatedKey) == 0 {
			return head, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// roleViewDetails reads, in one consistent BatchGetItem, the role again
// (what the page shows and decides with is the stored role, not the
// index's eventually consistent copy), the member counter, the page's
// links at the SPs of the index's copy, the invitations' other roles and
// the open invitations themselves (their link's secret is not copied),
// and decodes the other invitations from their links' copies. When the stored
// role has other SPs than its copy (an edit a moment ago), the missing
// links take one more BatchGetItem.
func (s *Store) roleViewDetails(ctx context.Context, view *domain.RoleView, links []invitationRoleRecord, spIDsOf func(domain.Role) []string) error {
	roleID := view.Role.ID
	spIDs := spIDsOf(view.Role)
	keys := []itemKey{roleKey(roleID)}
	for shard := range int64(roleMemberCountShards) {
		keys = append(keys, roleMemberCountKey(roleID, shard))
	}
	for _, m := range view.Members {
		for _, sp := range spIDs {
			keys = append(keys, spLinkKey(domain.ResourceUser, m.User.ID, sp))
		}
	}
	// The role's own group at each SP, in the same batch: the page shows
	// it, and a member cannot be at an SP where the group failed.
	for _, sp := range spIDs {
		keys = append(keys, spLinkKey(domain.ResourceGroup, roleID, sp))
	}
	otherRoles := map[int64]bool{}
	for i := len(links) - 1; i >= 0; i-- {
		inv, err := links[i].invitation()
		if err != nil {
			return err
		}
		view.Invitations = append(view.Invitations, inv)
		if inv.Status == domain.InvitationOpen {
			// The copy has no link secret: the open invitation itself,
			// read in the same batch, lets the page offer its link.
			keys = append(keys, invitationKey(inv.ID))
		}
		for _, r := range inv.RoleIDs {
			if r != roleID && !otherRoles[r] {
				otherRoles[r] = true
				keys = append(keys, roleKey(r))
			}
		}
	}
	// Newest first (open and history links come in two key orders).
	slices.SortFunc(view.Invitations, func(a, b domain.Invitation) int { return cmp.Compare(b.ID, a.ID) })
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return err
	}
	stored := false
	for _, av := range items {
		switch stringAttr(av, "entity") {
		case entityRoleMemberCount:
			var rec roleMemberCountRecord
			if err := unmarshal(av, &rec); err != nil {
				return err
			}
			view.MemberCount += rec.Value
		case entityRole:
			r, err := decodeRole(av)
			if err != nil {
				return err
			}
			if r.ID == roleID {
				view.Role, stored = r, true
			}
			view.InvitationRoles = append(view.InvitationRoles, r)
		case entityInvitation:
			inv, err := decodeInvitation(av)
			if err != nil {
				return err
			}
			for i := range view.Invitations {
				if view.Invitations[i].ID == inv.ID {
					view.Invitations[i] = inv
				}
			}
		default:
			l, err := decodeWith[spLinkRecord, domain.SPLink](av)
			if err != nil {
				return err
			}
			if l.Kind == domain.ResourceGroup {
				view.GroupLinks = append(view.GroupLinks, l)
			} else {
				view.Links = append(view.Links, l)
			}
		}
	}
	if !stored {
		return roleNotFound(roleID) // deleted since the index was read
	}
	return s.addMissingLinks(ctx, view, spIDs, spIDsOf(view.Role))
}

// addMissingLinks reads the page's links at the SPs the stored role has
// and its index copy had not.
func (s *Store) addMissingLinks(ctx context.Context, view *domain.RoleView, read, want []string) error {
	var missing []string
	for _, sp := range want {
		if !slices.Contains(read, sp) {
			missing = append(missing, sp)
		}
	}
	if len(missing) == 0 || len(view.Members) == 0 {
		return nil
	}
	ids := make([]int64, len(view.Members))
	for i, m := range view.Members {
		ids[i] = m.User.ID
	}
	more, err := s.GetLinksOf(ctx, domain.ResourceUser, ids, missing)
	view.Links = append(view.Links, more...)
	return err
}

// encodeIndexToken is the position after a member of a role's index: the
// item's table and gsi4 keys, base64url JSON.
func encodeIndexToken(last item) (string, error) {
	token := pageToken{}
	for _, name := range []string{attrPK, attrSK, attrGSI4PK, attrGSI4SK} {
		value := stringAttr(last, name)
		if value == "" {
			return "", fmt.Errorf("page token: item has no %s", name)
		}
		token[name] = value
	}
	raw, err := json.Marshal(token)
	if err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// decodeIndexToken accepts only a token of the same role's index.
func decodeIndexToken(encoded, partition string) (map[string]types.AttributeValue, error) {
	invalid := domain.Invalidf("invalid page token")
	raw, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return nil, invalid
	}
	var token pageToken
	if err := json.Unmarshal(raw, &token); err != nil || len(token) != 4 || token[attrGSI4PK] != partition {
		return nil, invalid
	}
	start := item{}
	for _, name := range []string{attrPK, attrSK, attrGSI4PK, attrGSI4SK} {
		if token[name] == "" {
			return nil, invalid
		}
		start[name] = &types.AttributeValueMemberS{Value: token[name]}
	}
	return start, nil
}

// together runs two reads at once (each a request of its own, so a page
// waits for the slower, not the sum) and answers the first error.
func together(ctx context.Context, a, b func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, 1)
	go func() { errs <- a(ctx) }()
	errB := b(ctx)
	if errB != nil {
		cancel()
	}
	errA := <-errs
	if errA == nil || (errB != nil && errors.Is(errA, context.Canceled)) {
		return errB // b's failure canceled a
	}
	return errA
}
