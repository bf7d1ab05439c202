package scimsp

import (
	"encoding/json"
	"strings"

	elimity "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	filter "github.com/scim2/filter-parser/v2"
)

// eqFilter is a parsed `<attribute> eq "<value>"`, the only filter form the
// sample SP supports; it is what the service uses to find a resource again.
type eqFilter struct {
	attribute string // canonical name, e.g. "userName"
	value     string
}

// filterableAttribute names an attribute a list may be filtered on and
// whether it compares case-exactly (RFC 7643: externalId yes, userName and
// displayName no).
type filterableAttribute struct {
	name      string
	caseExact bool
}

var (
	userFilterAttributes = []filterableAttribute{
		{"externalId", true}, {"userName", false}, {"displayName", false},
	}
	groupFilterAttributes = []filterableAttribute{
		{"externalId", true}, {"displayName", false},
	}
)

// parseEqFilter turns the filter the elimity server parsed into an
// eqFilter; nil params mean no filter. Anything else is 400 invalidFilter.
func parseEqFilter(params elimity.ListRequestParams, allowed []filterableAttribute, support FilterSupport) (*eqFilter, *filterableAttribute, error) {
	if params.FilterValidator == nil {
		return nil, nil, nil
	}
	if support == FiltersNone {
		return nil, nil, unsupportedFilter()
	}
	expr, ok := params.FilterValidator.GetFilter().(*filter.AttributeExpression)
	if !ok || expr.Operator != filter.EQ || expr.AttributePath.SubAttribute != nil {
		return nil, nil, unsupportedFilter()
	}
	raw, ok := expr.CompareValue.(string)
	if !ok {
		return nil, nil, unsupportedFilter()
	}
	for i := range allowed {
		if strings.EqualFold(allowed[i].name, expr.AttributePath.AttributeName) {
			if support == FiltersNoExternalID && allowed[i].name == "externalId" {
				return nil, nil, unsupportedFilter()
			}
			return &eqFilter{attribute: allowed[i].name, value: unescapeFilterString(raw)}, &allowed[i], nil
		}
	}
	return nil, nil, unsupportedFilter()
}

func unsupportedFilter() error {
	e := scimerrors.ScimErrorInvalidFilter
	e.Detail = `This sample SP supports only filters of the form <attribute> eq "<value>" on externalId, userName (Users) and displayName.`
	return e
}

// unescapeFilterString undoes the JSON string escapes of a compValue: the
// filter parser strips the quotes but leaves \" and \\ as written.
func unescapeFilterString(raw string) string {
	var s string
	if err := json.Unmarshal([]byte(`"`+raw+`"`), &s); err != nil {
		return raw
	}
	return s
}

// matches reports whether got satisfies the filter under attr's case rule.
func (f *eqFilter) matches(attr *filterableAttribute, got string, allExact bool) bool {
	if attr.caseExact || allExact {
		return got == f.value
	}
	return strings.EqualFold(got, f.value)
}

// page applies startIndex and count (both already clamped by the server).
func page[T any](all []T, params elimity.ListRequestParams) []T {
	start := min(max(params.StartIndex-1, 0), len(all))
	end := min(start+max(params.Count, 0), len(all))
	return all[start:end]
}
