package scimsp

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	elimity "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
)

// groupHandler serves /Groups for the elimity server.
type groupHandler struct{ sp *SP }

func (h groupHandler) Create(r *http.Request, attrs elimity.ResourceAttributes) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	members, err := sp.membersOf(attrs["members"])
	if err != nil {
		return elimity.Resource{}, err
	}
	now := sp.now()
	g := &groupRecord{
		id:          newID(),
		displayName: stringAttr(attrs, "displayName"),
		externalID:  stringAttr(attrs, "externalId"),
		members:     members,
		created:     now,
		modified:    now,
	}
	sp.groups[g.id] = g
	setLocation(r, "/Groups", g.id)
	return g.resource(), nil
}

func (h groupHandler) Get(r *http.Request, id string) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return getRecord(sp.groups, id)
}

func (h groupHandler) GetAll(r *http.Request, params elimity.ListRequestParams) (elimity.Page, error) {
	f, attr, err := parseEqFilter(params, groupFilterAttributes, h.sp.opts.Filters)
	if err != nil {
		return elimity.Page{}, err
	}
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return listRecords(sp.groups, func(g *groupRecord) bool {
		return f == nil || f.matches(attr, groupAttr(g, f.attribute), sp.opts.Unreliable.CaseExactFilters)
	}, sortGroups, params), nil
}

// Replace replaces the whole group, members included (spec 3.2: PUT of the
// whole group with all members).
func (h groupHandler) Replace(r *http.Request, id string, attrs elimity.ResourceAttributes) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	g, ok := sp.groups[id]
	if !ok {
		return elimity.Resource{}, scimerrors.ScimErrorResourceNotFound(id)
	}
	members, err := sp.membersOf(attrs["members"])
	if err != nil {
		return elimity.Resource{}, err
	}
	g.displayName = stringAttr(attrs, "displayName")
	g.externalID = stringAttr(attrs, "externalId")
	g.members = members
	g.modified = sp.now()
	setLocation(r, "/Groups", id)
	return g.resource(), nil
}

func (h groupHandler) Delete(r *http.Request, id string) error {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if _, ok := sp.groups[id]; !ok {
		return scimerrors.ScimErrorResourceNotFound(id)
	}
	delete(sp.groups, id)
	return nil
}

// Patch applies the operations to a copy and stores it only if all of them
// succeed: RFC 7644 3.5.2 makes a PATCH atomic.
func (h groupHandler) Patch(r *http.Request, id string, ops []elimity.PatchOperation) (elimity.Resource, error) {
	sp := h.sp
	if sp.opts.NoPatch {
		return elimity.Resource{}, scimerrors.ScimError{Status: http.StatusNotImplemented,
			Detail: "This SP does not support PATCH; replace the group with PUT."}
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	g, ok := sp.groups[id]
	if !ok {
		return elimity.Resource{}, scimerrors.ScimErrorResourceNotFound(id)
	}
	next := g.clone()
	for _, op := range ops {
		if err := sp.applyGroupPatch(next, op); err != nil {
			return elimity.Resource{}, err
		}
	}
	next.modified = sp.now()
	sp.groups[id] = next
	if sp.opts.PatchNoContent {
		return elimity.Resource{}, nil // elimity answers 204 for a resource without attributes
	}
	setLocation(r, "/Groups", id)
	return next.resource(), nil
}

// membersOf reads a validated "members" value: a list of complex values,
// or one complex value. Every member must be an existing user; duplicates
// collapse. The caller holds sp.mu.
func (sp *SP) membersOf(v any) ([]member, error) {
	var items []any
	switch v := v.(type) {
	case nil:
		return []member{}, nil
	case []any:
		items = v
	case map[string]any:
		items = []any{v}
	default:
		return nil, invalidValue("members must be a list of {\"value\": <user id>}")
	}
	out := []member{}
	seen := map[string]bool{}
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, invalidValue("members must be a list of {\"value\": <user id>}")
		}
		value := stringAttr(m, "value")
		u, ok := sp.users[value]
		if !ok {
			return nil, invalidValue(fmt.Sprintf("member %q is not a user of this SP", value))
		}
		if seen[value] {
			continue
		}
		seen[value] = true
		display := stringAttr(m, "display")
		if display == "" {
			display = u.displayName()
		}
		if display == "" {
			display = u.userName()
		}
		out = append(out, member{value: value, display: display})
	}
	return out, nil
}

func invalidValue(detail string) error {
	e := scimerrors.ScimErrorInvalidValue
	e.Detail = detail
	return e
}

func groupAttr(g *groupRecord, name string) string {
	switch name {
	case "displayName":
		return g.displayName
	case "externalId":
		return g.externalID
	}
	return ""
}

func sortGroups(gs []*groupRecord) {
	sort.Slice(gs, func(i, j int) bool {
		if a, b := strings.ToLower(gs[i].displayName), strings.ToLower(gs[j].displayName); a != b {
			return a < b
		}
		return gs[i].id < gs[j].id
	})
}
