package scimsp

import (
	"maps"
	"time"

	elimity "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
)

// userRecord is a stored user: the attributes as the elimity server
// validated them (core attributes, externalId, and the enterprise extension
// under its URN), without id, schemas and meta, which are added on output.
type userRecord struct {
	id       string
	attrs    elimity.ResourceAttributes
	created  time.Time
	modified time.Time
}

func (u *userRecord) userName() string    { return stringAttr(u.attrs, "userName") }
func (u *userRecord) externalID() string  { return stringAttr(u.attrs, "externalId") }
func (u *userRecord) displayName() string { return stringAttr(u.attrs, "displayName") }

// resource hands the elimity server a copy: it adds id, schemas and meta to
// the map it gets, and the stored map must stay as it is.
func (u *userRecord) resource() elimity.Resource {
	return elimity.Resource{
		ID:         u.id,
		Attributes: maps.Clone(u.attrs),
		Meta:       elimity.Meta{Created: &u.created, LastModified: &u.modified},
	}
}

// groupRecord is a stored group.
type groupRecord struct {
	id          string
	displayName string
	externalID  string
	members     []member
	created     time.Time
	modified    time.Time
}

// member is a group member: the SP-side id of a user.
type member struct {
	value   string
	display string
}

func (g *groupRecord) clone() *groupRecord {
	c := *g
	c.members = append([]member(nil), g.members...)
	return &c
}

func (g *groupRecord) resource() elimity.Resource {
	members := make([]any, 0, len(g.members))
	for _, m := range g.members {
		mm := map[string]any{"value": m.value, "type": "User", "$ref": "../Users/" + m.value}
		if m.display != "" {
			mm["display"] = m.display
		}
		members = append(members, mm)
	}
	attrs := elimity.ResourceAttributes{"displayName": g.displayName, "members": members}
	if g.externalID != "" {
		attrs["externalId"] = g.externalID
	}
	return elimity.Resource{
		ID:         g.id,
		Attributes: attrs,
		Meta:       elimity.Meta{Created: &g.created, LastModified: &g.modified},
	}
}

// hasMember reports whether userID is a member.
func (g *groupRecord) hasMember(userID string) bool {
	for _, m := range g.members {
		if m.value == userID {
			return true
		}
	}
	return false
}

// removeMembers drops the members for which drop is true and reports
// whether any was dropped.
func (g *groupRecord) removeMembers(drop func(member) bool) bool {
	kept := g.members[:0]
	for _, m := range g.members {
		if !drop(m) {
			kept = append(kept, m)
		}
	}
	changed := len(kept) != len(g.members)
	g.members = kept
	return changed
}

func stringAttr(attrs map[string]any, key string) string {
	s, _ := attrs[key].(string)
	return s
}

// record is a user or a group the SP keeps.
type record interface {
	resource() elimity.Resource
}

// getRecord answers the record with the id, or SCIM's 404.
func getRecord[R record](records map[string]R, id string) (elimity.Resource, error) {
	rec, ok := records[id]
	if !ok {
		return elimity.Resource{}, scimerrors.ScimErrorResourceNotFound(id)
	}
	return rec.resource(), nil
}

// sortedRecords are the records that match (every one where matches is
// nil) in the order sorted gives them.
func sortedRecords[R record](records map[string]R, matches func(R) bool, sorted func([]R)) []R {
	hits := make([]R, 0, len(records))
	for _, rec := range records {
		if matches == nil || matches(rec) {
			hits = append(hits, rec)
		}
	}
	sorted(hits)
	return hits
}

// listRecords answers the page params ask for of the records that match, in
// the order sorted gives them; its total counts every match.
func listRecords[R record](records map[string]R, matches func(R) bool, sorted func([]R), params elimity.ListRequestParams) elimity.Page {
	hits := sortedRecords(records, matches, sorted)
	resources := []elimity.Resource{}
	for _, rec := range page(hits, params) {
		resources = append(resources, rec.resource())
	}
	return elimity.Page{TotalResults: len(hits), Resources: resources}
}
