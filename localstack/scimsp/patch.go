package scimsp

import (
	"strings"

	elimity "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	filter "github.com/scim2/filter-parser/v2"
)

// applyGroupPatch applies one validated PATCH operation to g. Supported:
//
//	add/replace/remove  path "members"               value [{"value": id}, ...]
//	remove              path `members[value eq "id"]` (no value)
//	add/replace         path "displayName" or "externalId"
//	add/replace         no path, value {"members": [...], "displayName": ...}
//
// The elimity server has already checked the path against the schema and
// wrapped multi-valued values in a slice. The caller holds sp.mu.
func (sp *SP) applyGroupPatch(g *groupRecord, op elimity.PatchOperation) error {
	if op.Path == nil {
		attrs, ok := op.Value.(map[string]any)
		if !ok || op.Op == elimity.PatchOperationRemove {
			return noTarget()
		}
		for name, v := range attrs {
			if err := sp.patchAttribute(g, op.Op, name, nil, v); err != nil {
				return err
			}
		}
		return nil
	}
	if op.Path.AttributePath.SubAttribute != nil || op.Path.SubAttribute != nil {
		return invalidPath()
	}
	return sp.patchAttribute(g, op.Op, op.Path.AttributePath.AttributeName, op.Path.ValueExpression, op.Value)
}

func (sp *SP) patchAttribute(g *groupRecord, opName, attr string, where filter.Expression, value any) error {
	switch {
	case strings.EqualFold(attr, "members"):
		return sp.patchMembers(g, opName, where, value)
	case where != nil:
		return invalidPath()
	case strings.EqualFold(attr, "displayName") && opName != elimity.PatchOperationRemove:
		s, ok := value.(string)
		if !ok || s == "" {
			return invalidValue("displayName must be a non-empty string")
		}
		g.displayName = s
	case strings.EqualFold(attr, "externalId"):
		if opName == elimity.PatchOperationRemove {
			g.externalID = ""
			return nil
		}
		s, ok := value.(string)
		if !ok {
			return invalidValue("externalId must be a string")
		}
		g.externalID = s
	default:
		return invalidPath()
	}
	return nil
}

func (sp *SP) patchMembers(g *groupRecord, opName string, where filter.Expression, value any) error {
	if where != nil {
		// members[value eq "id"]: only remove is meaningful.
		if opName != elimity.PatchOperationRemove {
			return invalidPath()
		}
		var err error
		g.removeMembers(func(m member) bool {
			ok, e := memberMatches(where, m)
			if e != nil {
				err = e
			}
			return ok
		})
		return err
	}
	switch opName {
	case elimity.PatchOperationAdd:
		add, err := sp.membersOf(value)
		if err != nil {
			return err
		}
		for _, m := range add {
			if !g.hasMember(m.value) || sp.opts.Unreliable.PatchAddRepeats {
				g.members = append(g.members, m)
			}
		}
	case elimity.PatchOperationReplace:
		members, err := sp.membersOf(value)
		if err != nil {
			return err
		}
		g.members = members
	case elimity.PatchOperationRemove:
		if value == nil {
			g.members = []member{} // RFC 7644 3.5.2.2: no value removes all
			return nil
		}
		drop, err := memberIDs(value)
		if err != nil {
			return err
		}
		// Removing a member that is not there is not an error: a repeated
		// delivery must leave the group as it is.
		g.removeMembers(func(m member) bool { return drop[m.value] })
	default:
		return invalidPath()
	}
	return nil
}

// memberIDs reads the ids of a remove value, which need not be users any
// more (the user may have been deleted already).
func memberIDs(value any) (map[string]bool, error) {
	items, ok := value.([]any)
	if !ok {
		items = []any{value}
	}
	ids := map[string]bool{}
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok || stringAttr(m, "value") == "" {
			return nil, invalidValue("members to remove must be given as {\"value\": <user id>}")
		}
		ids[stringAttr(m, "value")] = true
	}
	return ids, nil
}

// memberMatches evaluates a value filter such as `value eq "id"` (also
// combined with and/or) against one member.
func memberMatches(e filter.Expression, m member) (bool, error) {
	switch e := e.(type) {
	case *filter.AttributeExpression:
		want, ok := e.CompareValue.(string)
		if e.Operator != filter.EQ || !ok {
			return false, unsupportedFilter()
		}
		want = unescapeFilterString(want)
		switch strings.ToLower(e.AttributePath.AttributeName) {
		case "value":
			return m.value == want, nil
		case "display":
			return strings.EqualFold(m.display, want), nil
		}
		return false, unsupportedFilter()
	case *filter.LogicalExpression:
		l, err := memberMatches(e.Left, m)
		if err != nil {
			return false, err
		}
		r, err := memberMatches(e.Right, m)
		if err != nil {
			return false, err
		}
		if e.Operator == filter.AND {
			return l && r, nil
		}
		return l || r, nil
	}
	return false, unsupportedFilter()
}

func invalidPath() error { return scimerrors.ScimErrorInvalidPath }
func noTarget() error    { return scimerrors.ScimErrorNoTarget }
