package dynamo

import (
	"strconv"
	"time"
)

// The key vocabulary of the table: attribute and index names, sort keys
// and prefixes that several entities share, and the time formats of sort
// keys. Each entity's own keys are in its <entity>_items.go.

// Attribute and index names shared with the CDK stack.
const (
	attrPK     = "pk"
	attrSK     = "sk"
	attrGSI1PK = "gsi1pk"
	attrGSI1SK = "gsi1sk"
	attrGSI2PK = "gsi2pk"
	attrGSI2SK = "gsi2sk"
	attrGSI3PK = "gsi3pk"
	attrGSI3SK = "gsi3sk"
	attrGSI4PK = "gsi4pk"
	attrGSI4SK = "gsi4sk"
	attrTTL    = "ttl"

	indexGSI1 = "gsi1"
	indexGSI2 = "gsi2"
	indexGSI3 = "gsi3"
	indexGSI4 = "gsi4" // sparse: open invitations; a role's members index (members_index.go)
)

// Sort keys of items that are alone in their partition.
const (
	skSequence   = "SEQ"
	skRole       = "ROLE"
	skUnique     = "UNIQUE"
	skUser       = "USER"
	skInvitation = "INV"
	skDelivery   = "DELIVERY"
	skToken      = "TOKEN"
)

// Key prefixes. Items written by the provisioner start with SPLINK#,
// SPGUARD#, DELIVERY# or AUDIT#: its IAM policy allows only those partitions.
const (
	prefixRole       = "ROLE#"
	prefixUserRole   = "UR#"
	prefixInvitation = "INV#"
)

func id(n int64) string { return strconv.FormatInt(n, 10) }

// sortableTime formats t for use inside a sort key: UTC with a fixed nine
// fraction digits. Plain RFC3339Nano trims trailing zeros, and then
// "…:05Z" sorts after "…:05.1Z" although it is earlier; the fixed width keeps
// byte order equal to time order while staying valid RFC 3339.
func sortableTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
}

// timeOrdered is the sort key of an item ordered by time, with its id as a
// tie-breaker.
func timeOrdered(t time.Time, itemID string) string { return sortableTime(t) + "#" + itemID }

// dayOf is the UTC calendar day of t, the partition of day-bucketed indexes:
// one partition per day spreads writes and lets a job read just the days it needs.
func dayOf(t time.Time) string { return t.UTC().Format("2006-01-02") }
