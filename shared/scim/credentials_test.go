package scim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

var secrets = []string{"s3cret-pw", "tok-very-secret", "aW52aXRlcjpzM2NyZXQtcHc"}

func assertNoSecrets(t *testing.T, s string) {
	t.Helper()
	for _, secret := range secrets {
		if strings.Contains(s, secret) {
			t.Errorf("output leaks %q: %s", secret, s)
		}
	}
}

func TestCredentialsRedaction(t *testing.T) {
	basic := Credentials{Method: AuthBasic, Username: "inviter", Password: "s3cret-pw"}
	bearer := Credentials{Method: AuthBearer, Token: "tok-very-secret"}
	target := Target{ID: "sp1", BaseURL: "https://sp.example", Credentials: basic}
	client := NewClient(Target{ID: "sp1", BaseURL: "https://sp.example", Credentials: bearer}, nil)

	values := map[string]any{
		"basic": basic, "basic pointer": &basic, "bearer": bearer,
		"target": target, "target pointer": &target, "client": client, "client value": *client, // a copy prints its fields raw: none may hold a secret
	}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			t.Run(name+" "+verb, func(t *testing.T) {
				out := fmt.Sprintf(verb, v)
				assertNoSecrets(t, out)
			})
		}
		t.Run(name+" slog", func(t *testing.T) {
			var buf bytes.Buffer
			slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "v", v)
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "v", v)
			assertNoSecrets(t, buf.String())
		})
		t.Run(name+" json", func(t *testing.T) {
			if name == "client value" || name == "client" {
				t.Skip("Client has no exported fields")
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			assertNoSecrets(t, string(b))
		})
	}
	// What is shown still helps: method, user name and that secrets are set.
	if got := fmt.Sprint(basic); got != "{Method:basic Username:inviter Password:[REDACTED] Token:}" {
		t.Errorf("String() = %q", got)
	}
}
