package main

// functionKind says how a function is invoked.
type functionKind int

const (
	apiFunction functionKind = iota
	queueConsumer
	scheduledJob
	// mailEventConsumer gets the SES events (bounces, complaints) of the
	// service's configuration set from an EventBridge rule.
	mailEventConsumer
)

// tableAccess is what a function may do with the table.
type tableAccess int

const (
	tableReadOnly tableAccess = iota
	tableReadWrite
	// tableReadWriteByLeadingKey: reads everywhere, writes only to the
	// partitions whose key starts with one of functionSpec.WritablePartitions.
	tableReadWriteByLeadingKey
)

// Partition key prefixes that the background workers may write. They match
// the key prefixes of shared/dynamo.
const (
	partitionSPLink   = "SPLINK#"
	partitionDelivery = "DELIVERY#"
	partitionAudit    = "AUDIT#"
	// partitionAuditSequence is the one sequence item the provisioner
	// updates: it numbers its audit entries as the API numbers the others.
	partitionAuditSequence = "SEQ#audit"
	partitionMail          = "MAIL#"
	// partitionJobRun + a job's name is the item of its last run, which
	// the console's operations page shows.
	partitionJobRun = "JOB#"
	// partitionSPGuard is each SP's rate window and circuit breaker, which
	// every instance that calls SPs shares (shared/provisioner/guard.go).
	partitionSPGuard = "SPGUARD#"
)

// functionSpec is one directory under functions/: how it is invoked and
// every capability it has. Environment and IAM grants are derived from it,
// so a capability missing here is neither configured nor permitted.
type functionSpec struct {
	Name           string
	Kind           functionKind
	TimeoutSeconds int
	MemoryMB       int

	Table              tableAccess
	WritablePartitions []string

	SendsToQueue        bool // SCIM_QUEUE_URL and sqs:SendMessage on the work queue
	SendsToDeadLetters  bool // SCIM_DLQ_URL and sqs:SendMessage on the DLQ
	SendsMail           bool // MAIL_FROM, SES_CONFIGURATION_SET and ses:SendEmail
	ReadsMachineCallers bool // MACHINE_CALLERS_SECRET_ARN and read of that secret
	ReadsSPSecrets      bool // secretsmanager:GetSecretValue on invite/sp/* and the connection prefix
	// ManagesConnections: CONNECTION_SECRET_PREFIX and create, write, read
	// and delete of the secrets under it (the registry API of issue 16).
	// The applications and connections themselves are table items.
	ManagesConnections bool
	// TestsConnections: secretsmanager:GetSecretValue (read only) on
	// invite/sp/*, so that the registry's "test connection" also resolves
	// connections whose credential is a secret managed by hand there.
	TestsConnections    bool
	NeedsPublicURL      bool // PUBLIC_BASE_URL, for links in e-mails and responses
	ServesSessionConfig bool // the session settings of U6 (session.go)
	Seeds               bool // PERFORMANCE_SEED_ALLOWED, the switch of S1
	SignsInPeople       bool // OIDC_CLIENT_ID, OIDC_CLIENT_SECRET_ARN (and read of it), SESSION_IDLE_TIMEOUT

	// Routes are HTTP API path prefixes; each gets ANY on the prefix and on
	// prefix/{proxy+}.
	Routes []string
	// ExactRoutes get ANY on the path alone: single paths inside another
	// function's prefix (API Gateway prefers the exact path).
	ExactRoutes []string
	// RootRoute adds ANY / (the pages' start page).
	RootRoute bool
	// Schedule is an EventBridge schedule expression for scheduled jobs.
	Schedule string
}

// webSessionAPIRoutes are the /api/v1 paths the pages serve
// (shared/web/routes.go, session_api.go).
var webSessionAPIRoutes = []string{"/api/v1/users/login", "/api/v1/users/logout", "/api/v1/users/error", "/api/v1/csrf", "/api/v1/disclaimer"}

const (
	apiTimeoutSeconds = 10
	// invitingTimeoutSeconds is the time limit of the functions that take
	// invitation requests of up to 500 recipients (API and console): just
	// under API Gateway's 30 s, so such a request is answered, never cut.
	invitingTimeoutSeconds    = 29
	provisionerTimeoutSeconds = 60
	defaultMemoryMB           = 256
)

// functionSpecs lists every function of the service.
var functionSpecs = []functionSpec{
	{
		Name: "users", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true, ServesSessionConfig: true,
		Routes: []string{"/api/v1/users", "/api/external/v1/users", "/api/v1/user_roles", "/api/external/v1/user_roles", "/api/external/v1/internal/invite/user_roles",
			"/api/external/v1/voot", "/api/external/v1/aa", "/api/external/v1/deprovision", "/api/external/v1/profile"},
	},
	{
		Name: "roles", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, ReadsMachineCallers: true,
		Routes: []string{"/api/v1/roles", "/api/internal/roles", "/api/external/v1/roles", "/api/external/v1/internal/invite/roles", "/api/external/v1/internal/invite/roles-summary"},
	},
	{
		Name: "invitations", Kind: apiFunction, TimeoutSeconds: invitingTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true,
		Routes:         []string{"/api/v1/invitations", "/api/internal/invitations", "/api/external/v1/invitations", "/api/external/v1/internal/invite/invitations"},
	},
	{
		Name: "crm", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true,
		Routes:         []string{"/crm", "/api/profile", "/api/external/v1/invite/crm"},
	},
	{
		Name: "tokens", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table:  tableReadWrite,
		Routes: []string{"/api/v1/tokens", "/api/v1/user_roles_audit", "/api/external/v1/tokens", "/api/external/v1/user_roles_audit"},
	},
	{
		Name: "system", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true,
		NeedsPublicURL: true, Seeds: true, ManagesConnections: true, TestsConnections: true,
		Routes: []string{"/api/v1/system", "/api/v1/manage", "/api/external/v1/system", "/api/external/v1/manage", "/api/docs", "/health", "/api/v1/validations", "/api/external/v1/validations"},
	},
	{
		// The pages (shared/web): sign-in, the acceptance page, my access.
		// The console invites (e-mail) and manages the registry's SCIM
		// connections, their credentials and their "test connection".
		Name: "web", Kind: apiFunction, TimeoutSeconds: invitingTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true, NeedsPublicURL: true, SignsInPeople: true,
		ManagesConnections: true, TestsConnections: true,
		Routes: []string{"/invitation", "/login", "/logout", "/my", "/static", "/console"}, RootRoute: true,
		// The reference client's session routes: under /api/v1, but they
		// need the browser session.
		ExactRoutes: webSessionAPIRoutes,
	},
	{
		Name: "provisioner", Kind: queueConsumer, TimeoutSeconds: provisionerTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableReadWriteByLeadingKey, WritablePartitions: []string{partitionSPLink, partitionDelivery, partitionAudit, partitionAuditSequence, partitionSPGuard},
		SendsToDeadLetters: true, ReadsSPSecrets: true,
	},
	{
		// Hourly: ends expired user-roles, notifies users and queues SCIM updates.
		Name: "expiry", Kind: scheduledJob, TimeoutSeconds: 300, MemoryMB: defaultMemoryMB,
		Table: tableReadWrite, SendsToQueue: true, SendsMail: true,
		NeedsPublicURL: true,
		Schedule:       "rate(1 hour)",
	},
	{
		// Daily: removes expired invitations (memberships end in expiry).
		Name: "cleanup", Kind: scheduledJob, TimeoutSeconds: 300, MemoryMB: defaultMemoryMB,
		Table:    tableReadWrite,
		Schedule: "cron(0 3 * * ? *)",
	},
	{
		// Every minute: re-queues outbox deliveries whose send did not happen
		// and retries e-mails of the mail outbox that SES did not take.
		// The timeout stays below the interval so that runs do not overlap.
		Name: "outbox-sweep", Kind: scheduledJob, TimeoutSeconds: 50, MemoryMB: defaultMemoryMB,
		Table: tableReadWriteByLeadingKey, WritablePartitions: []string{partitionDelivery, partitionMail, partitionJobRun + "outbox-sweep"},
		SendsToQueue: true, SendsMail: true,
		Schedule: "rate(1 minute)",
	},
	{
		// Daily: compares every SP with the service and repairs the
		// difference (the reconcile job of shared/provisioner).
		Name: "reconcile", Kind: scheduledJob, TimeoutSeconds: 900, MemoryMB: defaultMemoryMB,
		Table: tableReadWriteByLeadingKey, WritablePartitions: []string{partitionSPLink, partitionJobRun + "reconcile", partitionSPGuard},
		ReadsSPSecrets: true,
		Schedule:       "cron(0 4 * * ? *)",
	},
	{
		// Records bounces and complaints on the outbox mail they are about.
		Name: "mail-events", Kind: mailEventConsumer, TimeoutSeconds: 30, MemoryMB: defaultMemoryMB,
		Table: tableReadWriteByLeadingKey, WritablePartitions: []string{partitionMail},
	},
}
