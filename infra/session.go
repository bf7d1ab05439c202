package main

import (
	"strconv"
	"strings"
)

// sessionSetting is one setting of the session configuration that the
// users function serves (U6, GET /api/v1/users/config): the context key an
// operator sets and the variable shared/app/session.go reads.
type sessionSetting struct {
	key, env string
	flag     bool // true/false; otherwise text
	url      bool // must be an http(s) URL
}

var sessionSettings = []sessionSetting{
	{key: "clientUrl", env: "CLIENT_URL", url: true},
	{key: "welcomeUrl", env: "WELCOME_URL", url: true},
	{key: "serverUrl", env: "SERVER_URL", url: true},
	{key: "serverWelcomeUrl", env: "SERVER_WELCOME_URL", url: true},
	{key: "fedidEntityId", env: "FEDID_ENTITY_ID"},
	{key: "fedidIdpSchacHomeOrganization", env: "FEDID_IDP_SCHAC_HOME_ORGANIZATION"},
	{key: "languages", env: "LANGUAGES"},
	{key: ctxEnvironment, env: "ENVIRONMENT"},
	{key: "roleSearchRequired", env: "ROLE_SEARCH_REQUIRED", flag: true},
	{key: "pastDateAllowed", env: "PAST_DATE_ALLOWED", flag: true},
	{key: ctxPerformanceSeedAllowed, env: envPerformanceSeedAllowed, flag: true},
}

const (
	ctxEnvironment            = "environment"
	ctxPerformanceSeedAllowed = "performanceSeedAllowed"
	envPerformanceSeedAllowed = "PERFORMANCE_SEED_ALLOWED"
	// defaultEnvironment is what the GUI shows of a deployed stack when the
	// operator names no environment; the service's own default, "local",
	// is for a service run on one machine.
	defaultEnvironment = "prod"
)

// readSessionSettings reads the session settings from the context into
// variables: those not given are left out (the service's defaults apply),
// except the environment, which a deployed stack always states, and the
// flags, which are always written so that the template says what holds.
func readSessionSettings(r *contextReader) map[string]string {
	env := map[string]string{}
	for _, s := range sessionSettings {
		switch {
		case s.flag:
			env[s.env] = strconv.FormatBool(r.boolean(s.key, false))
		case s.key == ctxEnvironment:
			env[s.env] = r.str(s.key, defaultEnvironment)
		default:
			if v := r.str(s.key, ""); v != "" {
				env[s.env] = v
			}
		}
		if v := env[s.env]; s.url && v != "" && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://") {
			r.fail("%s: %q is not an http(s) URL", s.key, v)
		}
	}
	if env["ENVIRONMENT"] == "" {
		r.fail("%s: must not be empty", ctxEnvironment)
	}
	return env
}
