package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// maxDaySpan bounds the day partitions one range query reads, so that a
// job's query stays a bounded number of requests.
const maxDaySpan = 400

// queryDays reads the day partitions of [from, to) of gsi3 with the given
// partition naming, keeping sort keys in [from, to); at most limit items.
func (s *Store) queryDays(ctx context.Context, partition func(time.Time) string, from, to time.Time, limit int) ([]item, error) {
	if !from.Before(to) {
		return nil, nil
	}
	if limit <= 0 {
		limit = 100
	}
	lo, hi := sortableTime(from), sortableTime(to)
	var items []item
	day := from.UTC().Truncate(24 * time.Hour)
	for n := 0; day.Before(to) && len(items) < limit; n++ {
		if n >= maxDaySpan {
			return nil, domain.Invalidf("a range of more than %d days cannot be read at once", maxDaySpan)
		}
		in, err := s.partitionQuery(indexGSI3, partition(day), func(sk expression.KeyBuilder) expression.KeyConditionBuilder {
			return expression.KeyBetween(sk, expression.Value(lo), expression.Value(hi))
		})
		if err != nil {
			return nil, err
		}
		in.Limit = aws.Int32(int32(limit - len(items)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", partition(day), err)
		}
		for _, it := range out.Items {
			// BETWEEN includes its upper bound; the range is half-open.
			var keys indexKeys
			if err := unmarshal(it, &keys); err == nil && keys.GSI3SK >= hi {
				continue
			}
			items = append(items, it)
		}
		if len(out.LastEvaluatedKey) > 0 {
			// The day had more than the limit: the caller comes back for the rest.
			break
		}
		day = day.Add(24 * time.Hour)
	}
	return items, nil
}

// ListUserRolesEndingBetween implements domain.LifecycleStore.
func (s *Store) ListUserRolesEndingBetween(ctx context.Context, from, to time.Time, limit int) ([]domain.UserRole, error) {
	items, err := s.queryDays(ctx, expiresPK, from, to, limit)
	if err != nil {
		return nil, err
	}
	return decodeUserRoles(items)
}

// RecordReminder implements domain.LifecycleStore.
func (s *Store) RecordReminder(ctx context.Context, ur domain.UserRole, previous int, mail domain.MailDelivery) error {
	t := s.newTxn()
	cond := versionIs(ur.Version)
	if previous == 0 {
		cond = cond.And(expression.Or(expression.AttributeNotExists(expression.Name("expiryNotifications")),
			expression.Name("expiryNotifications").Equal(expression.Value(0))))
	} else {
		cond = cond.And(expression.Name("expiryNotifications").Equal(expression.Value(previous)))
	}
	t.putIf(newUserRoleRecord(ur, ur.Version+1), cond, func(context.Context) error {
		return domain.Conflictf("the reminder of membership %d was already recorded", ur.ID)
	})
	t.putMails([]domain.MailDelivery{mail})
	return t.commit(ctx)
}

// ApplyRemoval implements domain.LifecycleStore.
func (s *Store) ApplyRemoval(ctx context.Context, r domain.Removal) error {
	changes := make([]change, 0, len(r.UserRoles)+1)
	for _, ur := range r.UserRoles {
		changes = append(changes, removedMembership(ur))
	}
	if r.DeleteUser != nil {
		changes = append(changes, deletedUser(*r.DeleteUser))
	}
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	p := projectChanges(st, changes...)
	t := s.newTxn()
	var keep *roleSummaryChange
	if u := r.KeepUser; u != nil && r.DeleteUser == nil {
		if keep = p.takeSummary(u.ID); keep == nil {
			keep = &roleSummaryChange{}
		}
	}
	t.apply(p, 0)
	if u := r.KeepUser; keep != nil {
		// The user stays because of memberships read at u.Version: every
		// membership write of the user moves its version (acceptances write
		// the user, removals that keep it this update), so a removal that
		// raced another of the same user fails here and reads again.
		key := userKey(u.ID)
		t.updateItem(key, keep.apply(expression.UpdateBuilder{}).Add(expression.Name("version"), expression.Value(1)),
			versionIs(u.Version), s.versionFailure(key, userNotFound(u.ID)))
	}
	if u := r.DeleteUser; u != nil {
		key := userKey(u.ID)
		version := versionIs(u.Version)
		t.delete(key, &version, s.versionFailure(key, userNotFound(u.ID)))
		t.delete(userSubKey(u.Sub), nil, nil)
	}
	t.putAudit(r.Audit)
	t.putDeliveries(r.Deliveries)
	t.putMails(r.Mails)
	return t.commitSkippingGoneUsers(ctx)
}

// PutMails implements domain.LifecycleStore.
func (s *Store) PutMails(ctx context.Context, mails []domain.MailDelivery) error {
	for start := 0; start < len(mails); start += maxTransactionItems {
		t := s.newTxn()
		t.putMails(mails[start:min(start+maxTransactionItems, len(mails))])
		if err := t.commit(ctx); err != nil {
			return err
		}
	}
	return nil
}

// ListPendingMails implements domain.LifecycleStore: oldest first.
func (s *Store) ListPendingMails(ctx context.Context, createdBefore time.Time, limit int) ([]domain.MailDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	in, err := s.partitionQuery(indexGSI1, mailboxPK(domain.MailPending), sortKeyBefore(sortableTime(createdBefore)))
	if err != nil {
		return nil, err
	}
	return queryUpTo(ctx, s, in, limit, decodeWith[mailRecord, domain.MailDelivery])
}

// UpdateMailStatus implements domain.LifecycleStore. A mail already sent
// stays sent: two senders racing on one mail never make it pending again.
func (s *Store) UpdateMailStatus(ctx context.Context, m domain.MailDelivery) error {
	var rec mailRecord
	found, err := s.getItem(ctx, mailKey(m.ID), &rec)
	if err != nil {
		return err
	}
	if !found {
		return domain.NotFoundf("mail %s not found", m.ID)
	}
	stored, err := rec.domain()
	if err != nil {
		return err
	}
	if stored.Status == domain.MailSent {
		return nil
	}
	stored.Status, stored.Attempts, stored.LastError, stored.UpdatedAt = m.Status, m.Attempts, m.LastError, m.UpdatedAt
	if stored.UpdatedAt.IsZero() {
		stored.UpdatedAt = s.now()
	}
	// A sender that lost a race with one that sent the mail finds it sent.
	if _, err := s.putIf(ctx, s.mailRecord(stored), expression.Name("status").NotEqual(expression.Value(string(domain.MailSent)))); err != nil {
		return fmt.Errorf("update mail %s: %w", m.ID, err)
	}
	return nil
}

// ListInvitationsExpiringBetween implements domain.LifecycleStore.
func (s *Store) ListInvitationsExpiringBetween(ctx context.Context, from, to time.Time, limit int) ([]domain.Invitation, error) {
	items, err := s.queryDays(ctx, invitationExpiresPK, from, to, limit)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeInvitation)
}

// DeleteInvitations implements domain.LifecycleStore: each invitation with
// its role links, if it is still at the version read.
func (s *Store) DeleteInvitations(ctx context.Context, invs []domain.Invitation) error {
	for _, inv := range invs {
		t := s.newTxn()
		key := invitationKey(inv.ID)
		version := versionIs(inv.Version)
		t.delete(key, &version, s.versionFailure(key, domain.NotFoundf("invitation %d not found", inv.ID)))
		t.applyChanges(deletedInvitation(inv))
		if err := t.commit(ctx); err != nil {
			return err
		}
	}
	return nil
}

// CountUserRolesEndingBetween implements domain.LifecycleStore: a COUNT
// Query of each day partition of [from, to) (one request per day and per
// 1 MB of its memberships; nothing is returned but the count).
func (s *Store) CountUserRolesEndingBetween(ctx context.Context, from, to time.Time) (int64, error) {
	if !from.Before(to) {
		return 0, nil
	}
	// A sort key is <endDate>#<id>: one whose end date is to itself sorts
	// after sortableTime(to), so BETWEEN leaves it out, as the range does.
	lo, hi := sortableTime(from), sortableTime(to)
	var n int64
	day := from.UTC().Truncate(24 * time.Hour)
	for days := 0; day.Before(to); days++ {
		if days >= maxDaySpan {
			return 0, domain.Invalidf("a range of more than %d days cannot be read at once", maxDaySpan)
		}
		in, err := s.partitionQuery(indexGSI3, expiresPK(day), func(sk expression.KeyBuilder) expression.KeyConditionBuilder {
			return expression.KeyBetween(sk, expression.Value(lo), expression.Value(hi))
		})
		if err != nil {
			return 0, err
		}
		in.Select = types.SelectCount
		for {
			out, err := s.db.Query(ctx, in)
			if err != nil {
				return 0, fmt.Errorf("count %s: %w", expiresPK(day), err)
			}
			n += int64(out.Count)
			if len(out.LastEvaluatedKey) == 0 {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		day = day.Add(24 * time.Hour)
	}
	return n, nil
}
