package scimsp

import (
	"encoding/json"
	"maps"
	"time"

	"github.com/edu-invite/invite/shared/scim"
)

// Users returns a copy of the stored users as the service's wire type,
// sorted by userName.
func (sp *SP) Users() []scim.User {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	recs := sortedRecords(sp.users, nil, sortUsers)
	out := make([]scim.User, 0, len(recs))
	for _, u := range recs {
		out = append(out, u.wire())
	}
	return out
}

// Groups returns a copy of the stored groups, sorted by displayName.
func (sp *SP) Groups() []scim.Group {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	recs := sortedRecords(sp.groups, nil, sortGroups)
	out := make([]scim.Group, 0, len(recs))
	for _, g := range recs {
		out = append(out, g.wire())
	}
	return out
}

// wire converts through JSON: the stored attributes are whatever the User
// schema allows, and scim.User picks the ones the service knows.
func (u *userRecord) wire() scim.User {
	m := maps.Clone(u.attrs)
	m["id"] = u.id
	var out scim.User
	b, _ := json.Marshal(m) // validated JSON values always marshal
	_ = json.Unmarshal(b, &out)
	out.Schemas = []string{scim.SchemaUser, scim.SchemaEnterpriseUser}
	out.Meta = wireMeta("User", "Users", u.id, u.created, u.modified)
	return out
}

func (g *groupRecord) wire() scim.Group {
	members := make([]scim.Member, 0, len(g.members))
	for _, m := range g.members {
		members = append(members, scim.Member{Value: m.value, Display: m.display})
	}
	return scim.Group{
		Schemas:     []string{scim.SchemaGroup},
		ID:          g.id,
		ExternalID:  g.externalID,
		DisplayName: g.displayName,
		Members:     members,
		Meta:        wireMeta("Group", "Groups", g.id, g.created, g.modified),
	}
}

func wireMeta(resourceType, collection, id string, created, modified time.Time) *scim.Meta {
	return &scim.Meta{
		ResourceType: resourceType,
		Created:      created.Format(time.RFC3339),
		LastModified: modified.Format(time.RFC3339),
		Location:     scimPrefix + "/" + collection + "/" + id,
	}
}
