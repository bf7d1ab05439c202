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
	// onDemandJobRunner is invoked asynchronously by the system function
	// to run a job a super user started (work longer than a request).
	onDemandJobRunner
)

// functionSpec is one directory under functions/: how it is invoked and
// every capability it has. Environment and IAM grants are derived from it,
// so a capability missing here is neither configured nor permitted.
type functionSpec struct {
	Name           string
	Kind           functionKind
	TimeoutSeconds int
	MemoryMB       int

	// Table is the item kinds it reads and writes and the index
	// partitions it queries (table_access.go).
	Table tableAccess
	// ScansTable: dynamodb:Scan on the table, for the one maintenance job
	// that reads every item (the date check and repair); no request path
	// scans.
	ScansTable bool

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
	// EndsExpired: EXPIRY_LIMIT, when the operator sets one (the expiry
	// run and its continuation in the jobs function).
	EndsExpired bool
	// ManagesRoles: ROLE_DELETION_BUDGET and ROLE_MOVE_BUDGET, when the
	// operator sets them (a role's deletion or its move to another
	// organization, which hands the members past them to the jobs
	// function).
	ManagesRoles bool

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
		// Memberships and users; removals notify by e-mail (the outbox).
		Table: tableAccess{
			Reads:   kinds(roleItems, []string{partitionInvitation, partitionRegistry, partitionSPLink, partitionToken, partitionOrganization}),
			Writes:  kinds(membershipItems, []string{partitionMail}, []string{partitionAuthFailure}),
			Indexes: peopleIndexes,
		},
		SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true, ServesSessionConfig: true,
		Routes: []string{"/api/v1/users", "/api/external/v1/users", "/api/v1/user_roles", "/api/external/v1/user_roles", "/api/external/v1/internal/invite/user_roles",
			"/api/external/v1/voot", "/api/external/v1/aa", "/api/external/v1/deprovision", "/api/external/v1/profile"},
	},
	{
		Name: "roles", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// Roles; a role's deletion removes its memberships (JOB#job#<id>:
		// the role deletion job it queues for the jobs function with the
		// members past its budget).
		Table: tableAccess{
			Reads:   []string{partitionInvitation, partitionRegistry, partitionSPLink, partitionToken, partitionOrganization},
			Writes:  kinds(membershipItems, roleItems, []string{partitionMail, partitionJobRun + "job#"}, []string{partitionAuthFailure}),
			Indexes: kinds(peopleIndexes, []string{indexInviter}),
		},
		SendsToQueue: true, ReadsMachineCallers: true, ManagesRoles: true,
		Routes: []string{"/api/v1/roles", "/api/internal/roles", "/api/external/v1/roles", "/api/external/v1/internal/invite/roles", "/api/external/v1/internal/invite/roles-summary"},
	},
	{
		Name: "invitations", Kind: apiFunction, TimeoutSeconds: invitingTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// Invitations, the daily cap, acceptance (memberships, the CRM
		// contact of a CRM invitation).
		Table: tableAccess{
			Reads:   kinds(roleItems, []string{partitionRegistry, partitionSPLink, partitionToken, partitionOrganization}),
			Writes:  kinds(membershipItems, []string{partitionInvitation, partitionInvitationQuota, partitionMail, partitionCRM}, []string{partitionAuthFailure}),
			Indexes: kinds(peopleIndexes, invitationIndexes),
		},
		SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true,
		Routes:         []string{"/api/v1/invitations", "/api/internal/invitations", "/api/external/v1/invitations", "/api/external/v1/internal/invite/invitations"},
	},
	{
		Name: "crm", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		Table: tableAccess{
			Reads:   kinds(roleItems, []string{partitionRegistry, partitionSPLink, partitionToken, partitionOrganization}),
			Writes:  kinds(membershipItems, []string{partitionInvitation, partitionInvitationQuota, partitionMail, partitionCRM}, []string{partitionAuthFailure}),
			Indexes: kinds(peopleIndexes, invitationIndexes, []string{indexCRMContact, indexCRMOrganisations}),
		},
		SendsToQueue: true, SendsMail: true, ReadsMachineCallers: true,
		NeedsPublicURL: true,
		Routes:         []string{"/crm", "/api/profile", "/api/external/v1/invite/crm"},
	},
	{
		Name: "tokens", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// API tokens and the audit; a login's attribute sync writes the
		// user and its deliveries.
		Table: tableAccess{
			Reads: []string{partitionRole, partitionRoleWord, partitionRoleListing, partitionCount, partitionAudit, partitionRegistry,
				partitionSPLink, partitionOrganization},
			Writes: []string{partitionToken, partitionTokenID, partitionPendingToken, partitionSequence, partitionUser,
				partitionUserWord, partitionUserExact, partitionUserSub, partitionDelivery, partitionAuthFailure},
			Indexes: []string{indexOrganization, indexAllTokens, indexAudit, indexAllRoles, indexRoleListing, indexRoleWords, indexMembership},
		},
		Routes: []string{"/api/v1/tokens", "/api/v1/user_roles_audit", "/api/external/v1/tokens", "/api/external/v1/user_roles_audit"},
	},
	{
		Name: "system", Kind: apiFunction, TimeoutSeconds: apiTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// The super users' operations: the cron jobs on demand (expiry,
		// cleanup with expired tokens), deliveries and mails, repairs, the
		// seed, the registry, on-demand reconcile jobs, the CRM sync report.
		// Neither sessions nor pending token values.
		Table: tableAccess{
			Reads: []string{partitionSPLink, partitionCRM},
			Writes: kinds(membershipItems, roleItems, []string{partitionInvitation, partitionMail, partitionRegistry,
				partitionRegistryChange, partitionToken, partitionTokenID, partitionJobRun, partitionOrganization}, []string{partitionAuthFailure}),
			Indexes: kinds(peopleIndexes, invitationIndexes, []string{indexSPLinks, indexOutbox, indexDeadLetters, indexMailbox,
				indexAudit, indexAllTokens, indexExpiringMemberships, indexExpiringInvitations, indexExpiringTokens, indexCRMOrganisations}),
		},
		SendsToQueue: true, SendsMail: true,
		NeedsPublicURL: true, Seeds: true, ManagesConnections: true, TestsConnections: true,
		Routes: []string{"/api/v1/system", "/api/v1/manage", "/api/external/v1/system", "/api/external/v1/manage", "/api/docs", "/health", "/api/v1/validations", "/api/external/v1/validations"},
	},
	{
		// The pages (shared/web): sign-in, the acceptance page, my access.
		// The console invites (e-mail) and manages the registry's SCIM
		// connections, their credentials and their "test connection".
		Name: "web", Kind: apiFunction, TimeoutSeconds: invitingTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// The only function with sessions. The console's token page
		// generates a value and persists it in one request, through the
		// pending token item as the API's two steps do.
		Table: tableAccess{
			// Job runs: the operations page shows them; a reconcile started
			// from the console is queued as its own job item, and a role
			// moved to another organization on the role form queues a role
			// move job (JOB#job#<id>) with the members past its budget.
			Reads: []string{partitionSPLink, partitionJobRun},
			Writes: kinds(membershipItems, roleItems, []string{partitionInvitation, partitionInvitationQuota, partitionMail,
				partitionCRM, partitionRegistry, partitionRegistryChange, partitionToken, partitionTokenID, partitionPendingToken, partitionSession,
				partitionOrganization, partitionJobRun + "reconcile#", partitionJobRun + "job#"}, []string{partitionAuthFailure}),
			Indexes: kinds(peopleIndexes, invitationIndexes, []string{indexPersonSessions, indexAllTokens, indexAudit,
				indexSPLinks, indexOutbox, indexDeadLetters, indexMailbox, indexInvitationPerson}),
		},
		SendsToQueue: true, SendsMail: true, NeedsPublicURL: true, SignsInPeople: true,
		ManagesConnections: true, TestsConnections: true, ManagesRoles: true,
		Routes: []string{"/invitation", "/login", "/logout", "/my", "/static", "/console"}, RootRoute: true,
		// The reference client's session routes: under /api/v1, but they
		// need the browser session.
		ExactRoutes: webSessionAPIRoutes,
	},
	{
		Name: "provisioner", Kind: queueConsumer, TimeoutSeconds: provisionerTimeoutSeconds, MemoryMB: defaultMemoryMB,
		// Reads the users, memberships and roles it provisions; writes
		// SP links, delivery statuses and their audit entries.
		Table: tableAccess{
			Reads:   []string{partitionUser, partitionRole, partitionRegistry},
			Writes:  []string{partitionSPLink, partitionDelivery, partitionAudit, partitionAuditSequence, partitionSPGuard},
			Indexes: []string{indexSPLinks, indexRoleMembers, indexMembership},
		},
		SendsToDeadLetters: true, ReadsSPSecrets: true,
	},
	{
		// Hourly: ends expired user-roles, notifies users and queues SCIM updates.
		Name: "expiry", Kind: scheduledJob, TimeoutSeconds: 300, MemoryMB: defaultMemoryMB,
		Table: tableAccess{
			Reads: kinds(roleItems, []string{partitionRegistry, partitionSPLink, partitionOrganization}),
			// JOB#job#<id>: the continuation it queues for the jobs
			// function when memberships are left at its time limit.
			Writes:  kinds(membershipItems, []string{partitionMail, partitionJobRun + "expiry", partitionJobRun + "job#"}),
			Indexes: kinds(peopleIndexes, []string{indexExpiringMemberships}),
		},
		SendsToQueue: true, SendsMail: true, EndsExpired: true,
		NeedsPublicURL: true,
		Schedule:       "rate(1 hour)",
	},
	{
		// Daily: removes expired invitations (memberships end in expiry).
		Name: "cleanup", Kind: scheduledJob, TimeoutSeconds: 300, MemoryMB: defaultMemoryMB,
		// Expired memberships (their "access ended" mails go out with the
		// outbox sweep), invitations and API tokens.
		Table: tableAccess{
			Reads: kinds(roleItems, []string{partitionRegistry, partitionSPLink, partitionOrganization}),
			Writes: kinds(membershipItems, []string{partitionInvitation, partitionMail, partitionToken, partitionTokenID,
				partitionJobRun + "cleanup"}),
			Indexes: kinds(peopleIndexes, []string{indexExpiringMemberships, indexExpiringInvitations, indexExpiringTokens}),
		},
		Schedule: "cron(0 3 * * ? *)",
	},
	{
		// Every minute: re-queues outbox deliveries whose send did not happen
		// and retries e-mails of the mail outbox that SES did not take.
		// The timeout stays below the interval so that runs do not overlap.
		Name: "outbox-sweep", Kind: scheduledJob, TimeoutSeconds: 50, MemoryMB: defaultMemoryMB,
		Table: tableAccess{
			Reads:   []string{partitionRegistry},
			Writes:  []string{partitionDelivery, partitionMail, partitionJobRun + "outbox-sweep"},
			Indexes: []string{indexOutbox, indexMailbox},
		},
		SendsToQueue: true, SendsMail: true,
		Schedule: "rate(1 minute)",
	},
	{
		// Daily: compares every SP with the service and repairs the
		// difference (the reconcile job of shared/provisioner).
		Name: "reconcile", Kind: scheduledJob, TimeoutSeconds: 900, MemoryMB: defaultMemoryMB,
		// Compares the users and groups of each SP with its links; records
		// its run (on demand: reconcile#<job id>).
		Table: tableAccess{
			Reads:   []string{partitionUser, partitionRole, partitionRegistry},
			Writes:  []string{partitionSPLink, partitionJobRun + "reconcile", partitionSPGuard},
			Indexes: []string{indexSPLinks, indexRoleMembers, indexMembership},
		},
		ReadsSPSecrets: true,
		Schedule:       "cron(0 4 * * ? *)",
	},
	{
		// Runs the on-demand jobs the system function starts (the cron,
		// repair and seed operations): invoked asynchronously, with the
		// time they need. A job is claimed once, so Lambda's retries of an
		// invocation do not run it twice.
		Name: "jobs", Kind: onDemandJobRunner, TimeoutSeconds: 900, MemoryMB: defaultMemoryMB,
		// Reminders, cleanup, the date and index repairs and the seed: the
		// item kinds of memberships, roles, invitations, mails and tokens.
		// Neither sessions nor pending token values.
		Table: tableAccess{
			Reads: []string{partitionSPLink, partitionCRM, partitionRegistry, partitionOrganization},
			Writes: kinds(membershipItems, roleItems, []string{partitionInvitation, partitionMail, partitionToken,
				partitionTokenID, partitionJobRun, partitionSeedCounts}),
			Indexes: kinds(peopleIndexes, invitationIndexes, []string{indexSPLinks, indexOutbox, indexMailbox,
				indexExpiringMemberships, indexExpiringInvitations, indexExpiringTokens}),
		},
		ScansTable: true, SendsToQueue: true, SendsMail: true, NeedsPublicURL: true, Seeds: true, EndsExpired: true,
	},
	{
		// Records bounces and complaints on the outbox mail they are about.
		Name: "mail-events", Kind: mailEventConsumer, TimeoutSeconds: 30, MemoryMB: defaultMemoryMB,
		Table: tableAccess{
			Reads:  []string{partitionRegistry},
			Writes: []string{partitionMail},
		},
	},
}
