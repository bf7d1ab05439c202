package dynamo

// MaxRoleSummaries is the bound of a user's role summary, for the tests.
const MaxRoleSummaries = maxRoleSummaries
