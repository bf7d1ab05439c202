// Package scimsp is a sample SCIM 2.0 Service Provider kept in memory. The
// embedded local stack runs it so that a newcomer can watch users and groups
// arrive (GET /state), and end-to-end tests use it as the SP the service
// provisions into. It is built on github.com/elimity-com/scim, which parses
// and validates requests against the schemas; this package stores the
// resources, enforces userName uniqueness and group membership rules, and
// adds authentication, a Location header and a request log.
//
// It is not a production SP: no persistence, no ETags, no bulk, no sorting.
package scimsp
