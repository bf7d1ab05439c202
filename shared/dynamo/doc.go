// Package dynamo implements domain.Store on one DynamoDB table with a
// single-table design. DATAMODEL.md in this directory describes every item,
// its keys and the access pattern that needs it; the key and index names are
// a contract with the CDK stack.
package dynamo
