// Package testkit holds the fixtures that the tests of several packages
// share, so that each is written once: a queue that records SCIM
// deliveries, the secret of an invitation link, inviting and accepting
// through the service, a small application registry, and a log buffer that
// goroutines write to while a test reads it. Only tests and test harnesses
// (localstack/parity) import it; the table itself comes from
// shared/dynamo/dynamotest.
package testkit
