package dynamo

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// item is one stored item in wire form.
type item = map[string]types.AttributeValue

// itemKey is the primary key of an item.
type itemKey struct {
	PK string `dynamodbav:"pk"`
	SK string `dynamodbav:"sk"`
}

// key is the item's key; records embed itemKey, so every record has it.
func (k itemKey) key() itemKey { return k }

// attributes returns the key in wire form, for GetItem, DeleteItem and
// BatchGetItem.
func (k itemKey) attributes() item {
	return item{
		attrPK: &types.AttributeValueMemberS{Value: k.PK},
		attrSK: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// indexKeys are the secondary-index keys and the expiry of an item. Empty
// keys are omitted, which keeps the item out of that index: DynamoDB rejects
// empty strings in key attributes.
type indexKeys struct {
	GSI1PK string `dynamodbav:"gsi1pk,omitempty"`
	GSI1SK string `dynamodbav:"gsi1sk,omitempty"`
	GSI2PK string `dynamodbav:"gsi2pk,omitempty"`
	GSI2SK string `dynamodbav:"gsi2sk,omitempty"`
	GSI3PK string `dynamodbav:"gsi3pk,omitempty"`
	GSI3SK string `dynamodbav:"gsi3sk,omitempty"`
	GSI4PK string `dynamodbav:"gsi4pk,omitempty"`
	GSI4SK string `dynamodbav:"gsi4sk,omitempty"`
	// TTL is the epoch second after which DynamoDB may delete the item.
	TTL int64 `dynamodbav:"ttl,omitempty"`
}

// Entity names, stored in every item's "entity" attribute so that an item
// read from a shared index can be told apart, and for operators reading the
// table.
const (
	entitySequence       = "Sequence"
	entityRole           = "Role"
	entityRoleName       = "RoleName"
	entityApplicationRef = "ApplicationRole"
	entityUser           = "User"
	entityUserSub        = "UserSub"
	entityUserRole       = "UserRole"
	entityInvitation     = "Invitation"
	entityInvitationRole = "InvitationRole"
	entitySPLink         = "SPLink"
	entityDelivery       = "Delivery"
	entityAPIToken       = "APIToken"
	entityAudit          = "AuditEntry"
)

// marshal converts a record to wire form. An empty list is left out, as
// omitempty does for a nil slice: the SDK writes an empty non-nil slice as
// L:[] despite omitempty, and minidyn (the embedded stack's table) hands
// that back as a string, so that the item could no longer be read (a CRM
// invitation without roles locked its contact out of C1-C7). Absent reads
// back as an empty slice, so nothing is lost.
func marshal(record any) (item, error) {
	av, isItem := record.(item) // already in wire form (a user with its role summary)
	if !isItem {
		var err error
		if av, err = attributevalue.MarshalMap(record); err != nil {
			return nil, fmt.Errorf("marshal %T: %w", record, err)
		}
	}
	for name, v := range av {
		if l, ok := v.(*types.AttributeValueMemberL); ok && len(l.Value) == 0 {
			delete(av, name)
		}
	}
	if size := itemSize(av); size > maxItemSize {
		// The input bounds keep every item far below this; should one
		// still grow past it, the caller gets a 400, not DynamoDB's 500.
		return nil, domain.Invalidf("the change would make a record of %d bytes; at most %d are stored", size, maxItemSize)
	}
	return av, nil
}

// maxItemSize is DynamoDB's limit on one item.
const maxItemSize = 400 * 1024

// itemSize is an item's size as DynamoDB counts it (names plus values),
// closely enough for the limit: numbers count their digits.
func itemSize(av item) int {
	n := 0
	for name, v := range av {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		return 3 + itemSize(v.Value)
	}
	return 1
}

func unmarshal(av item, record any) error {
	if err := attributevalue.UnmarshalMap(av, record); err != nil {
		return fmt.Errorf("unmarshal %T: %w", record, err)
	}
	return nil
}

// Times are stored as RFC 3339 strings with nanoseconds, in UTC. A zero
// time and a nil pointer are stored as absent.

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func formatTimePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return formatTime(*t)
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, ok := parseLongYear(s); ok {
			return t, nil
		}
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// parseLongYear reads a time with a year beyond 9999, as Go writes it
// ("56896-06-13T00:00:00Z"): before dates were bounded on input, an epoch
// in milliseconds read as seconds was stored so. Such an item stays
// readable, so that it can be listed and repaired (the date repair of the
// maintenance API), instead of failing every read.
func parseLongYear(s string) (time.Time, bool) {
	yearEnd := strings.IndexByte(s[1:], '-') + 1
	if yearEnd < 5 {
		return time.Time{}, false
	}
	year, err := strconv.Atoi(s[:yearEnd])
	if err != nil {
		return time.Time{}, false
	}
	// 2000 is a leap year, so that 29 February parses too.
	t, err := time.Parse(time.RFC3339Nano, "2000"+s[yearEnd:])
	if err != nil {
		return time.Time{}, false
	}
	return time.Date(year, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC), true
}

func parseTimePtr(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := parseTime(s)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// timeParser collects the first parse error so that a record with many time
// fields converts in straight-line code.
type timeParser struct{ err error }

func (p *timeParser) time(s string) time.Time {
	t, err := parseTime(s)
	if err != nil && p.err == nil {
		p.err = err
	}
	return t
}

func (p *timeParser) ptr(s string) *time.Time {
	t, err := parseTimePtr(s)
	if err != nil && p.err == nil {
		p.err = err
	}
	return t
}
