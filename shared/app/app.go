// Package app wires the service from its environment: the same wiring for
// every Lambda and for the local stack. Only endpoints differ between AWS,
// LocalStack and the embedded stack, and those come from the standard SDK
// configuration (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_DYNAMODB, ...).
package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/metrics"
	"github.com/edu-invite/invite/shared/oidc"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/scimprobe"
	"github.com/edu-invite/invite/shared/secrets"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/ses"
	"github.com/edu-invite/invite/shared/sqs"
	"github.com/edu-invite/invite/shared/web"
)

// Settings are the environment of a function.
type Settings struct {
	TableName        string
	QueueURL         string
	DeadLetterURL    string
	MailFrom         string
	ConfigurationSet string
	PublicBaseURL    string
	OIDCIssuer       string
	OIDCAudience     string
	BootstrapToken   string
	GroupURNPrefix   string
	// SuperUsers from SUPER_USERS: subjects or eduPersonPrincipalNames of
	// the people who are super users, separated by commas or spaces.
	SuperUsers []string
	// MachineCallers is the secret reference of the machine callers' JSON
	// (auth.MachineCallersConfig): MACHINE_CALLERS ("env:VAR" or
	// "secretsmanager:name"), else secretsmanager:<MACHINE_CALLERS_SECRET_ARN>.
	MachineCallers string
	// ReminderDays from REMINDER_DAYS: "30,7,1" (the default when unset) or "off".
	ReminderDays []int
	// ExpiryLimit from EXPIRY_LIMIT: the memberships one expiry run takes
	// on before it hands the rest on to a continuation (0, unset: no bound
	// but the run's time limit; service.Lifecycle.ExpiryLimit).
	ExpiryLimit int
	// RoleDeletionBudget from ROLE_DELETION_BUDGET and RoleMoveBudget from
	// ROLE_MOVE_BUDGET: the members a role's deletion, or its move to
	// another organization, handles in its own request before it hands the
	// rest to a job in the jobs function (0, unset: the service's defaults,
	// service.DefaultRoleDeletionBudget and DefaultRoleMoveBudget).
	RoleDeletionBudget, RoleMoveBudget int
	// MaxReceiveCount from SCIM_MAX_RECEIVE_COUNT: the work queue's redrive
	// count, at which the provisioner dead-letters a delivery itself; 0
	// (unset) leaves it to SQS.
	MaxReceiveCount int
	// LogOutput receives the JSON log lines; nil is standard output (the
	// local stack's tests read them).
	LogOutput io.Writer
	// ConnectionSecretPrefix from CONNECTION_SECRET_PREFIX: the name prefix
	// of the SCIM connections' secrets (default secrets.DefaultConnectionPrefix).
	ConnectionSecretPrefix string
	// ReconcileMaxDeleteShare from RECONCILE_MAX_DELETE_SHARE (0 to 1):
	// the largest share of an SP's linked resources a reconcile run may
	// delete; unset: domain.DefaultMaxDeleteShare.
	ReconcileMaxDeleteShare float64
	// OriginSecret is the reference of the secret CloudFront adds to every
	// request (ORIGIN_VERIFY_SECRET, else secretsmanager:<ORIGIN_VERIFY_SECRET_ARN>);
	// set, the API and the pages refuse requests without it.
	OriginSecret string
	// Outbound is the address policy of the SCIM connections: what the
	// operator opens (SCIM_ALLOWED_ADDRESSES) and plain http for
	// development (SCIM_ALLOW_HTTP=true); see shared/outbound.
	Outbound outbound.Policy
	// ConnectionReferences from CONNECTION_SECRET_REFERENCES (unset:
	// secrets.DefaultConnectionReferences): the secret reference prefixes a
	// connection's credential may use besides its own vault entry.
	ConnectionReferences []string
	// InvitationsPerDay from INVITATIONS_PER_INVITER_PER_DAY: a positive
	// number, or "off" (-1); unset (0) is service.DefaultInvitationsPerDay.
	InvitationsPerDay int
}

// SettingsFromEnv reads the settings; TABLE_NAME is the only one every
// function needs.
func SettingsFromEnv() (Settings, error) {
	s := Settings{
		TableName: os.Getenv("TABLE_NAME"), QueueURL: os.Getenv("SCIM_QUEUE_URL"), DeadLetterURL: os.Getenv("SCIM_DLQ_URL"),
		MailFrom: os.Getenv("MAIL_FROM"), ConfigurationSet: os.Getenv("SES_CONFIGURATION_SET"),
		PublicBaseURL: os.Getenv("PUBLIC_BASE_URL"), OIDCIssuer: os.Getenv("OIDC_ISSUER"), OIDCAudience: os.Getenv("OIDC_AUDIENCE"),
		BootstrapToken: os.Getenv("BOOTSTRAP_API_TOKEN"), GroupURNPrefix: os.Getenv("GROUP_URN_PREFIX"),
		MachineCallers: machineCallersRef(), ConnectionSecretPrefix: os.Getenv("CONNECTION_SECRET_PREFIX"),
		OriginSecret: originSecretRef(),
		SuperUsers:   strings.FieldsFunc(os.Getenv("SUPER_USERS"), func(r rune) bool { return r == ',' || unicode.IsSpace(r) }),
	}
	if s.TableName == "" {
		return s, fmt.Errorf("TABLE_NAME is required")
	}
	allowed, err := outbound.ParseAllowlist(os.Getenv(outbound.EnvAllowedAddresses))
	if err != nil {
		return s, err
	}
	s.Outbound = outbound.Policy{Allowed: allowed, AllowHTTP: os.Getenv(outbound.EnvAllowHTTP) == "true", Resolver: net.DefaultResolver}
	refs, set := os.LookupEnv(secrets.EnvConnectionReferences)
	if !set {
		refs = secrets.DefaultConnectionReferences
	}
	if s.ConnectionReferences, err = secrets.ParseReferencePrefixes(refs); err != nil {
		return s, err
	}
	days, err := parseReminderDays(os.Getenv("REMINDER_DAYS"))
	if err != nil {
		return s, err
	}
	s.ReminderDays = days
	if v := os.Getenv("SCIM_MAX_RECEIVE_COUNT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("SCIM_MAX_RECEIVE_COUNT must be a positive integer, not %q", v)
		}
		s.MaxReceiveCount = n
	}
	if v := os.Getenv("INVITATIONS_PER_INVITER_PER_DAY"); v == "off" {
		s.InvitationsPerDay = -1
	} else if v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("INVITATIONS_PER_INVITER_PER_DAY must be a positive integer or off, not %q", v)
		}
		s.InvitationsPerDay = n
	}
	if v := os.Getenv("EXPIRY_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("EXPIRY_LIMIT must be a positive integer, not %q", v)
		}
		s.ExpiryLimit = n
	}
	for _, b := range []struct {
		name string
		to   *int
	}{{"ROLE_DELETION_BUDGET", &s.RoleDeletionBudget}, {"ROLE_MOVE_BUDGET", &s.RoleMoveBudget}} {
		if v := os.Getenv(b.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return s, fmt.Errorf("%s must be a positive integer, not %q", b.name, v)
			}
			*b.to = n
		}
	}
	if v := os.Getenv("RECONCILE_MAX_DELETE_SHARE"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f > 1 {
			return s, fmt.Errorf("RECONCILE_MAX_DELETE_SHARE must be a number above 0 and at most 1, not %q", v)
		}
		s.ReconcileMaxDeleteShare = f
	}
	return s, nil
}

// App is the wired service.
type App struct {
	Settings    Settings
	Logger      *slog.Logger
	AWS         aws.Config
	DynamoDB    *dynamodb.Client
	SQS         *awssqs.Client
	Store       *dynamo.Store
	Registry    *config.Live
	Service     *service.Service
	API         *httpapi.API
	Provisioner *provisioner.Provisioner
	// Pages are the browser pages (shared/web) on the same service and
	// authenticator as the API.
	Pages *web.Pages
}

// FromEnv wires the service from the process environment.
func FromEnv(ctx context.Context) (*App, error) {
	settings, err := SettingsFromEnv()
	if err != nil {
		return nil, err
	}
	cfg, err := LoadAWSConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	a, err := New(ctx, settings, cfg, nil)
	if err != nil {
		return nil, err
	}
	// A function that cannot read its registry at start fails visibly.
	if err := a.Registry.Load(ctx); err != nil {
		return nil, fmt.Errorf("read the applications registry: %w", err)
	}
	return a, nil
}

// New wires the service from explicit parts; clock nil means wall time.
// The applications and SCIM connections are items of the table, read
// through a cached registry (config.Live) that New does not load yet.
func New(ctx context.Context, s Settings, cfg aws.Config, clock domain.Clock) (*App, error) {
	if clock == nil {
		clock = time.Now
	}
	logOutput := s.LogOutput
	if logOutput == nil {
		logOutput = os.Stdout
	}
	logger := NewLoggerTo(logOutput)
	ddb := dynamodb.NewFromConfig(cfg)
	sqsClient := awssqs.NewFromConfig(cfg)
	store := dynamo.New(ddb, s.TableName, clock)
	registry := config.NewLive(store, logger)
	sm := secretsmanager.NewFromConfig(cfg)
	resolver := secrets.NewResolver(sm, 5*time.Minute)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		return nil, err
	}
	var mailer domain.Mailer
	if s.MailFrom != "" {
		mailer = ses.NewSender(sesv2.NewFromConfig(cfg), s.MailFrom, s.ConfigurationSet)
	}
	svc := &service.Service{
		Store: store, Queue: sqs.NewQueue(sqsClient, s.QueueURL), Registry: registry, Mailer: mailer, Renderer: renderer,
		Clock: clock, Logger: logger, PublicBaseURL: s.PublicBaseURL, GroupURNPrefix: s.GroupURNPrefix,
		Lifecycle: service.Lifecycle{ReminderDays: s.ReminderDays, ExpiryLimit: s.ExpiryLimit}, InvitationsPerDay: s.InvitationsPerDay,
		RoleDeletionBudget: s.RoleDeletionBudget, RoleMoveBudget: s.RoleMoveBudget,
		Session: sessionSettingsFromEnv(),
		RegistryAdmin: &service.RegistryAdmin{Store: store, Vault: &secrets.Vault{SM: sm, Prefix: s.ConnectionSecretPrefix},
			Secrets: resolver, Prober: &scimprobe.Prober{Policy: s.Outbound}, Invalidate: registry.Invalidate,
			Outbound: s.Outbound, ReferencePrefixes: s.ConnectionReferences},
	}
	authn := &auth.Authenticator{Tokens: store, Users: store, SuperUsers: s.SuperUsers}
	authn.OnLogin = svc // spec 3.1: attribute changes at login reach the SPs
	if s.BootstrapToken != "" {
		if len(s.BootstrapToken) < MinBootstrapTokenLength {
			return nil, fmt.Errorf("BOOTSTRAP_API_TOKEN must be at least %d characters (a random value: openssl rand -hex 32)", MinBootstrapTokenLength)
		}
		authn.BootstrapTokenHash = auth.HashToken(s.BootstrapToken)
	}
	if s.MachineCallers != "" {
		// Read at every request through a short cache, so that rotating
		// the secret takes effect without a redeploy; read once now so
		// that a missing or malformed secret is logged at start-up.
		source := newMachineCallerSource(logger, secrets.NewResolver(secretsmanager.NewFromConfig(cfg), machineCallersTTL), s.MachineCallers)
		source.MachineCallers(ctx)
		authn.MachineSource = source
	}
	identity, err := identitySettingsFromEnv()
	if err != nil {
		return nil, err
	}
	svc.Contexts = identity.Contexts
	if s.OIDCIssuer != "" {
		opts := oidc.VerifierOptions{Claims: identity.Claims, IntrospectionClientID: identity.IntrospectionClientID}
		if ref := identity.IntrospectionSecretRef; ref != "" {
			opts.IntrospectionSecret = func(ctx context.Context) (string, error) { return resolver.Resolve(ctx, ref) }
		}
		v, err := oidc.NewVerifierWithOptions(ctx, s.OIDCIssuer, s.OIDCAudience, opts)
		if err != nil {
			return nil, err
		}
		authn.People = personVerifier{v: v, logger: logger}
		checkProvider(logger, "API access tokens", v.Check)
	}
	prov := &provisioner.Provisioner{
		Store: store, Clock: clock, Logger: logger, Metrics: metrics.NewEMF(os.Stdout, "Invite"),
		Clients: &provisioner.Targets{Registry: registry, Outbound: s.Outbound, Secrets: secrets.ConnectionSecrets{Resolver: resolver,
			Scope: secrets.Scope{VaultPrefix: s.ConnectionSecretPrefix, Prefixes: s.ConnectionReferences}},
			// Every instance honours each SP's rate and breaker together.
			GuardStates: store},
		DeadLetters: sqs.NewDeadLetters(sqsClient, s.DeadLetterURL),
		Backoff:     sqs.NewVisibility(sqsClient, s.QueueURL),
		MaxReceives: s.MaxReceiveCount,
		RoleSPs:     registry.SPsOfRole,
	}
	svc.Reconciler, svc.ReconcileMaxDeleteShare = prov, s.ReconcileMaxDeleteShare
	if fn := os.Getenv("RECONCILE_FUNCTION_NAME"); fn != "" {
		// An API function: the SPs' credentials are the reconcile function's.
		svc.Reconciler = invokedReconciler{invoker{cfg: cfg, function: fn, hc: &http.Client{Timeout: 15 * time.Minute}}}
	}
	if fn := os.Getenv("JOBS_FUNCTION_NAME"); fn != "" {
		// The system API function: on-demand jobs run in the jobs
		// function, whose time limit fits them; the expiry function: the
		// memberships left at its time limit go on there at once.
		svc.Jobs = invokedJobs{invoker{cfg: cfg, function: fn, hc: &http.Client{Timeout: 30 * time.Second}}}
	} else if fn := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); fn != "" && os.Getenv("JOBS_CONTINUE_IN_SELF") == "true" {
		// The jobs function: an expiry job that reaches its time limit
		// with memberships left queues the next in this function.
		svc.Jobs = invokedJobs{invoker{cfg: cfg, function: fn, hc: &http.Client{Timeout: 30 * time.Second}}}
	}
	a := &App{
		Settings: s, Logger: logger, AWS: cfg, DynamoDB: ddb, SQS: sqsClient, Store: store, Registry: registry, Service: svc,
		API: &httpapi.API{Service: svc, Authenticator: authn, Throttle: sharedFailureThrottle(store),
			Origin: originCheck(s.OriginSecret, secrets.NewResolver(sm, 5*time.Minute), logger)}, Provisioner: prov,
	}
	if a.Pages, err = a.newPages(ctx, secrets.NewResolver(secretsmanager.NewFromConfig(cfg), 5*time.Minute)); err != nil {
		return nil, err
	}
	return a, nil
}

// MinBootstrapTokenLength bounds the bootstrap token from below: it is a
// super-user credential that can be guessed only if it is short.
const MinBootstrapTokenLength = 32

// sharedFailureThrottle counts failed authentications in the table, so that
// guesses spread over many function instances are slowed and refused alike.
func sharedFailureThrottle(store *dynamo.Store) *httpapi.FailureThrottle {
	th := httpapi.NewFailureThrottle()
	th.Shared = store
	return th
}
