package dynamo

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// Store is domain.Store on one DynamoDB table.
type Store struct {
	db    *dynamodb.Client
	table string
	now   domain.Clock

	// auditIDs numbers the provisioner's audit entries (RecordOutcomes).
	auditIDs *idBlock

	// searchBound is how many people one word of a user search may name
	// for the search to answer exactly (users_search.go).
	searchBound int
	// roleListingBound is how many roles a role search reads at most for
	// one page (roles_listing_page.go).
	roleListingBound int
	// seedWriters is how many writes Seed has in flight (users_seed.go).
	seedWriters int
}

var _ domain.Store = (*Store)(nil)

// New returns a Store on the named table. The clock stamps UpdatedAt of
// deliveries when the caller leaves it zero.
func New(client *dynamodb.Client, table string, clock domain.Clock) *Store {
	if clock == nil {
		clock = time.Now
	}
	return &Store{db: client, table: table, now: clock, auditIDs: newIDBlock(auditSequence, auditIDBlock),
		searchBound: DefaultSearchBound, roleListingBound: DefaultRoleListingBound, seedWriters: DefaultSeedWriters}
}

// getItem reads one item with a strongly consistent read, because callers
// read before a version-checked write; found is false when it is absent.
func (s *Store) getItem(ctx context.Context, key itemKey, record any) (found bool, err error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            key.attributes(),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return false, fmt.Errorf("get %s/%s: %w", key.PK, key.SK, err)
	}
	if len(out.Item) == 0 {
		return false, nil
	}
	return true, unmarshal(out.Item, record)
}

// queryAllPageSize bounds each page of queryAll: every Query carries a Limit
// and goes on from its continuation key, so no single call reads a whole
// large partition.
const queryAllPageSize = 1000

// queryAll runs a query to its end, following LastEvaluatedKey, in pages
// of at most queryAllPageSize items unless in sets a Limit.
func (s *Store) queryAll(ctx context.Context, in *dynamodb.QueryInput) ([]item, error) {
	in.TableName = aws.String(s.table)
	if in.Limit == nil {
		in.Limit = aws.Int32(queryAllPageSize)
	}
	var items []item
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", aws.ToString(in.IndexName), err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// putIf writes one item if cond holds; held is false when it did not.
func (s *Store) putIf(ctx context.Context, record any, cond expression.ConditionBuilder) (held bool, err error) {
	av, err := marshal(record)
	if err != nil {
		return false, err
	}
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return false, fmt.Errorf("condition for %T: %w", record, err)
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av,
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if isConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("put %T: %w", record, err)
	}
	return true, nil
}

// queryUpTo runs a query, following LastEvaluatedKey, until it has limit
// items or the query ends, and decodes each item.
func queryUpTo[T any](ctx context.Context, s *Store, in *dynamodb.QueryInput, limit int, decode func(item) (T, error)) ([]T, error) {
	in.TableName = aws.String(s.table)
	var out []T
	for len(out) < limit {
		in.Limit = aws.Int32(int32(limit - len(out)))
		page, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", aws.ToString(in.IndexName), err)
		}
		for _, av := range page.Items {
			v, err := decode(av)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	return out, nil
}

// asItem is queryUpTo's decoder for callers that want the items as read.
func asItem(av item) (item, error) { return av, nil }

// decodeAll decodes every item, in order.
func decodeAll[T any](items []item, decode func(item) (T, error)) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, av := range items {
		v, err := decode(av)
		if err != nil {
			// One unreadable item never fails a whole listing: it is left
			// out and logged by its key (no attribute values: personal
			// data), for an operator to repair.
			slog.Error("unreadable item left out of a listing", "key", loggableKey(av), "error", err)
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// decodeWith unmarshals an item into a record R and converts it.
func decodeWith[R interface{ domain() (T, error) }, T any](av item) (T, error) {
	var rec R
	if err := unmarshal(av, &rec); err != nil {
		var zero T
		return zero, err
	}
	return rec.domain()
}

// batchGetLimit is DynamoDB's maximum number of keys per BatchGetItem.
const batchGetLimit = 100

// userPartition reads a user's partition, or the items of it whose sort
// key begins as narrow says (nil: all), consistently: the writes that
// follow are conditioned on what it read.
func (s *Store) userPartition(ctx context.Context, pk string, narrow func(expression.KeyBuilder) expression.KeyConditionBuilder) ([]item, error) {
	in, err := s.partitionQuery("", pk, narrow)
	if err != nil {
		return nil, err
	}
	in.ConsistentRead = aws.Bool(true)
	return s.queryAll(ctx, in)
}

// batchGetRecords reads items by key (one BatchGetItem per 100 keys) and
// decodes each into its record, by key; absent items are absent.
func batchGetRecords[T interface{ key() itemKey }](ctx context.Context, s *Store, keys []itemKey) (map[itemKey]T, error) {
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	records := make(map[itemKey]T, len(items))
	for _, it := range items {
		var rec T
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		records[rec.key()] = rec
	}
	return records, nil
}

// batchGet reads the items with the given keys, in no particular order;
// absent items are left out. Keys must be distinct.
func (s *Store) batchGet(ctx context.Context, keys []itemKey) ([]item, error) {
	var items []item
	for start := 0; start < len(keys); start += batchGetLimit {
		chunk := keys[start:min(start+batchGetLimit, len(keys))]
		wire := make([]item, len(chunk))
		for i, k := range chunk {
			wire[i] = k.attributes()
		}
		got, err := s.batchGetChunk(ctx, wire)
		if err != nil {
			return nil, err
		}
		items = append(items, got...)
	}
	return items, nil
}

// batchGetChunk reads up to 100 keys, retrying the keys DynamoDB leaves
// unprocessed under throttling with a growing pause.
func (s *Store) batchGetChunk(ctx context.Context, keys []item) ([]item, error) {
	var items []item
	pause := 20 * time.Millisecond
	for attempt := 0; len(keys) > 0; attempt++ {
		if attempt > 0 {
			if attempt > 8 {
				return nil, fmt.Errorf("batch get: %d keys still unprocessed after %d attempts", len(keys), attempt)
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pause):
			}
			pause *= 2
		}
		out, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{
				s.table: {Keys: keys, ConsistentRead: aws.Bool(true)},
			},
		})
		if err != nil {
			return nil, fmt.Errorf("batch get: %w", err)
		}
		items = append(items, out.Responses[s.table]...)
		keys = out.UnprocessedKeys[s.table].Keys
	}
	return items, nil
}

// loggableKey is an item's key for a log line: the parts of pk and sk that
// are entity prefixes or numeric ids; any other part (a sub, a hash digest,
// an organization's id) is replaced by "…", as it may be personal.
func loggableKey(av item) string {
	part := func(name string) string {
		v, ok := av[name].(*types.AttributeValueMemberS)
		if !ok {
			return "?"
		}
		segs := strings.Split(v.Value, "#")
		for i, seg := range segs {
			if i == 0 && strings.ToUpper(seg) == seg && !strings.ContainsAny(seg, "@:.") {
				continue
			}
			if strings.Trim(seg, "0123456789") != "" {
				segs[i] = "…"
			}
		}
		return strings.Join(segs, "#")
	}
	return part(attrPK) + " " + part(attrSK)
}
