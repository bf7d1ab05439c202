package dynamo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// The role summary of a user item: what a user search shows of a user's
// memberships, kept on the user item itself so that a search page reads
// no membership (issue 15: a page in at most 3 requests).
//
//   - rs#<roleId>: one map attribute per membership, {u: membership id,
//     a: authority, e: end date, g: "y" or "n", whether the guest role is
//     included (so the provisioner can tell from the user item whether the
//     membership reaches SPs; "" in entries written before it was kept)}. Role ids, not names: a role rename needs
//     no fan-out, the search resolves names with one BatchGetItem.
//   - rsCount: the user's memberships, ADDed by every write that adds or
//     removes one; rsComplete: set when the user is created (or rebuilt by
//     RepairIndexes), saying that rsCount counts every membership.
//   - rsVersion: ADDed by every write of the user's memberships, so that
//     RepairIndexes writes only over what it read.
//
// Each membership write changes its own rs# attribute in the transaction
// that writes the membership (SET, REMOVE), without reading the user item:
// writes of different memberships commute. A summary is trusted only when
// rsComplete is set and rsCount equals the rs# attributes present;
// otherwise (a user written before the summary existed, or one with more
// than maxRoleSummaries memberships) the search reads the memberships by
// Query, as before. New memberships get an entry only while the summary is
// complete and below maxRoleSummaries, so an item stays far below
// DynamoDB's 400 KB (an entry is about 70 bytes).
const (
	prefixRoleSummary = "rs#"
	attrRolesCount    = "rsCount"
	attrRolesComplete = "rsComplete"
	attrRolesVersion  = "rsVersion"
	maxRoleSummaries  = 200 // also keeps a full rebuild's update expression below DynamoDB's 4 KB
)

// roleSummaryRecord is one rs#<roleId> attribute.
type roleSummaryRecord struct {
	UserRoleID int64  `dynamodbav:"u"`
	Authority  string `dynamodbav:"a,omitempty"`
	EndDate    string `dynamodbav:"e,omitempty"`
	GuestRole  string `dynamodbav:"g,omitempty"` // "y", "n", or "" when not kept yet
}

func roleSummaryAttr(roleID int64) string { return prefixRoleSummary + id(roleID) }

func newRoleSummaryRecord(ur domain.UserRole) roleSummaryRecord {
	guestRole := "n"
	if ur.GuestRoleIncluded {
		guestRole = "y"
	}
	return roleSummaryRecord{UserRoleID: ur.ID, Authority: string(ur.Authority), EndDate: formatTimePtr(ur.EndDate), GuestRole: guestRole}
}

// userRole is the membership an entry stands for, as far as the entry
// tells: its id, authority, end date and whether the guest role is
// included. An error for an end date that does not parse.
func (rec roleSummaryRecord) userRole(userID, roleID int64) (domain.UserRole, error) {
	ur := domain.UserRole{ID: rec.UserRoleID, UserID: userID, RoleID: roleID, Authority: domain.Authority(rec.Authority),
		GuestRoleIncluded: rec.GuestRole == "y"}
	if rec.EndDate != "" {
		end, err := parseTime(rec.EndDate)
		if err != nil {
			return ur, err
		}
		ur.EndDate = &end
	}
	return ur, nil
}

// membership is what the summary says of the user's membership of one
// role: found false when the user holds none; known false when the
// summary is not trusted (more than 200 memberships, or not complete) and
// the caller must read the membership. Entries written before `g` was kept
// are completed by the index repair, not read around.
func (st userRolesState) membership(userID, roleID int64) (ur domain.UserRole, found, known bool) {
	if !st.trusted() {
		return domain.UserRole{}, false, false
	}
	rec, ok := st.entries[roleID]
	if !ok {
		return domain.UserRole{}, false, true
	}
	ur, err := rec.userRole(userID, roleID)
	return ur, true, err == nil
}

// userRolesState is what a user item says of its summary.
type userRolesState struct {
	complete bool
	count    int64
	entries  map[int64]roleSummaryRecord
	version  int64
}

// trusted reports whether the entries are every membership of the user.
func (s userRolesState) trusted() bool { return s.complete && s.count == int64(len(s.entries)) }

// acceptsNew reports whether n new memberships get entries.
func (s userRolesState) acceptsNew(n int) bool {
	return s.trusted() && len(s.entries)+n <= maxRoleSummaries
}

// rolesStateOf reads the summary attributes of a user item.
func rolesStateOf(it item) (userRolesState, error) {
	st := userRolesState{entries: map[int64]roleSummaryRecord{}}
	for name, v := range it {
		switch {
		case name == attrRolesComplete:
			b, ok := v.(*types.AttributeValueMemberBOOL)
			st.complete = ok && b.Value
		case name == attrRolesCount || name == attrRolesVersion:
			if n, ok := v.(*types.AttributeValueMemberN); ok {
				x, err := strconv.ParseInt(n.Value, 10, 64)
				if err != nil {
					return st, err
				}
				if name == attrRolesCount {
					st.count = x
				} else {
					st.version = x
				}
			}
		case strings.HasPrefix(name, prefixRoleSummary):
			roleID, err := strconv.ParseInt(strings.TrimPrefix(name, prefixRoleSummary), 10, 64)
			if err != nil {
				continue // not ours
			}
			var rec roleSummaryRecord
			if err := unmarshal(item{"v": v}, &struct {
				V *roleSummaryRecord `dynamodbav:"v"`
			}{&rec}); err != nil {
				return st, err
			}
			st.entries[roleID] = rec
		}
	}
	return st, nil
}

// userRolesOf are the memberships the summary holds, in the order of
// ListUserRolesOfUser (by sort key); known is false when the summary is not
// trusted and the caller must read them.
func (st userRolesState) userRolesOf(userID int64) (urs []domain.UserRole, known bool) {
	if !st.trusted() {
		return nil, false
	}
	urs = make([]domain.UserRole, 0, len(st.entries))
	for roleID, rec := range st.entries {
		ur, err := rec.userRole(userID, roleID)
		if err != nil {
			return nil, false
		}
		urs = append(urs, ur)
	}
	slices.SortFunc(urs, func(a, b domain.UserRole) int {
		return strings.Compare(userRoleKey(a.UserID, a.RoleID).SK, userRoleKey(b.UserID, b.RoleID).SK)
	})
	return urs, true
}

// decodeFoundUsers decodes user items with their summaries.
func decodeFoundUsers(items []item) ([]domain.FoundUser, error) {
	out := make([]domain.FoundUser, 0, len(items))
	for _, it := range items {
		u, err := decodeWith[userRecord, domain.User](it)
		if err != nil {
			return nil, err
		}
		st, err := rolesStateOf(it)
		if err != nil {
			return nil, err
		}
		urs, known := st.userRolesOf(u.ID)
		out = append(out, domain.FoundUser{User: u, UserRoles: urs, UserRolesKnown: known})
	}
	return out, nil
}

// roleSummaryChange is what one transaction changes in one user's summary.
type roleSummaryChange struct {
	set    []domain.UserRole // entries written (new or changed memberships)
	remove []int64           // role ids whose entries go
	count  int64             // memberships added minus removed
}

// apply adds the change to an update of the user item.
func (c roleSummaryChange) apply(upd expression.UpdateBuilder) expression.UpdateBuilder {
	for _, ur := range c.set {
		upd = upd.Set(expression.Name(roleSummaryAttr(ur.RoleID)), expression.Value(newRoleSummaryRecord(ur)))
	}
	for _, roleID := range c.remove {
		upd = upd.Remove(expression.Name(roleSummaryAttr(roleID)))
	}
	if c.count != 0 {
		upd = upd.Add(expression.Name(attrRolesCount), expression.Value(c.count))
	}
	return upd.Add(expression.Name(attrRolesVersion), expression.Value(1))
}

// newUserItem is a new user's item with a complete summary of its first
// memberships.
func newUserItem(u domain.User, urs []domain.UserRole) (item, error) {
	av, err := marshal(newUserRecord(u, 1))
	if err != nil {
		return nil, err
	}
	av[attrRolesComplete] = &types.AttributeValueMemberBOOL{Value: true}
	av[attrRolesCount] = &types.AttributeValueMemberN{Value: strconv.Itoa(len(urs))}
	av[attrRolesVersion] = &types.AttributeValueMemberN{Value: "1"}
	if len(urs) <= maxRoleSummaries {
		for _, ur := range urs {
			entry, err := marshal(struct {
				V roleSummaryRecord `dynamodbav:"v"`
			}{newRoleSummaryRecord(ur)})
			if err != nil {
				return nil, err
			}
			av[roleSummaryAttr(ur.RoleID)] = entry["v"]
		}
	}
	return av, nil
}

// updateRoleSummaries adds to t the summary changes of users whose item
// the transaction does not otherwise write (except: deleted by it). The
// update requires the user item to exist, so that it cannot create a stray
// item; when it does not, the transaction fails with a userGoneError (see
// commitSkippingGoneUsers).
func (t *txn) updateRoleSummaries(changes map[int64]roleSummaryChange, except int64) {
	users := slices.Sorted(func(yield func(int64) bool) {
		for uid := range changes {
			if !yield(uid) {
				return
			}
		}
	})
	for _, uid := range users {
		if uid == except {
			continue
		}
		t.updateItem(userKey(uid), changes[uid].apply(expression.UpdateBuilder{}),
			expression.AttributeExists(expression.Name(attrPK)), t.store.summaryUserFailure(uid))
	}
}

// userGoneError: a membership write found its user's item absent (a
// membership left behind by an older version's user deletion).
type userGoneError struct{ userID int64 }

func (e userGoneError) Error() string { return fmt.Sprintf("user %d not found", e.userID) }

func (s *Store) summaryUserFailure(userID int64) failure {
	return func(ctx context.Context) error {
		it, err := s.getRawItem(ctx, userKey(userID))
		switch {
		case err != nil:
			return err
		case it == nil:
			return userGoneError{userID}
		}
		return domain.ErrVersionConflict
	}
}

// commitSkippingGoneUsers commits a removal of memberships; when a
// user's item is absent, it commits again without that user's summary
// update, so that memberships without a user can still be removed.
func (t *txn) commitSkippingGoneUsers(ctx context.Context) error {
	for {
		err := t.commit(ctx)
		var g userGoneError
		if !errors.As(err, &g) {
			return err
		}
		key := userKey(g.userID).attributes()
		i := slices.IndexFunc(t.items, func(w types.TransactWriteItem) bool {
			return w.Update != nil && maps.EqualFunc(w.Update.Key, key, func(a, b types.AttributeValue) bool {
				as, aok := a.(*types.AttributeValueMemberS)
				bs, bok := b.(*types.AttributeValueMemberS)
				return aok && bok && as.Value == bs.Value
			})
		})
		if i < 0 {
			return err
		}
		t.items = slices.Delete(t.items, i, i+1)
		t.onFail = slices.Delete(t.onFail, i, i+1)
	}
}

// updateItem adds an UpdateItem of key if cond holds.
func (t *txn) updateItem(key itemKey, upd expression.UpdateBuilder, cond expression.ConditionBuilder, onFail failure) {
	expr, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		t.fail(err)
		return
	}
	t.add(types.TransactWriteItem{Update: &types.Update{TableName: aws.String(t.store.table), Key: key.attributes(),
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}}, onFail)
}

// userFieldsUpdate sets every attribute of the user's record and removes
// those the record leaves out, so that the user's fields are replaced as a
// Put would replace them while the summary attributes stay as they are.
func userFieldsUpdate(u domain.User, version int64) (expression.UpdateBuilder, error) {
	av, err := marshal(newUserRecord(u, version))
	if err != nil {
		return expression.UpdateBuilder{}, err
	}
	var upd expression.UpdateBuilder
	for _, name := range userRecordAttributes() {
		if name == attrPK || name == attrSK {
			continue
		}
		if v, ok := av[name]; ok {
			upd = upd.Set(expression.Name(name), expression.Value(v))
		} else {
			upd = upd.Remove(expression.Name(name))
		}
	}
	return upd, nil
}

// userRecordAttributes are the attribute names of userRecord.
var userRecordAttributes = sync.OnceValue(func() []string { return attributeNames(reflect.TypeFor[userRecord]()) })

func attributeNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("dynamodbav"), ",")
		switch {
		case f.Anonymous && name == "":
			names = append(names, attributeNames(f.Type)...)
		case name != "" && name != "-":
			names = append(names, name)
		}
	}
	return names
}

// getRawItem reads one item consistently; nil when it is absent.
func (s *Store) getRawItem(ctx context.Context, key itemKey) (item, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table), Key: key.attributes(),
		ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("get %s/%s: %w", key.PK, key.SK, err)
	}
	if len(out.Item) == 0 {
		return nil, nil
	}
	return out.Item, nil
}

// storedUserWithRoles reads a user (consistently) and its summary state.
func (s *Store) storedUserWithRoles(ctx context.Context, userID int64) (domain.User, userRolesState, error) {
	out, err := s.getRawItem(ctx, userKey(userID))
	if err != nil {
		return domain.User{}, userRolesState{}, err
	}
	if out == nil {
		return domain.User{}, userRolesState{}, userNotFound(userID)
	}
	u, err := decodeWith[userRecord, domain.User](out)
	if err != nil {
		return domain.User{}, userRolesState{}, err
	}
	st, err := rolesStateOf(out)
	return u, st, err
}

// roleSummaryOf reads the summary state of a user item (one consistent
// GetItem; the item is a few KB at most). An absent user has none.
func (s *Store) roleSummaryOf(ctx context.Context, userID int64) (userRolesState, error) {
	it, err := s.getRawItem(ctx, userKey(userID))
	if err != nil || it == nil {
		return userRolesState{}, err
	}
	return rolesStateOf(it)
}
