package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// StackConfig is everything the stack takes from CDK context (cdk.json or
// `-c key=value`). Values arrive as strings from the command line and as
// JSON numbers or booleans from cdk.json, so every reader accepts both.
type StackConfig struct {
	// CodeDir holds build/<function>.zip; relative paths resolve against the
	// infra directory, which is the working directory of the CDK app.
	CodeDir string
	// RequireFunctionCode makes a missing zip a synth error instead of a
	// placeholder; deployments set it so a placeholder never reaches AWS.
	RequireFunctionCode bool

	DeletionProtection bool
	LogRetentionDays   int
	LogLevel           string

	MaxReceiveCount      int
	QueueAgeAlarmSeconds int
	AlarmEmail           string

	// PublicBaseURL is empty when not given: the stack then uses the URL of
	// its own HTTP API.
	PublicBaseURL string
	OIDCIssuer    string
	OIDCAudience  string
	// OIDCClientID is the pages' client at the issuer; its secret is the
	// invite/oidc-client secret. It must differ from OIDCAudience: the
	// audience names the API, so that the pages' ID tokens are never API
	// credentials.
	OIDCClientID string
	// SessionIdleTimeout ends unused browser sessions (Go duration).
	SessionIdleTimeout string
	// SessionMaxLifetime ends every browser session this long after its
	// sign-in (Go duration; empty: the service's default).
	SessionMaxLifetime string
	// IdentityProvider holds the OIDC_* settings of how the provider is
	// used (scopes, claim names, order of contexts, introspection client)
	// by variable name; unset ones are left to the service's defaults
	// (README, Connecting your identity provider).
	IdentityProvider map[string]string
	// OIDCIntrospectionClientID turns on introspection of opaque access
	// tokens; its secret is the invite/oidc-introspection secret.
	OIDCIntrospectionClientID string
	// ExpiryLimit is EXPIRY_LIMIT of the expiry and jobs functions: the
	// memberships one expiry run ends before it hands the rest on (0: no
	// bound but its time limit).
	ExpiryLimit int
	// RoleDeletionBudget and RoleMoveBudget are ROLE_DELETION_BUDGET and
	// ROLE_MOVE_BUDGET of the functions that delete and move roles: the
	// members a role's deletion or move handles in its request before it
	// hands the rest to the jobs function (0: the service's default).
	RoleDeletionBudget, RoleMoveBudget int
	// InvitationsPerInviterPerDay is INVITATIONS_PER_INVITER_PER_DAY
	// (a number or "off"; empty: the service's default).
	InvitationsPerInviterPerDay string
	// Disclaimer is DISCLAIMER of the web function: the text the
	// reference's client shows under its pages (GET /api/v1/disclaimer).
	Disclaimer string
	// SuperUsers is SUPER_USERS of the API functions: subjects or eppns of
	// the people who are super users, comma-separated.
	SuperUsers string

	MailDomain string
	MailFrom   string

	SPIDs []string

	// SCIMAllowedAddresses is SCIM_ALLOWED_ADDRESSES of the functions that
	// call SPs: the internal addresses (CIDRs, addresses, host names) the
	// operator opens to SCIM connections; empty, none.
	SCIMAllowedAddresses string
	// SCIMAllowHTTP is SCIM_ALLOW_HTTP: plain-http SCIM addresses, for a
	// development deployment only.
	SCIMAllowHTTP bool

	ThrottleRate  float64
	ThrottleBurst float64

	// Edge puts CloudFront with the WAF WebACL of InviteEdgeStack in front
	// of the HTTP API (edge.go, waf.go); off only for LocalStack.
	Edge bool
	// WAFRateLimit is the most requests one source IP may send in 5 minutes.
	WAFRateLimit int
	// WAFManagedRules is block or count: what the AWS managed rule groups do.
	WAFManagedRules string
	// DomainName is the service's public host name on CloudFront, with
	// CertificateArn, an ACM certificate in us-east-1 covering it.
	DomainName     string
	CertificateArn string
	// OriginSecretVersion pins the version of invite/origin-verify that
	// CloudFront sends; a new value here makes CloudFormation read the
	// secret again after a rotation (it resolves the reference only when
	// the template changes). Empty: the version current at deployment.
	OriginSecretVersion string

	// Session holds the variables of the session configuration (U6) by
	// name; see session.go.
	Session map[string]string
}

// Context keys, one per field of StackConfig.
const (
	ctxCodeDir              = "codeDir"
	ctxRequireFunctionCode  = "requireFunctionCode"
	ctxDeletionProtection   = "deletionProtection"
	ctxLogRetentionDays     = "logRetentionDays"
	ctxLogLevel             = "logLevel"
	ctxMaxReceiveCount      = "maxReceiveCount"
	ctxQueueAgeAlarmSeconds = "queueAgeAlarmSeconds"
	ctxAlarmEmail           = "alarmEmail"
	ctxApplicationsConfig   = "applicationsConfig"
	ctxPublicBaseURL        = "publicBaseUrl"
	ctxOIDCIssuer           = "oidcIssuer"
	ctxOIDCAudience         = "oidcAudience"
	ctxOIDCClientID         = "oidcClientId"
	ctxSessionIdleTimeout   = "sessionIdleTimeout"
	ctxSessionMaxLifetime   = "sessionMaxLifetime"
	ctxIntrospectionClient  = "oidcIntrospectionClientId"
	ctxInvitationsPerDay    = "invitationsPerInviterPerDay"
	ctxDisclaimer           = "disclaimer"
	ctxSuperUsers           = "superUsers"
	ctxMailDomain           = "mailDomain"
	ctxMailFrom             = "mailFrom"
	ctxSPIDs                = "spIds"
	ctxSCIMAllowedAddresses = "scimAllowedAddresses"
	ctxSCIMAllowHTTP        = "scimAllowHttp"
	ctxThrottleRate         = "throttleRate"
	ctxThrottleBurst        = "throttleBurst"
	ctxEdge                 = "edge"
	ctxWAFRateLimit         = "wafRateLimit"
	ctxWAFManagedRules      = "wafManagedRules"
	ctxDomainName           = "domainName"
	ctxCertificateArn       = "certificateArn"
	ctxOriginSecretVersion  = "originSecretVersion"
)

const (
	ctxExpiryLimit        = "expiryLimit"
	ctxRoleDeletionBudget = "roleDeletionBudget"
	ctxRoleMoveBudget     = "roleMoveBudget"
)

// identityProviderSettings maps the context keys of how the identity
// provider is used to the variables the service reads (shared/app/identity.go).
var identityProviderSettings = map[string]string{
	"oidcScopes":                "OIDC_SCOPES",
	"oidcAcrOrder":              "OIDC_ACR_ORDER",
	"oidcClaimEppn":             "OIDC_CLAIM_EPPN",
	"oidcClaimEmail":            "OIDC_CLAIM_EMAIL",
	"oidcClaimGivenName":        "OIDC_CLAIM_GIVEN_NAME",
	"oidcClaimFamilyName":       "OIDC_CLAIM_FAMILY_NAME",
	"oidcClaimName":             "OIDC_CLAIM_NAME",
	"oidcClaimFederatedId":      "OIDC_CLAIM_FEDERATED_ID",
	"oidcClaimHomeOrganization": "OIDC_CLAIM_HOME_ORGANIZATION",
}

// secretVersionID is the form of a Secrets Manager VersionId (a UUID).
var secretVersionID = regexp.MustCompile(`^[A-Za-z0-9-]{32,64}$`)

// Defaults of the context keys that have one.
const (
	defaultCodeDir          = "../build"
	defaultLogRetentionDays = 30
	defaultLogLevel         = "info"
	// defaultMaxReceiveCount is high because permanent failures never wait
	// for it (the provisioner dead-letters them at once): it only bounds
	// transient ones. The provisioner backs off 2 s doubling to 10 min, so 10
	// receives covered only ~13 min of an SP outage, and a circuit-open pause
	// or a 429 uses a receive too. Messages failed behind their group's head
	// in a FIFO batch are received with it and count as often. 100 receives
	// ride out ~11 h of outage (9 doubling steps, then ~91 of up to 10 min)
	// within the queue's 4-day retention; a fault test with 40 % failing
	// calls needs ~10 attempts for 1 in 10 user creations.
	defaultMaxReceiveCount      = 100
	defaultQueueAgeAlarmSeconds = 300
	defaultMailDomain           = "example.org"
	defaultThrottleRate         = 50
	defaultThrottleBurst        = 100
)

// ContextLookup returns the raw context value of key, nil when unset.
type ContextLookup func(key string) any

// spIDPattern keeps SP ids usable inside a secret name (invite/sp/<id>) and
// an IAM resource pattern.
var spIDPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

var logLevels = map[string]bool{"debug": true, "info": true, "warn": true, "error": true}

// LoadStackConfig reads and validates every context key. All problems are
// reported together so that an operator fixes them in one go.
func LoadStackConfig(lookup ContextLookup) (StackConfig, error) {
	r := contextReader{lookup: lookup}
	cfg := StackConfig{
		CodeDir:                     r.str(ctxCodeDir, defaultCodeDir),
		RequireFunctionCode:         r.boolean(ctxRequireFunctionCode, false),
		DeletionProtection:          r.boolean(ctxDeletionProtection, true),
		LogRetentionDays:            r.integer(ctxLogRetentionDays, defaultLogRetentionDays),
		LogLevel:                    strings.ToLower(r.str(ctxLogLevel, defaultLogLevel)),
		MaxReceiveCount:             r.integer(ctxMaxReceiveCount, defaultMaxReceiveCount),
		QueueAgeAlarmSeconds:        r.integer(ctxQueueAgeAlarmSeconds, defaultQueueAgeAlarmSeconds),
		AlarmEmail:                  r.str(ctxAlarmEmail, ""),
		PublicBaseURL:               strings.TrimRight(r.str(ctxPublicBaseURL, ""), "/"),
		OIDCIssuer:                  r.str(ctxOIDCIssuer, ""),
		OIDCAudience:                r.str(ctxOIDCAudience, ""),
		OIDCClientID:                r.str(ctxOIDCClientID, ""),
		SessionIdleTimeout:          r.str(ctxSessionIdleTimeout, "8h"),
		SessionMaxLifetime:          r.str(ctxSessionMaxLifetime, ""),
		OIDCIntrospectionClientID:   r.str(ctxIntrospectionClient, ""),
		InvitationsPerInviterPerDay: strings.ToLower(r.str(ctxInvitationsPerDay, "")),
		ExpiryLimit:                 r.integer(ctxExpiryLimit, 0),
		RoleDeletionBudget:          r.integer(ctxRoleDeletionBudget, 0),
		RoleMoveBudget:              r.integer(ctxRoleMoveBudget, 0),
		Disclaimer:                  r.str(ctxDisclaimer, ""),
		SuperUsers:                  r.str(ctxSuperUsers, ""),
		MailDomain:                  r.str(ctxMailDomain, defaultMailDomain),
		ThrottleRate:                r.number(ctxThrottleRate, defaultThrottleRate),
		ThrottleBurst:               r.number(ctxThrottleBurst, defaultThrottleBurst),
		SPIDs:                       splitList(r.str(ctxSPIDs, "")),
		SCIMAllowedAddresses:        r.str(ctxSCIMAllowedAddresses, ""),
		SCIMAllowHTTP:               r.boolean(ctxSCIMAllowHTTP, false),
		Edge:                        r.boolean(ctxEdge, true),
		WAFRateLimit:                r.integer(ctxWAFRateLimit, defaultWAFRateLimit),
		WAFManagedRules:             strings.ToLower(r.str(ctxWAFManagedRules, wafModeBlock)),
		DomainName:                  strings.ToLower(r.str(ctxDomainName, "")),
		CertificateArn:              r.str(ctxCertificateArn, ""),
		OriginSecretVersion:         r.str(ctxOriginSecretVersion, ""),
	}
	cfg.MailFrom = r.str(ctxMailFrom, "noreply@"+cfg.MailDomain)
	if cfg.OIDCAudience != "" && cfg.OIDCClientID == "" {
		r.fail("%s is required with %s: the pages' own client at the identity provider (see README, Connecting your identity provider)", ctxOIDCClientID, ctxOIDCAudience)
	}
	if cfg.OIDCAudience != "" && cfg.OIDCClientID == cfg.OIDCAudience {
		r.fail("%s must differ from %s (%q): the API's audience names the API, not the pages' client, whose ID tokens must never be API credentials", ctxOIDCClientID, ctxOIDCAudience, cfg.OIDCAudience)
	}
	cfg.Session = readSessionSettings(&r)
	cfg.IdentityProvider = map[string]string{}
	for key, env := range identityProviderSettings {
		if v := strings.TrimSpace(r.str(key, "")); v != "" {
			cfg.IdentityProvider[env] = v
		}
	}
	for _, d := range []struct{ key, value string }{{ctxSessionIdleTimeout, cfg.SessionIdleTimeout}, {ctxSessionMaxLifetime, cfg.SessionMaxLifetime}} {
		if d.value == "" {
			continue
		}
		if v, err := time.ParseDuration(d.value); err != nil || v <= 0 {
			r.fail("%s: %q is not a positive Go duration (e.g. 12h)", d.key, d.value)
		}
	}
	if cfg.ExpiryLimit < 0 {
		r.fail("%s: %d is not a positive number of memberships", ctxExpiryLimit, cfg.ExpiryLimit)
	}
	for _, b := range []struct {
		key   string
		value int
	}{{ctxRoleDeletionBudget, cfg.RoleDeletionBudget}, {ctxRoleMoveBudget, cfg.RoleMoveBudget}} {
		if b.value < 0 {
			r.fail("%s: %d is not a positive number of members", b.key, b.value)
		}
	}
	if v := cfg.InvitationsPerInviterPerDay; v != "" && v != "off" {
		if n, err := strconv.Atoi(v); err != nil || n < 1 {
			r.fail("%s: %q is neither a positive number nor off", ctxInvitationsPerDay, v)
		}
	}
	if path := r.str(ctxApplicationsConfig, ""); path != "" {
		r.fail("%s: applications are no longer deployed in the Lambda environment; they are table items: "+
			"import %s once with `make import-applications APPS=%s` after the deployment", ctxApplicationsConfig, path, path)
	}

	if _, ok := logRetentions[cfg.LogRetentionDays]; !ok {
		r.fail("%s: %d is not a CloudWatch Logs retention (use one of %s)", ctxLogRetentionDays, cfg.LogRetentionDays, retentionChoices())
	}
	if !logLevels[cfg.LogLevel] {
		r.fail("%s: %q is not one of debug, info, warn, error", ctxLogLevel, cfg.LogLevel)
	}
	if cfg.MaxReceiveCount < 1 || cfg.MaxReceiveCount > 1000 {
		r.fail("%s: %d is outside 1..1000", ctxMaxReceiveCount, cfg.MaxReceiveCount)
	}
	if cfg.QueueAgeAlarmSeconds < 60 {
		r.fail("%s: %d is below 60 seconds, the metric's resolution", ctxQueueAgeAlarmSeconds, cfg.QueueAgeAlarmSeconds)
	}
	if cfg.ThrottleRate <= 0 || cfg.ThrottleBurst <= 0 {
		r.fail("%s and %s must be positive", ctxThrottleRate, ctxThrottleBurst)
	}
	// WAF takes 10 to 2,000,000,000 requests per evaluation window.
	if cfg.WAFRateLimit < 10 || cfg.WAFRateLimit > 2_000_000_000 {
		r.fail("%s: %d is outside 10..2000000000 (requests per source IP in 5 minutes)", ctxWAFRateLimit, cfg.WAFRateLimit)
	}
	if cfg.WAFManagedRules != wafModeBlock && cfg.WAFManagedRules != wafModeCount {
		r.fail("%s: %q is not block or count", ctxWAFManagedRules, cfg.WAFManagedRules)
	}
	if (cfg.DomainName == "") != (cfg.CertificateArn == "") {
		r.fail("%s and %s go together: CloudFront serves a domain only with a certificate covering it", ctxDomainName, ctxCertificateArn)
	}
	if cfg.CertificateArn != "" && !strings.HasPrefix(cfg.CertificateArn, "arn:aws:acm:"+edgeRegion+":") {
		r.fail("%s: %q is not an ACM certificate in %s, the only region CloudFront takes certificates from", ctxCertificateArn, cfg.CertificateArn, edgeRegion)
	}
	if v := cfg.OriginSecretVersion; v != "" && !secretVersionID.MatchString(v) {
		r.fail("%s: %q is not a Secrets Manager version id (aws secretsmanager describe-secret --secret-id %s)", ctxOriginSecretVersion, v, originVerifySecretName)
	}
	if cfg.OriginSecretVersion != "" && !cfg.Edge {
		r.fail("%s needs %s=true: the origin secret is CloudFront's", ctxOriginSecretVersion, ctxEdge)
	}
	if cfg.DomainName != "" && !cfg.Edge {
		r.fail("%s needs %s=true: the domain is served by CloudFront", ctxDomainName, ctxEdge)
	}
	if cfg.AlarmEmail != "" && !strings.Contains(cfg.AlarmEmail, "@") {
		r.fail("%s: %q is not an e-mail address", ctxAlarmEmail, cfg.AlarmEmail)
	}
	if !strings.Contains(cfg.MailFrom, "@") {
		r.fail("%s: %q is not an e-mail address", ctxMailFrom, cfg.MailFrom)
	}
	if cfg.MailDomain == "" || strings.ContainsAny(cfg.MailDomain, "@/ ") {
		r.fail("%s: %q is not a domain", ctxMailDomain, cfg.MailDomain)
	}
	if cfg.PublicBaseURL != "" && !strings.HasPrefix(cfg.PublicBaseURL, "https://") && !strings.HasPrefix(cfg.PublicBaseURL, "http://") {
		r.fail("%s: %q is not an http(s) URL", ctxPublicBaseURL, cfg.PublicBaseURL)
	}
	seen := map[string]bool{}
	for _, id := range cfg.SPIDs {
		if !spIDPattern.MatchString(id) {
			r.fail("%s: %q may hold only letters, digits, '.', '_' and '-'", ctxSPIDs, id)
		}
		if seen[id] {
			r.fail("%s: %q is listed twice", ctxSPIDs, id)
		}
		seen[id] = true
	}

	if len(r.problems) > 0 {
		return StackConfig{}, fmt.Errorf("invalid CDK context:\n  - %s", strings.Join(r.problems, "\n  - "))
	}
	return cfg, nil
}

// contextReader converts raw context values and collects conversion errors.
type contextReader struct {
	lookup   ContextLookup
	problems []string
}

func (r *contextReader) fail(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

func (r *contextReader) str(key, def string) string {
	switch v := r.lookup(key).(type) {
	case nil:
		return def
	case string:
		return strings.TrimSpace(v)
	default:
		return strings.TrimSpace(fmt.Sprint(v))
	}
}

func (r *contextReader) boolean(key string, def bool) bool {
	switch v := r.lookup(key).(type) {
	case nil:
		return def
	case bool:
		return v
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			r.fail("%s: %q is not true or false", key, v)
			return def
		}
		return b
	default:
		r.fail("%s: %v is not true or false", key, v)
		return def
	}
}

func (r *contextReader) number(key string, def float64) float64 {
	switch v := r.lookup(key).(type) {
	case nil:
		return def
	case float64:
		return v
	case int:
		return float64(v)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			r.fail("%s: %q is not a number", key, v)
			return def
		}
		return f
	default:
		r.fail("%s: %v is not a number", key, v)
		return def
	}
}

func (r *contextReader) integer(key string, def int) int {
	f := r.number(key, float64(def))
	if f != float64(int(f)) {
		r.fail("%s: %v is not a whole number", key, f)
		return def
	}
	return int(f)
}

// splitList splits a comma-separated context value, dropping empty entries.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
