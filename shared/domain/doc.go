// Package domain holds the service's entities, their rules and the ports the
// rest of the service implements (storage, queue, mail, SCIM). It imports no
// AWS SDK and no HTTP: every outside system depends on it, never the reverse.
package domain
