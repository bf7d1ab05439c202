// Package dynamo implements domain.Store on one DynamoDB table with a
// single-table design. DATAMODEL.md in this directory describes every item,
// its keys and the access pattern that needs it; the key and index names are
// a contract with the CDK stack. Files follow one rule, mapped at the top of
// DATAMODEL.md: <entity>.go holds an entity's store methods,
// <entity>_items.go its items and keys.
package dynamo
