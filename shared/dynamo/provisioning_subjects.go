package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// GetDeliverySubjects reads the users, roles, memberships and SP links a
// batch of deliveries is about in one BatchGetItem per 100 keys (strongly
// consistent, as GetItem), instead of a GetItem per item and delivery. The
// memberships of users it reads come from their items' role summaries
// (kept in the transactions that write memberships), as far as those tell;
// the others take a second BatchGetItem. Items that do not exist are left
// out. No domain error.
func (s *Store) GetDeliverySubjects(ctx context.Context, q domain.SubjectsQuery) (domain.DeliverySubjects, error) {
	got := domain.DeliverySubjects{Users: map[int64]domain.User{}, Roles: map[int64]domain.Role{},
		UserRoles: map[domain.UserRoleKey]domain.UserRole{}, Links: map[domain.SPLinkKey]domain.SPLink{}}
	r := subjectsRead{decoders: map[itemKey]func(item) error{}}
	summaries := map[int64]userRolesState{}
	for _, id := range q.Users {
		r.add(userKey(id), func(av item) error {
			u, err := decodeWith[userRecord, domain.User](av)
			got.Users[id] = u
			if err != nil {
				return err
			}
			summaries[id], err = rolesStateOf(av)
			return err
		})
	}
	for _, id := range q.Roles {
		r.add(roleKey(id), func(av item) error {
			role, err := decodeWith[roleRecord, domain.Role](av)
			got.Roles[id] = role
			return err
		})
	}
	readUserRole := func(k domain.UserRoleKey) {
		r.add(userRoleKey(k.UserID, k.RoleID), func(av item) error {
			ur, err := decodeWith[userRoleRecord, domain.UserRole](av)
			got.UserRoles[k] = ur
			return err
		})
	}
	// A membership of a user read anyway comes from the user item's role
	// summary when it can tell (see membership): one item fewer per
	// membership; otherwise it is read in a second request.
	queried := map[int64]bool{}
	for _, id := range q.Users {
		queried[id] = true
	}
	var fromSummary []domain.UserRoleKey
	for _, k := range q.UserRoles {
		if queried[k.UserID] {
			fromSummary = append(fromSummary, k)
		} else {
			readUserRole(k)
		}
	}
	for _, k := range q.Links {
		r.add(spLinkKey(k.Kind, k.LocalID, k.SPID), func(av item) error {
			l, err := decodeWith[spLinkRecord, domain.SPLink](av)
			got.Links[k] = l
			return err
		})
	}
	if err := r.run(ctx, s); err != nil {
		return got, err
	}
	r = subjectsRead{decoders: map[itemKey]func(item) error{}}
	for _, k := range fromSummary {
		st, userFound := summaries[k.UserID]
		if !userFound {
			continue // the user is gone, and with it its memberships
		}
		ur, found, known := st.membership(k.UserID, k.RoleID)
		switch {
		case !known:
			readUserRole(k)
		case found:
			got.UserRoles[k] = ur
		}
	}
	return got, r.run(ctx, s)
}

// subjectsRead is one BatchGetItem of GetDeliverySubjects: the keys, each
// with the decoder of its item.
type subjectsRead struct {
	decoders map[itemKey]func(item) error
	keys     []itemKey
}

func (r *subjectsRead) add(k itemKey, decode func(item) error) {
	if _, ok := r.decoders[k]; !ok {
		r.decoders[k] = decode
		r.keys = append(r.keys, k)
	}
}

// run reads the keys (none: no request) and decodes what was found.
func (r *subjectsRead) run(ctx context.Context, s *Store) error {
	if len(r.keys) == 0 {
		return nil
	}
	items, err := s.batchGet(ctx, r.keys)
	if err != nil {
		return fmt.Errorf("get delivery subjects: %w", err)
	}
	for _, av := range items {
		pk, _ := av[attrPK].(*types.AttributeValueMemberS)
		sk, _ := av[attrSK].(*types.AttributeValueMemberS)
		if pk == nil || sk == nil {
			continue
		}
		decode, ok := r.decoders[itemKey{PK: pk.Value, SK: sk.Value}]
		if !ok {
			continue
		}
		if err := decode(av); err != nil {
			return fmt.Errorf("get delivery subjects %s/%s: %w", pk.Value, sk.Value, err)
		}
	}
	return nil
}
