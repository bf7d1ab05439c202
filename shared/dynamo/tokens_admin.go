package dynamo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

const entityPendingToken = "PendingAPIToken"

// PutPendingAPIToken implements domain.MaintenanceStore: a new value
// replaces the caller's previous one.
func (s *Store) PutPendingAPIToken(ctx context.Context, p domain.PendingAPIToken) error {
	if p.CallerKey == "" || p.HashedValue == "" {
		return domain.Invalidf("pending API token without caller or hash")
	}
	t := s.newTxn()
	t.put(pendingTokenRecord{itemKey: pendingTokenKey(p.CallerKey), indexKeys: indexKeys{TTL: p.ExpiresAt.Unix()},
		Entity: entityPendingToken, CallerKey: p.CallerKey, HashedValue: p.HashedValue, ExpiresAt: formatTime(p.ExpiresAt)})
	return t.commit(ctx)
}

// GetPendingAPIToken implements domain.MaintenanceStore.
func (s *Store) GetPendingAPIToken(ctx context.Context, callerKey string) (domain.PendingAPIToken, error) {
	var rec pendingTokenRecord
	found, err := s.getItem(ctx, pendingTokenKey(callerKey), &rec)
	if err != nil {
		return domain.PendingAPIToken{}, err
	}
	none := domain.NotFoundf("no generated API token: generate one first")
	if !found {
		return domain.PendingAPIToken{}, none
	}
	exp, err := parseTime(rec.ExpiresAt)
	if err != nil {
		return domain.PendingAPIToken{}, err
	}
	if !s.now().Before(exp) {
		return domain.PendingAPIToken{}, none
	}
	return domain.PendingAPIToken{CallerKey: rec.CallerKey, HashedValue: rec.HashedValue, ExpiresAt: exp}, nil
}

// CreateAPITokenFromPending implements domain.MaintenanceStore.
func (s *Store) CreateAPITokenFromPending(ctx context.Context, p domain.PendingAPIToken, tok domain.APIToken) error {
	if tok.HashedValue == "" || tok.HashedValue != p.HashedValue {
		return domain.Invalidf("the token is not the pending one")
	}
	t := s.newTxn()
	pending := expression.Name("hashedValue").Equal(expression.Value(p.HashedValue))
	t.delete(pendingTokenKey(p.CallerKey), &pending, always(domain.Conflictf("the generated API token was already used or replaced: generate a new one")))
	s.putNewAPIToken(t, tok)
	return t.commit(ctx)
}

// ListAPITokens implements domain.MaintenanceStore.
func (s *Store) ListAPITokens(ctx context.Context, organizationGUID string) ([]domain.APIToken, error) {
	index, partition, prefix := indexGSI2, tokensPK, "TOKEN#"
	if organizationGUID != "" {
		index, partition = indexGSI1, orgPK(organizationGUID)
	}
	in, err := s.partitionQuery(index, partition, sortKeyPrefix(prefix))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	toks, err := decodeAll(items, decodeWith[apiTokenRecord, domain.APIToken])
	if err != nil {
		return nil, err
	}
	if organizationGUID != "" {
		// gsi1 sorts ids as text; the answer is by id.
		sortTokensByID(toks)
	}
	return toks, nil
}

// GetAPIToken implements domain.MaintenanceStore: the id item, then the
// token (two GetItems).
func (s *Store) GetAPIToken(ctx context.Context, tokenID int64) (domain.APIToken, error) {
	notFound := domain.NotFoundf("API token %d not found", tokenID)
	var ref tokenIDRecord
	found, err := s.getItem(ctx, tokenIDKey(tokenID), &ref)
	if err != nil {
		return domain.APIToken{}, err
	}
	if !found {
		return domain.APIToken{}, notFound
	}
	var rec apiTokenRecord
	if found, err = s.getItem(ctx, tokenKey(ref.HashedValue), &rec); err != nil {
		return domain.APIToken{}, err
	}
	if !found {
		return domain.APIToken{}, notFound
	}
	return rec.domain()
}

// DeleteAPIToken implements domain.MaintenanceStore: the token and its id
// item; deleting a token that is already gone is not an error.
func (s *Store) DeleteAPIToken(ctx context.Context, tok domain.APIToken) error {
	if tok.HashedValue == "" {
		return domain.Invalidf("API token without hashed value")
	}
	t := s.newTxn()
	t.delete(tokenKey(tok.HashedValue), nil, nil)
	// The id item goes only if it still names this token.
	same := expression.Name("hashedValue").Equal(expression.Value(tok.HashedValue)).Or(expression.AttributeNotExists(expression.Name(attrPK)))
	t.delete(tokenIDKey(tok.ID), &same, always(domain.Conflictf("API token id %d names another token", tok.ID)))
	if err := t.commit(ctx); err != nil {
		return fmt.Errorf("delete API token %d: %w", tok.ID, err)
	}
	return nil
}

// ListAPITokensExpiringBetween implements domain.MaintenanceStore.
func (s *Store) ListAPITokensExpiringBetween(ctx context.Context, from, to time.Time, limit int) ([]domain.APIToken, error) {
	items, err := s.queryDays(ctx, tokenExpiresPK, from, to, limit)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[apiTokenRecord, domain.APIToken])
}

func sortTokensByID(toks []domain.APIToken) {
	slices.SortFunc(toks, func(a, b domain.APIToken) int { return cmp.Compare(a.ID, b.ID) })
}
