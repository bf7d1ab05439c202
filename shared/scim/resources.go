package scim

import (
	"context"
	"net/http"
)

// The operations below are the same for Users and Groups; users.go and
// groups.go give them their typed names.

const (
	usersPath  = "/Users"
	groupsPath = "/Groups"
)

// createResource POSTs in and returns the SP's copy. RFC 7644 says 201;
// 200 is accepted because some SPs answer that way.
func createResource[T any](ctx context.Context, c *Client, collection string, in T) (T, error) {
	var out T
	err := c.do(ctx, request{
		method: http.MethodPost, path: collection, body: in,
		ok: []int{http.StatusCreated, http.StatusOK}, out: &out,
	})
	return out, err
}

func replaceResource[T any](ctx context.Context, c *Client, collection, id string, in T) (T, error) {
	var out T
	path, err := resourcePath(collection, id)
	if err != nil {
		return out, err
	}
	err = c.do(ctx, request{
		method: http.MethodPut, path: path, body: in,
		ok: []int{http.StatusOK}, out: &out,
	})
	return out, err
}

func getResource[T any](ctx context.Context, c *Client, collection, id string) (T, error) {
	var out T
	path, err := resourcePath(collection, id)
	if err != nil {
		return out, err
	}
	err = c.do(ctx, request{
		method: http.MethodGet, path: path,
		ok: []int{http.StatusOK}, out: &out,
	})
	return out, err
}

// deleteResource accepts 200 and 204. A 404 is returned as an *Error for
// which IsNotFound holds; whether that counts as done is the caller's call.
func deleteResource(ctx context.Context, c *Client, collection, id string) error {
	path, err := resourcePath(collection, id)
	if err != nil {
		return err
	}
	return c.do(ctx, request{
		method: http.MethodDelete, path: path,
		ok: []int{http.StatusOK, http.StatusNoContent},
	})
}

// findResources lists the resources whose attribute equals value. It reads
// the first page only: an eq filter on an identifying attribute matches at
// most a handful, and every SP's default page holds that.
func findResources[T any](ctx context.Context, c *Client, collection, attribute, value string) ([]T, error) {
	f, err := eqFilter(attribute, value)
	if err != nil {
		return nil, err
	}
	var out listResponse[T]
	err = c.do(ctx, request{
		method: http.MethodGet, path: collection, query: filterQuery(f),
		ok: []int{http.StatusOK}, out: &out,
	})
	if err != nil {
		return nil, err
	}
	if out.Resources == nil {
		return []T{}, nil
	}
	return out.Resources, nil
}
