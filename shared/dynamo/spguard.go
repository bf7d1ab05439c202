package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// GetSPGuard reads the shared rate window and circuit breaker of an SP
// (consistent read); an SP without one gets the zero state (Version 0).
func (s *Store) GetSPGuard(ctx context.Context, spID string) (domain.SPGuardState, error) {
	var rec spGuardRecord
	found, err := s.getItem(ctx, spGuardKey(spID), &rec)
	if err != nil || !found {
		return domain.SPGuardState{SPID: spID}, err
	}
	return rec.state(), nil
}

// SaveSPGuard writes an SP's guard state if the stored one is still the
// version st was computed from (st.Version; 0: none stored), and returns it
// as stored, with the next version. When another writer came first, saved
// is false and the state returned is the current one, for the caller to
// compute again from (an optimistic lock: one conditional PutItem, and a
// consistent read only on a conflict).
func (s *Store) SaveSPGuard(ctx context.Context, st domain.SPGuardState) (current domain.SPGuardState, saved bool, err error) {
	next := st
	next.Version = st.Version + 1
	cond := expression.AttributeNotExists(expression.Name(attrPK))
	if st.Version > 0 {
		cond = expression.Name("version").Equal(expression.Value(st.Version))
	}
	held, err := s.putIf(ctx, newSPGuardRecord(next), cond)
	if err != nil {
		return st, false, err
	}
	if held {
		return next, true, nil
	}
	current, err = s.GetSPGuard(ctx, st.SPID)
	return current, false, err
}

const entitySPGuard = "SPGuard"

// spGuardKey is an SP's guard state, alone in its partition (the SP's id
// is the configuration's, so no other item is keyed by it here).
func spGuardKey(spID string) itemKey {
	return itemKey{PK: "SPGUARD#" + spID, SK: "GUARD"}
}

// spGuardRecord stores times as Unix milliseconds and the cool-down in
// milliseconds; zero times are absent.
type spGuardRecord struct {
	itemKey
	Entity     string `dynamodbav:"entity"`
	SPID       string `dynamodbav:"spId"`
	Version    int64  `dynamodbav:"version"`
	Window     int64  `dynamodbav:"window"`
	Taken      int    `dynamodbav:"taken"`
	Failures   int    `dynamodbav:"failures"`
	OpenUntil  int64  `dynamodbav:"openUntil,omitempty"`
	CooldownMS int64  `dynamodbav:"cooldownMs,omitempty"`
	ProbeUntil int64  `dynamodbav:"probeUntil,omitempty"`
}

func newSPGuardRecord(st domain.SPGuardState) spGuardRecord {
	return spGuardRecord{itemKey: spGuardKey(st.SPID), Entity: entitySPGuard, SPID: st.SPID, Version: st.Version,
		Window: st.Window, Taken: st.Taken, Failures: st.Failures, OpenUntil: unixMilli(st.OpenUntil),
		CooldownMS: st.Cooldown.Milliseconds(), ProbeUntil: unixMilli(st.ProbeUntil)}
}

func (r spGuardRecord) state() domain.SPGuardState {
	return domain.SPGuardState{SPID: r.SPID, Version: r.Version, Window: r.Window, Taken: r.Taken, Failures: r.Failures,
		OpenUntil: fromUnixMilli(r.OpenUntil), Cooldown: time.Duration(r.CooldownMS) * time.Millisecond,
		ProbeUntil: fromUnixMilli(r.ProbeUntil)}
}

func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromUnixMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// TakeSPCalls adds n to the calls taken in rate window w of an SP whose
// breaker is closed (no pause, no probe) and that failed at most
// maxFailures times in a row, without a
// version condition, so that the leases of concurrent instances do not make
// each other fail: one UpdateItem in the window as stored, else one that
// starts window w when the stored one is older (or there is none). When
// neither applies (the window is full, the breaker open, or more failures)
// it returns the
// current state and taken false.
func (s *Store) TakeSPCalls(ctx context.Context, spID string, w int64, n, limit, maxFailures int) (current domain.SPGuardState, taken bool, err error) {
	key := spGuardKey(spID)
	untroubled := expression.Name("failures").LessThanEqual(expression.Value(maxFailures)).
		And(expression.AttributeNotExists(expression.Name("openUntil"))).
		And(expression.AttributeNotExists(expression.Name("probeUntil")))
	sameWindow := expression.Name("window").Equal(expression.Value(w)).
		And(expression.Name("taken").LessThanEqual(expression.Value(limit - n))).And(untroubled)
	inWindow := expression.Set(expression.Name("taken"), expression.Name("taken").Plus(expression.Value(n))).
		Add(expression.Name("version"), expression.Value(1))
	newWindow := expression.AttributeNotExists(expression.Name(attrPK)).
		Or(expression.Name("window").LessThan(expression.Value(w)).And(untroubled))
	startWindow := expression.Set(expression.Name("window"), expression.Value(w)).
		Set(expression.Name("taken"), expression.Value(n)).
		Add(expression.Name("version"), expression.Value(1)).
		Set(expression.Name("failures"), expression.IfNotExists(expression.Name("failures"), expression.Value(0))).
		Set(expression.Name("entity"), expression.Value(entitySPGuard)).
		Set(expression.Name("spId"), expression.Value(spID))
	if n > limit {
		current, err = s.GetSPGuard(ctx, spID)
		return current, false, err
	}
	for _, step := range []struct {
		cond   expression.ConditionBuilder
		update expression.UpdateBuilder
	}{{sameWindow, inWindow}, {newWindow, startWindow}} {
		expr, err := expression.NewBuilder().WithCondition(step.cond).WithUpdate(step.update).Build()
		if err != nil {
			return domain.SPGuardState{}, false, fmt.Errorf("take SP calls: %w", err)
		}
		out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key.attributes(),
			ConditionExpression: expr.Condition(), UpdateExpression: expr.Update(),
			ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ReturnValues: types.ReturnValueAllNew})
		if isConditionFailed(err) {
			continue
		}
		if err != nil {
			return domain.SPGuardState{}, false, fmt.Errorf("take SP calls: %w", err)
		}
		var rec spGuardRecord
		if err := unmarshal(out.Attributes, &rec); err != nil {
			return domain.SPGuardState{}, false, err
		}
		return rec.state(), true, nil
	}
	current, err = s.GetSPGuard(ctx, spID)
	return current, false, err
}
