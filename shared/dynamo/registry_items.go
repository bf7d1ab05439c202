package dynamo

// The registry (applications and SCIM connections) lives in one partition,
// so that loading it is one paged Query; its changes in another, newest
// last. A connection item holds secret references, never secret values.
const (
	registryPK       = "REGISTRY"
	registryAuditPK  = "REGISTRYAUDIT"
	skApplication    = "APP#"
	skConnection     = "CONN#"
	entityRegApp     = "Application"
	entityRegConn    = "ScimConnection"
	entityRegChange  = "RegistryChange"
	applicationIDSeq = "application"
)

// registryRecord is one application or connection; Doc is its JSON.
type registryRecord struct {
	itemKey
	Entity    string `dynamodbav:"entity"`
	Doc       string `dynamodbav:"doc"`
	UpdatedAt string `dynamodbav:"updatedAt"`
	UpdatedBy string `dynamodbav:"updatedBy"`
}

type registryChangeRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	Change string `dynamodbav:"change"`
}

func applicationKey(manageID string) itemKey {
	return itemKey{PK: registryPK, SK: skApplication + manageID}
}

func connectionKey(id string) itemKey { return itemKey{PK: registryPK, SK: skConnection + id} }
