package dynamo

import (
	"strconv"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

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
	attrTTL    = "ttl"

	indexGSI1 = "gsi1"
	indexGSI2 = "gsi2"
	indexGSI3 = "gsi3"
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
// DELIVERY# or AUDIT#: its IAM policy allows only those partitions.
const (
	prefixRole       = "ROLE#"
	prefixUserRole   = "UR#"
	prefixInvitation = "INV#"
)

func id(n int64) string { return strconv.FormatInt(n, 10) }

// auditSequence numbers audit entries; the provisioner may write its item
// (SEQ#audit) besides its own partitions.
const auditSequence = "audit"

func sequenceKey(name string) itemKey { return itemKey{PK: "SEQ#" + name, SK: skSequence} }
func roleKey(roleID int64) itemKey    { return itemKey{PK: prefixRole + id(roleID), SK: skRole} }
func roleNameKey(name string) itemKey {
	return itemKey{PK: "ROLENAME#" + domain.NormalizedRoleName(name), SK: skUnique}
}
func appLinkKey(manageID string, roleID int64) itemKey {
	return itemKey{PK: appLinkPK(manageID), SK: prefixRole + id(roleID)}
}
func appLinkPK(manageID string) string { return "APP#" + manageID }
func orgPK(organizationGUID string) string {
	return "ORG#" + organizationGUID
}

// rolesPK is the gsi2 partition that holds every role sorted by name.
const rolesPK = "ROLES"

func userKey(userID int64) itemKey  { return itemKey{PK: userPK(userID), SK: skUser} }
func userPK(userID int64) string    { return "USER#" + id(userID) }
func userSubKey(sub string) itemKey { return itemKey{PK: "USERSUB#" + sub, SK: skUnique} }
func userRoleKey(userID, roleID int64) itemKey {
	return itemKey{PK: userPK(userID), SK: prefixUserRole + id(roleID)}
}

func invitationKey(invID int64) itemKey { return itemKey{PK: invitationPK(invID), SK: skInvitation} }
func invitationPK(invID int64) string   { return prefixInvitation + id(invID) }
func invitationRoleKey(invID, roleID int64) itemKey {
	return itemKey{PK: invitationPK(invID), SK: prefixRole + id(roleID)}
}
func invitationHashPK(digest string) string { return "INVHASH#" + digest }

func spLinkKey(kind domain.ResourceKind, localID int64, spID string) itemKey {
	return itemKey{PK: spLinkPK(kind, localID), SK: "SP#" + spID}
}
func spLinkPK(kind domain.ResourceKind, localID int64) string {
	return "SPLINK#" + string(kind) + "#" + id(localID)
}

func deliveryKey(deliveryID string) itemKey {
	return itemKey{PK: "DELIVERY#" + deliveryID, SK: skDelivery}
}
func outboxPK(status domain.DeliveryStatus) string { return "OUTBOX#" + string(status) }

func tokenKey(hashedValue string) itemKey { return itemKey{PK: "TOKEN#" + hashedValue, SK: skToken} }

func auditPK(roleID int64) string { return "AUDIT#ROLE#" + id(roleID) }

// auditPartition is the gsi1 partition holding every audit entry by time.
const auditPartition = "AUDIT"

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

func expiresPK(t time.Time) string           { return "EXPIRES#" + dayOf(t) }
func invitationExpiresPK(t time.Time) string { return "INVEXPIRES#" + dayOf(t) }
func mailKey(mailID string) itemKey          { return itemKey{PK: "MAIL#" + mailID, SK: "MAIL"} }
func mailboxPK(status domain.MailStatus) string {
	return "MAILBOX#" + string(status)
}
