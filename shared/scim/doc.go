// Package scim is the service's outbound SCIM 2.0 client (RFC 7643/7644):
// one Client per Service Provider (SP) target creates, replaces, reads and
// deletes Users and Groups and patches group membership (spec 2.1, 2.2, 4.1).
//
// The package never logs. Every failure is an *Error that says whether a
// later retry may succeed (Retryable) and how long the SP asked to wait
// (RetryAfter), so that the caller's queue decides what to do. Secrets never
// appear in errors or in printed values.
package scim
