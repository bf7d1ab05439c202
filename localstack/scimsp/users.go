package scimsp

import (
	"net/http"
	"sort"
	"strings"

	elimity "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
)

// userHandler serves /Users for the elimity server. Errors are returned as
// scimerrors.ScimError values, which the server turns into SCIM error bodies.
type userHandler struct{ sp *SP }

func (h userHandler) Create(r *http.Request, attrs elimity.ResourceAttributes) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if err := sp.checkUserNameFree(stringAttr(attrs, "userName"), ""); err != nil {
		return elimity.Resource{}, err
	}
	now := sp.now()
	u := &userRecord{id: newID(), attrs: attrs, created: now, modified: now}
	sp.users[u.id] = u
	setLocation(r, "/Users", u.id)
	return u.resource(), nil
}

func (h userHandler) Get(r *http.Request, id string) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return getRecord(sp.users, id)
}

func (h userHandler) GetAll(r *http.Request, params elimity.ListRequestParams) (elimity.Page, error) {
	f, attr, err := parseEqFilter(params, userFilterAttributes, h.sp.opts.Filters)
	if err != nil {
		return elimity.Page{}, err
	}
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return listRecords(sp.users, func(u *userRecord) bool {
		return f == nil || f.matches(attr, stringAttr(u.attrs, f.attribute), sp.opts.Unreliable.CaseExactFilters)
	}, sortUsers, params), nil
}

func (h userHandler) Replace(r *http.Request, id string, attrs elimity.ResourceAttributes) (elimity.Resource, error) {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	u, ok := sp.users[id]
	if !ok {
		return elimity.Resource{}, scimerrors.ScimErrorResourceNotFound(id)
	}
	if err := sp.checkUserNameFree(stringAttr(attrs, "userName"), id); err != nil {
		return elimity.Resource{}, err
	}
	u.attrs = attrs
	u.modified = sp.now()
	setLocation(r, "/Users", id)
	return u.resource(), nil
}

// Delete removes the user and its group memberships, as an SP does when a
// user account goes away.
func (h userHandler) Delete(r *http.Request, id string) error {
	sp := h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if _, ok := sp.users[id]; !ok {
		return scimerrors.ScimErrorResourceNotFound(id)
	}
	delete(sp.users, id)
	now := sp.now()
	for _, g := range sp.groups {
		if g.removeMembers(func(m member) bool { return m.value == id }) {
			g.modified = now
		}
	}
	return nil
}

// Patch is not offered for users: the service replaces users with PUT.
func (h userHandler) Patch(r *http.Request, id string, ops []elimity.PatchOperation) (elimity.Resource, error) {
	return elimity.Resource{}, scimerrors.ScimError{
		Status: http.StatusNotImplemented,
		Detail: "This sample SP does not support PATCH on Users; use PUT.",
	}
}

// checkUserNameFree enforces that userName is unique across users, compared
// case-insensitively as its caseExact false asks (RFC 7643 4.1.1); a clash
// is 409 uniqueness (RFC 7644 3.3). except is the user being replaced.
func (sp *SP) checkUserNameFree(userName, except string) error {
	for _, u := range sp.users {
		if u.id != except && strings.EqualFold(u.userName(), userName) {
			e := scimerrors.ScimErrorUniqueness
			e.Detail = "userName is already in use."
			return e
		}
	}
	return nil
}

func sortUsers(us []*userRecord) {
	sort.Slice(us, func(i, j int) bool {
		if a, b := strings.ToLower(us[i].userName()), strings.ToLower(us[j].userName()); a != b {
			return a < b
		}
		return us[i].id < us[j].id
	})
}
