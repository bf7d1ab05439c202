// Package testkit holds the fixtures that the tests of several packages
// share, so that each is written once: a queue that records SCIM
// deliveries, the secret of an invitation link, inviting and accepting
// through the service, and a small application registry. Only tests import
// it; the table itself comes from shared/dynamo/dynamotest.
package testkit
