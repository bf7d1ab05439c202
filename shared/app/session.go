package app

import (
	"os"
	"strconv"

	"github.com/edu-invite/invite/shared/service"
)

// sessionSettingsFromEnv reads the session configuration of U6 (GET
// /api/v1/users/config) and the performance seed switch:
//
//	CLIENT_URL, WELCOME_URL, SERVER_URL, SERVER_WELCOME_URL  (default PUBLIC_BASE_URL)
//	FEDID_ENTITY_ID, FEDID_IDP_SCHAC_HOME_ORGANIZATION       (default empty)
//	LANGUAGES (default "en,nl"), ENVIRONMENT (default "local")
//	ROLE_SEARCH_REQUIRED, PAST_DATE_ALLOWED                  (default false)
//	PERFORMANCE_SEED_ALLOWED                                 (default false: S1 refused)
func sessionSettingsFromEnv() service.SessionSettings {
	flag := func(name string) bool {
		b, err := strconv.ParseBool(os.Getenv(name))
		return err == nil && b
	}
	return service.SessionSettings{
		ClientURL: os.Getenv("CLIENT_URL"), WelcomeURL: os.Getenv("WELCOME_URL"), ServerURL: os.Getenv("SERVER_URL"),
		ServerWelcomeURL: os.Getenv("SERVER_WELCOME_URL"), FedIDEntityID: os.Getenv("FEDID_ENTITY_ID"),
		FedIDIdpSchacHomeOrganization: os.Getenv("FEDID_IDP_SCHAC_HOME_ORGANIZATION"),
		Languages:                     os.Getenv("LANGUAGES"), Environment: os.Getenv("ENVIRONMENT"),
		RoleSearchRequired: flag("ROLE_SEARCH_REQUIRED"), PastDateAllowed: flag("PAST_DATE_ALLOWED"),
		PerformanceSeedAllowed: flag("PERFORMANCE_SEED_ALLOWED"),
	}
}
