package scim

import (
	"context"
	"errors"
	"net/http"
	"strconv"
)

// ServiceProviderConfig is what the service reads of an SP's
// /ServiceProviderConfig (RFC 7643 5): whether it filters lists and takes
// PATCH. An SP that does not serve the endpoint is treated as unknown.
type ServiceProviderConfig struct {
	Patch  Supported       `json:"patch"`
	Filter FilterSupported `json:"filter"`
}

// Supported is a "supported" flag of the configuration.
type Supported struct {
	Supported bool `json:"supported"`
}

// FilterSupported is the filter entry: supported, and the most results a
// list answers with.
type FilterSupported struct {
	Supported  bool `json:"supported"`
	MaxResults int  `json:"maxResults"`
}

// GetServiceProviderConfig reads /ServiceProviderConfig.
func (c *Client) GetServiceProviderConfig(ctx context.Context) (ServiceProviderConfig, error) {
	var out ServiceProviderConfig
	err := c.do(ctx, request{method: http.MethodGet, path: "/ServiceProviderConfig", ok: []int{http.StatusOK}, out: &out})
	return out, err
}

// Page is one page of an unfiltered listing.
type Page[T any] struct {
	TotalResults int
	Resources    []T
}

// ListUsers reads one page of /Users without a filter, from startIndex
// (1-based) with at most count resources.
func (c *Client) ListUsers(ctx context.Context, startIndex, count int) (Page[User], error) {
	return listPage[User](ctx, c, usersPath, startIndex, count)
}

// ListGroups reads one page of /Groups without a filter.
func (c *Client) ListGroups(ctx context.Context, startIndex, count int) (Page[Group], error) {
	return listPage[Group](ctx, c, groupsPath, startIndex, count)
}

func listPage[T any](ctx context.Context, c *Client, collection string, startIndex, count int) (Page[T], error) {
	var out listResponse[T]
	err := c.do(ctx, request{
		method: http.MethodGet, path: collection,
		query: "startIndex=" + strconv.Itoa(startIndex) + "&count=" + strconv.Itoa(count),
		ok:    []int{http.StatusOK}, out: &out,
	})
	if err != nil {
		return Page[T]{}, err
	}
	return Page[T]{TotalResults: out.TotalResults, Resources: out.Resources}, nil
}

// IsFilterRefused reports whether err is an SP refusing a filtered list it
// does not support: 400 invalidFilter (RFC 7644 3.4.2.2), 501 Not
// Implemented, or a 400/403 without a SCIM type on the list itself. The
// request may be legitimate for another SP; it is no fault of the delivery.
func IsFilterRefused(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Status {
	case http.StatusNotImplemented:
		return true
	case http.StatusBadRequest:
		return e.SCIMType == "" || e.SCIMType == "invalidFilter" || e.SCIMType == "tooMany"
	case http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}
