package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// RepairIndexes implements domain.IndexRepairStore: the one-off rebuild of
// the derived items that data written by older versions lack, one page of
// roles or users per call, walked by Query over the two known listings
// (gsi2 ROLES, then gsi2 USERS; no Scan), so that a call stays short and an
// interrupted run resumes from its cursor:
//
//   - a role whose member counter is not exact: RecountMembersOfRole;
//   - a role whose members index or side keys are not complete:
//     RebuildMembersIndexOfRole;
//   - every role: the links of its invitations no longer open, moved to
//     the history keys, and links without a copy of their invitation
//     given one, and links without the person key given it
//     (repairHistoryLinks): reads trust the copies and keys;
//   - a role marked organizationsPending (a move whose members were not
//     all rebuilt): its members' organization items, at most
//     repairMoveBudget of them; the rest is reported (RoleMovesLeft) for
//     a role move job, so that a role of 50,000 members does not hold up
//     the page;
//   - every role: its listing items (repairRoleListings), and after the
//     last role the count of roles per scope and the item that says the
//     listings are complete (finishRoleListings);
//   - a user: its word items, written again where one is missing or lacks
//     listingSk/words; its role summary (users_rolesummary.go), rebuilt
//     from its memberships where it is not complete and equal to them; its
//     organization items (RebuildUserOrganizations).
//
// Every step writes only what differs from what it reads, so a second run
// writes nothing. The user's writes are one transaction conditioned on the
// user's version and summary version as read: a user changed meanwhile is
// read again (a few times), not overwritten.
func (s *Store) RepairIndexes(ctx context.Context, cursor string, limit int) (domain.IndexRepair, error) {
	if limit <= 0 || limit > repairPageMax {
		limit = repairPageMax
	}
	start, err := decodeRepairCursor(cursor)
	if err != nil {
		return domain.IndexRepair{}, err
	}
	partition := start[attrGSI2PK]
	in, err := s.partitionQuery(indexGSI2, partition, nil)
	if err != nil {
		return domain.IndexRepair{}, err
	}
	project(in, "id", "membersListed", "membersSided", attrOrganizationsPending, "version")
	in.TableName, in.Limit = aws.String(s.table), aws.Int32(int32(limit))
	if len(start) > 1 {
		in.ExclusiveStartKey = make(item, len(start))
		for name, v := range start {
			in.ExclusiveStartKey[name] = &types.AttributeValueMemberS{Value: v}
		}
	}
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return domain.IndexRepair{}, fmt.Errorf("query %s: %w", partition, err)
	}
	ids := make([]int64, 0, len(out.Items))
	var unlisted []int64
	moved := map[int64]int64{} // roles whose move is not finished, at their version
	for _, it := range out.Items {
		var rec struct {
			ID            int64 `dynamodbav:"id"`
			MembersListed bool  `dynamodbav:"membersListed"`
			MembersSided  bool  `dynamodbav:"membersSided"`
			Pending       bool  `dynamodbav:"organizationsPending"`
			Version       int64 `dynamodbav:"version"`
		}
		if err := unmarshal(it, &rec); err != nil {
			return domain.IndexRepair{}, err
		}
		ids = append(ids, rec.ID)
		if !rec.MembersListed || !rec.MembersSided {
			unlisted = append(unlisted, rec.ID)
		}
		if rec.Pending {
			moved[rec.ID] = rec.Version
		}
	}
	var res domain.IndexRepair
	if partition == rolesPK {
		res.Roles = len(ids)
		res.RoleCountsRepaired, err = s.repairRoleCounts(ctx, ids)
		if err == nil {
			err = s.repairRoleListings(ctx, ids)
		}
		if err == nil {
			_, err = s.repairHistoryLinks(ctx, ids)
		}
		if err == nil && len(out.LastEvaluatedKey) == 0 {
			err = s.finishRoleListings(ctx)
		}
		for _, roleID := range ids {
			if version, ok := moved[roleID]; ok && err == nil {
				var next string
				if next, err = s.stepRoleMove(ctx, roleID, version, repairMoveBudget); next != "" {
					res.RoleMovesLeft = append(res.RoleMovesLeft, domain.RoleMoveLeft{RoleID: roleID, Cursor: next})
				}
			}
		}
		for _, roleID := range unlisted {
			if err != nil {
				break
			}
			if err = s.RebuildMembersIndexOfRole(ctx, roleID); err == nil {
				res.MembersIndexesBuilt++
			}
		}
	} else {
		res.Users = len(ids)
		err = s.repairUsers(ctx, ids, &res)
	}
	if err != nil {
		return domain.IndexRepair{}, err
	}
	switch {
	case len(out.LastEvaluatedKey) > 0:
		res.Next, err = encodeRepairCursor(out.LastEvaluatedKey)
	case partition == rolesPK:
		res.Next, err = encodeRepairCursor(item{attrGSI2PK: &types.AttributeValueMemberS{Value: usersPK}})
	default:
		res.Done = true
	}
	return res, err
}

// repairPageMax bounds the roles or users of one call.
const repairPageMax = 100

// repairMoveBudget bounds the members of one role marked mid-move that a
// call carries itself.
const repairMoveBudget = 50

// repairParallel is how many users one call repairs at once.
const repairParallel = 8

// repairRoleCounts recounts the roles whose member counter, or the
// counter of one of its sides, is not exact (or missing).
func (s *Store) repairRoleCounts(ctx context.Context, roleIDs []int64) (int, error) {
	var keys []itemKey
	for _, roleID := range roleIDs {
		for _, rec := range newRoleMemberCountRecords(roleID) {
			keys = append(keys, rec.itemKey)
		}
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return 0, err
	}
	exactShards := map[int64]int{}
	for _, it := range items {
		var rec roleMemberCountRecord
		if err := unmarshal(it, &rec); err != nil {
			return 0, err
		}
		if rec.Exact {
			exactShards[roleIDOfCountKey(rec.itemKey, roleIDs)]++
		}
	}
	repaired := 0
	for _, roleID := range roleIDs {
		if exactShards[roleID] == roleMemberCountShards*(1+len(memberSides)) {
			continue
		}
		if err := s.RecountMembersOfRole(ctx, roleID); err != nil {
			return repaired, err
		}
		repaired++
	}
	return repaired, nil
}

// roleIDOfCountKey finds which of the roles a counter shard belongs to.
func roleIDOfCountKey(key itemKey, roleIDs []int64) int64 {
	for _, roleID := range roleIDs {
		for _, rec := range newRoleMemberCountRecords(roleID) {
			if rec.itemKey == key {
				return roleID
			}
		}
	}
	return 0
}

// repairUsers repairs users, repairParallel at a time.
func (s *Store) repairUsers(ctx context.Context, userIDs []int64, res *domain.IndexRepair) error {
	var mu sync.Mutex
	errs := make([]error, len(userIDs))
	slots := make(chan struct{}, repairParallel)
	var wg sync.WaitGroup
	for i, uid := range userIDs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			var one domain.IndexRepair
			one, errs[i] = s.repairUserRetrying(ctx, uid)
			mu.Lock()
			res.WordItemsWritten += one.WordItemsWritten
			res.SummariesWritten += one.SummariesWritten
			mu.Unlock()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// repairUserRetrying repairs a user, reading it again when it changed
// between the read and the write.
func (s *Store) repairUserRetrying(ctx context.Context, userID int64) (domain.IndexRepair, error) {
	for attempt := 0; ; attempt++ {
		res, err := s.repairUser(ctx, userID)
		if errors.Is(err, domain.ErrVersionConflict) && attempt < 3 {
			continue
		}
		if err != nil {
			return res, fmt.Errorf("repair user %d: %w", userID, err)
		}
		if err := s.RebuildUserOrganizations(ctx, userID); err != nil {
			return res, fmt.Errorf("rebuild organizations of user %d: %w", userID, err)
		}
		return res, nil
	}
}

// repairUser writes the word items and role summary of one user where they
// differ from what its names and memberships make them.
func (s *Store) repairUser(ctx context.Context, userID int64) (domain.IndexRepair, error) {
	var res domain.IndexRepair
	items, err := s.userPartition(ctx, userPK(userID), nil)
	if err != nil {
		return res, err
	}
	var userItem item
	var urs []domain.UserRole
	for _, it := range items {
		switch stringAttr(it, "entity") {
		case entityUser:
			userItem = it
		case entityUserRole:
			ur, err := decodeWith[userRoleRecord, domain.UserRole](it)
			if err != nil {
				return res, err
			}
			urs = append(urs, ur)
		}
	}
	if userItem == nil {
		return res, nil // gone meanwhile, or memberships without a user: nothing to index
	}
	u, err := decodeWith[userRecord, domain.User](userItem)
	if err != nil {
		return res, err
	}
	st, err := rolesStateOf(userItem)
	if err != nil {
		return res, err
	}
	// What the projection makes of the user and its memberships written
	// anew: its word items and its complete summary.
	changes := []change{createdUser(u)}
	for _, ur := range urs {
		changes = append(changes, addedMembership(ur, u))
	}
	want := projectChanges(projectionState{}, changes...)
	words, err := s.staleUserWords(ctx, want.only(copyWords, ""))
	if err != nil {
		return res, err
	}
	summary, rebuild := summaryRebuild(st, want.firstRoles[u.ID])
	if len(words) == 0 && !rebuild {
		return res, nil
	}
	t := s.newTxn()
	sameUser := versionIs(u.Version)
	if rebuild {
		sameSummary := expression.Name(attrRolesVersion).Equal(expression.Value(st.version))
		if st.version == 0 {
			sameSummary = expression.AttributeNotExists(expression.Name(attrRolesVersion))
		}
		t.updateItem(userKey(u.ID), summary, sameUser.And(sameSummary), always(domain.ErrVersionConflict))
		res.SummariesWritten = 1
	} else {
		t.checkItem(userKey(u.ID), sameUser, always(domain.ErrVersionConflict))
	}
	for _, rec := range words {
		t.put(rec)
	}
	res.WordItemsWritten = len(words)
	return res, t.commit(ctx)
}

// staleUserWords are the word items the projection wants that are missing
// or differ from what is stored (one BatchGetItem).
func (s *Store) staleUserWords(ctx context.Context, p projection) ([]userWordRecord, error) {
	var want []userWordRecord
	for _, w := range p.writes {
		if rec, ok := w.put.(userWordRecord); ok {
			want = append(want, rec)
		}
	}
	keys := make([]itemKey, len(want))
	for i, rec := range want {
		keys[i] = rec.itemKey
	}
	stored, err := batchGetRecords[userWordRecord](ctx, s, keys)
	if err != nil {
		return nil, err
	}
	var stale []userWordRecord
	for _, rec := range want {
		got, ok := stored[rec.itemKey]
		if !ok || got.UserID != rec.UserID || got.ListingSK != rec.ListingSK || !slices.Equal(got.Words, rec.Words) || got.Entity != rec.Entity {
			stale = append(stale, rec)
		}
	}
	return stale, nil
}

// summaryRebuild is the update that makes a user's role summary complete
// and equal to its memberships, and whether one is needed.
func summaryRebuild(st userRolesState, urs []domain.UserRole) (expression.UpdateBuilder, bool) {
	want := map[int64]roleSummaryRecord{}
	if len(urs) <= maxRoleSummaries {
		for _, ur := range urs {
			want[ur.RoleID] = newRoleSummaryRecord(ur)
		}
	}
	if st.complete && st.count == int64(len(urs)) && maps.Equal(st.entries, want) {
		return expression.UpdateBuilder{}, false
	}
	upd := expression.Set(expression.Name(attrRolesComplete), expression.Value(true)).
		Set(expression.Name(attrRolesCount), expression.Value(len(urs))).
		Add(expression.Name(attrRolesVersion), expression.Value(1))
	for _, roleID := range slices.Sorted(maps.Keys(want)) {
		if got, ok := st.entries[roleID]; !ok || got != want[roleID] {
			upd = upd.Set(expression.Name(roleSummaryAttr(roleID)), expression.Value(want[roleID]))
		}
	}
	for _, roleID := range slices.Sorted(maps.Keys(st.entries)) {
		if _, ok := want[roleID]; !ok {
			upd = upd.Remove(expression.Name(roleSummaryAttr(roleID)))
		}
	}
	return upd, true
}

// checkItem adds a ConditionCheck of key.
func (t *txn) checkItem(key itemKey, cond expression.ConditionBuilder, onFail failure) {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		t.fail(err)
		return
	}
	t.add(types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(t.store.table), Key: key.attributes(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}}, onFail)
}

// A repair cursor is the gsi2 key to go on after (base64url JSON); an
// empty cursor starts at the roles.
func encodeRepairCursor(key item) (string, error) {
	plain := map[string]string{}
	for name, v := range key {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("repair cursor: %s is not a string", name)
		}
		plain[name] = s.Value
	}
	raw, err := json.Marshal(plain)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

func decodeRepairCursor(cursor string) (map[string]string, error) {
	if cursor == "" {
		return map[string]string{attrGSI2PK: rolesPK}, nil
	}
	invalid := domain.Invalidf("invalid cursor")
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, invalid
	}
	var key map[string]string
	if err := json.Unmarshal(raw, &key); err != nil {
		return nil, invalid
	}
	if p := key[attrGSI2PK]; p != rolesPK && p != usersPK {
		return nil, invalid
	}
	for name := range key {
		if !slices.Contains([]string{attrPK, attrSK, attrGSI2PK, attrGSI2SK}, name) {
			return nil, invalid
		}
	}
	return key, nil
}
