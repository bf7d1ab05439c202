package main

import "strings"

// The item kinds of the table, by the partition key their items start
// with (shared/dynamo/DATAMODEL.md). IAM's dynamodb:LeadingKeys condition
// compares the partition key of every item a request touches (on an index:
// the index's partition key) with these, so a role allowed some kinds
// cannot read or write the others. A value holding "#" is a prefix (the
// policy adds "*"); one without is a whole key.
const (
	partitionSequence        = "SEQ#"
	partitionRole            = "ROLE#" // roles, their deletion marker
	partitionRoleName        = "ROLENAME#"
	partitionRoleWord        = "RWORD#"      // a role's search words, per organization and first letter
	partitionRoleListing     = "ROLELISTING" // the one item saying every role has its listing items
	partitionApplicationRole = "APP#"
	partitionRegistry        = "REGISTRY"      // applications and SCIM connections (secret references only)
	partitionRegistryChange  = "REGISTRYAUDIT" // the registry's change log
	partitionOrganization    = "ORGANIZATIONS" // the organizations' names (super users set them)
	partitionUser            = "USER#"         // users, their memberships and organization items
	partitionUserWord        = "UWORD#"
	partitionUserExact       = "UEXACT#"
	partitionCount           = "COUNT#"
	partitionUserSub         = "USERSUB#"
	partitionInvitation      = "INV#" // invitations (with the link's secret) and their role links
	partitionInvitationQuota = "INVQUOTA#"
	partitionSPLink          = "SPLINK#"
	// partitionSPGuard is each SP's rate window and circuit breaker, which
	// every instance that calls SPs shares (shared/provisioner/guard.go).
	partitionSPGuard = "SPGUARD#"
	// partitionAuthFailure counts failed authentications per key digest and
	// window (the guessing throttle), shared by every instance that
	// authenticates callers.
	partitionAuthFailure = "AUTHFAIL#"
	partitionDelivery    = "DELIVERY#"
	partitionAudit       = "AUDIT#"
	// partitionAuditSequence is the one sequence item the provisioner
	// updates: it numbers its audit entries as the API numbers the others.
	partitionAuditSequence = "SEQ#audit"
	partitionMail          = "MAIL#"
	// partitionJobRun + a job's name is the item of its last run, which
	// the console's operations page shows.
	partitionJobRun = "JOB#"
	// API tokens by the SHA-256 of their value, their id items, and the
	// generated values not yet persisted (hashes only).
	partitionToken        = "TOKEN#"
	partitionTokenID      = "TOKENID#"
	partitionPendingToken = "TOKENPENDING#"
	// partitionSession: the pages' browser sessions, by the digest of the
	// cookie's id.
	partitionSession = "SESSION#"
	partitionCRM     = "CRMORG#" // CRM organisations, contacts and invitation links
	// partitionSeedCounts guards the performance seed's counter additions:
	// a chunk written again (a resumed seed) counts once.
	partitionSeedCounts = "SEEDCOUNTS#"
)

// The partition keys of the indexes (Query only).
const (
	indexOrganization        = "ORG#"      // gsi1: an organization's roles and API tokens
	indexOrganizationUsers   = "ORGUSERS#" // gsi1
	indexRoleMembers         = "ROLE#"     // gsi1: a role's memberships and invitation links; gsi4: its members index
	indexInvitationHash      = "INVHASH#"  // gsi1
	indexSPLinks             = "SP#"       // gsi1
	indexOutbox              = "OUTBOX#"   // gsi1
	indexPersonSessions      = "PERSONSESSIONS#"
	indexAudit               = "AUDIT"    // gsi1: every audit entry by time
	indexMailbox             = "MAILBOX#" // gsi1
	indexCRMContact          = "CRMCONTACT#"
	indexCRMOrganisations    = "CRMORGS"
	indexAllRoles            = "ROLES"       // gsi2
	indexRoleListing         = "RLIST#"      // gsi1–gsi4: the roles of a scope, sorted by each sort key
	indexRoleWords           = "RWORD#"      // gsi1: a role search word over every role
	indexAllUsers            = "USERS"       // gsi2
	indexMembership          = "UR#"         // gsi2: a membership by id
	indexInviter             = "INVITER#"    // gsi2: a person's invitations
	indexRemoteInviter       = "INVITERAPI#" // gsi2: an API caller's invitations
	indexDeadLetters         = "DLQ#"
	indexAllTokens           = "TOKENS"
	indexAdmins              = "ADMIN#"      // gsi3
	indexExpiringMemberships = "EXPIRES#"    // gsi3
	indexExpiringInvitations = "INVEXPIRES#" // gsi3
	indexExpiringTokens      = "TOKENEXPIRES#"
	indexOpenInvitations     = "INVOPEN" // gsi4
)

// indexInvitationPerson (gsi2) holds the role links of the invitations sent
// to an address: the console's person page.
const indexInvitationPerson = "INVPERSON#"

// tableAccess is what a function may do with the table. What it writes it
// may also read; reads of the table are GetItem, BatchGetItem, Query and
// ConditionCheckItem, of the indexes Query alone.
type tableAccess struct {
	// Reads are the item kinds it only reads.
	Reads []string
	// Writes are the item kinds it puts, updates and deletes.
	Writes []string
	// Indexes are the index partitions it queries.
	Indexes []string
}

// The groups of item kinds that several functions share.
var (
	// membershipItems are what one change of memberships writes in its
	// transaction: the user with its words, exact-address and organization
	// items and its subject's unique item, the counters, ids, audit
	// entries and SCIM deliveries. Every function that adds, ends or
	// removes memberships (acceptance, user-role provisioning, role and
	// user deletion, CRM, the console, expiry, cleanup) writes all of them;
	// a login's attribute sync writes the user and its deliveries.
	membershipItems = []string{partitionSequence, partitionUser, partitionUserWord, partitionUserExact, partitionCount,
		partitionUserSub, partitionDelivery, partitionAudit}
	// roleItems are a role, its unique name and its application links.
	// Their listing items (ROLE# partition), search words and the listing's
	// ready item are written in the role's transaction.
	roleItems = []string{partitionRole, partitionRoleName, partitionApplicationRole, partitionRoleWord, partitionRoleListing}
	// peopleIndexes list users, members, admins and roles.
	peopleIndexes = []string{indexAllUsers, indexOrganizationUsers, indexAdmins, indexMembership, indexRoleMembers,
		indexOrganization, indexAllRoles, indexRoleListing, indexRoleWords}
	// invitationIndexes find invitations by link, inviter and status.
	invitationIndexes = []string{indexInvitationHash, indexInviter, indexRemoteInviter, indexOpenInvitations}
)

// kinds joins groups of item kinds.
func kinds(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// leadingKeyPatterns are the StringLike patterns of partitions.
func leadingKeyPatterns(partitions []string) []any {
	seen := map[string]bool{}
	var out []any
	for _, p := range partitions {
		pattern := p
		if strings.Contains(p, "#") {
			pattern += "*"
		}
		if !seen[pattern] {
			seen[pattern] = true
			out = append(out, pattern)
		}
	}
	return out
}
