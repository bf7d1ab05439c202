package dynamo

import "github.com/edu-invite/invite/shared/domain"

// Organizations named by super users live in one partition, so that the
// list a person chooses from is one Query.
const (
	organizationsPK    = "ORGANIZATIONS"
	skOrganization     = "ORG#"
	entityOrganization = "Organization"
)

// organizationRecord is one organization: its GUID and its names.
type organizationRecord struct {
	itemKey
	Entity    string `dynamodbav:"entity"`
	GUID      string `dynamodbav:"guid"`
	Name      string `dynamodbav:"name"`
	NameNL    string `dynamodbav:"nameNl,omitempty"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

func organizationKey(guid string) itemKey {
	return itemKey{PK: organizationsPK, SK: skOrganization + guid}
}

func (s *Store) organizationRecord(o domain.Organization) organizationRecord {
	return organizationRecord{itemKey: organizationKey(o.GUID), Entity: entityOrganization, GUID: o.GUID,
		Name: o.Name, NameNL: o.NameNL, UpdatedAt: formatTime(s.now())}
}

func (rec organizationRecord) domain() (domain.Organization, error) {
	return domain.Organization{GUID: rec.GUID, Name: rec.Name, NameNL: rec.NameNL}, nil
}
