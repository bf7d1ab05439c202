package app

import "testing"

func TestSessionSettingsFromEnv(t *testing.T) {
	t.Setenv("CLIENT_URL", "https://client.example.org")
	t.Setenv("PERFORMANCE_SEED_ALLOWED", "true")
	t.Setenv("PAST_DATE_ALLOWED", "nonsense")
	got := sessionSettingsFromEnv()
	if got.ClientURL != "https://client.example.org" || !got.PerformanceSeedAllowed || got.PastDateAllowed || got.WelcomeURL != "" {
		t.Errorf("settings = %+v", got)
	}
	t.Setenv("PERFORMANCE_SEED_ALLOWED", "")
	if sessionSettingsFromEnv().PerformanceSeedAllowed {
		t.Error("the seed is allowed without PERFORMANCE_SEED_ALLOWED")
	}
}
