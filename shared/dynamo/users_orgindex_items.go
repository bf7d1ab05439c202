package dynamo

// Keys of the organization-membership index (see users_orgindex.go and
// DATAMODEL.md).
const (
	// prefixUserOrg starts the sort key of a user's organization items,
	// in the user's partition: USER#<userId> / ORG#<organizationGUID>.
	prefixUserOrg = "ORG#"
	// prefixOrgUsers starts the gsi1 partition listing an organization's
	// users by name.
	prefixOrgUsers = "ORGUSERS#"
	// orgUserCountShards spreads an organization's user count over items,
	// as userCountShards does for all users.
	orgUserCountShards = 16
)

func userOrgKey(userID int64, organizationGUID string) itemKey {
	return itemKey{PK: userPK(userID), SK: prefixUserOrg + organizationGUID}
}

func orgUsersPK(organizationGUID string) string { return prefixOrgUsers + organizationGUID }

// orgUserCountKey is the shard of the organization's user count that
// counts the user.
func orgUserCountKey(organizationGUID string, userID int64) itemKey {
	return itemKey{PK: "COUNT#orgusers#" + organizationGUID + "#" + id(userID%orgUserCountShards), SK: "COUNT"}
}

// userOrgRecord is a user's belonging to one organization.
type userOrgRecord struct {
	itemKey
	indexKeys
	Entity           string  `dynamodbav:"entity"`
	UserID           int64   `dynamodbav:"userId"`
	OrganizationGUID string  `dynamodbav:"organizationGUID"`
	RoleIDs          []int64 `dynamodbav:"roleIds,omitempty"`
	Admin            bool    `dynamodbav:"admin,omitempty"`
	// Words are the user's search words (userWords), as on its word
	// items: a search of a small organization filters its listing's
	// items (sort key gsi1sk, words) without reading the users.
	Words   []string `dynamodbav:"words,omitempty"`
	Version int64    `dynamodbav:"version"`
}

func (rec userOrgRecord) listed() bool { return len(rec.RoleIDs) > 0 || rec.Admin }
