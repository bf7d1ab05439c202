package provisioner_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/secrets"
)

// rotatingSP accepts one bearer token at a time and records what it saw.
type rotatingSP struct {
	mu     sync.Mutex
	accept string
	seen   []string // "<Authorization> <body>"
}

func (s *rotatingSP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Get("Authorization")+" "+strings.TrimSpace(string(body)))
	ok := r.Header.Get("Authorization") == "Bearer "+s.accept
	s.mu.Unlock()
	if !ok {
		http.Error(w, `{"detail":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "application/scim+json")
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"u1","userName":"guest@example.org"}`)
}

func (s *rotatingSP) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.seen...)
}

// memorySource is the registry's table: one connection, changed in place.
type memorySource struct {
	mu   sync.Mutex
	conn config.ProvisioningDoc
}

func (m *memorySource) LoadRegistry(context.Context) (config.Document, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return config.Document{Provisionings: []config.ProvisioningDoc{m.conn}}, nil
}

func (m *memorySource) LoadConnection(_ context.Context, id string) (config.ProvisioningDoc, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.conn, id == m.conn.ID, nil
}

func (m *memorySource) setToken(ref string) {
	m.mu.Lock()
	m.conn.Auth.Token = ref
	m.mu.Unlock()
}

// memorySecrets is Secrets Manager: secret values by name.
type memorySecrets struct {
	mu     sync.Mutex
	values map[string]string
	reads  int
}

func (m *memorySecrets) GetSecretValue(_ context.Context, in *secretsmanager.GetSecretValueInput, _ ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	key := *in.SecretId
	if in.VersionId != nil {
		key += "?" + *in.VersionId
	}
	v, ok := m.values[key]
	if !ok {
		return nil, errors.New("ResourceNotFoundException")
	}
	return &secretsmanager.GetSecretValueOutput{SecretString: &v}, nil
}

func (m *memorySecrets) set(key, value string) {
	m.mu.Lock()
	m.values[key] = value
	m.mu.Unlock()
}

// TestRotatedCredentialRetriedOnce: after a rotation, a provisioner whose
// caches (connection and secret, both kept for an hour here) still hold the
// old credential gets a 401, reads the connection and secret again past
// the caches, and sends the same request (body included) once more with
// the new credential; a credential that is simply wrong is sent once and
// its 401 stands; a fresh one also refused is not tried a third time.
func TestRotatedCredentialRetriedOnce(t *testing.T) {
	sp := &rotatingSP{accept: "old-token"}
	server := httptest.NewServer(sp)
	defer server.Close()
	source := &memorySource{conn: config.ProvisioningDoc{ID: "sp", BaseURL: server.URL, Auth: config.AuthDoc{Method: "bearer", Token: "secretsmanager:sp-token"}}}
	sm := &memorySecrets{values: map[string]string{"sp-token": "old-token"}}
	live := &config.Live{Source: source, Refresh: time.Hour, ConnectionRefresh: time.Hour}
	targets := &provisioner.Targets{Registry: live, Outbound: loopbackPolicy, Secrets: connectionSecrets(secrets.NewResolver(sm, time.Hour), "secretsmanager:sp-token")}
	ctx := context.Background()
	create := func() error {
		c, _, err := targets.Client(ctx, "sp")
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CreateUser(ctx, scim.User{UserName: "guest@example.org"})
		return err
	}
	if err := create(); err != nil { // warms both caches with the old token
		t.Fatal(err)
	}

	// 1. The secret's value is rotated under the same name.
	sm.set("sp-token", "new-token")
	sp.mu.Lock()
	sp.accept = "new-token"
	sp.mu.Unlock()
	if err := create(); err != nil {
		t.Fatalf("after rotating the value: %v", err)
	}
	got := sp.requests()[1:]
	if len(got) != 2 || !strings.HasPrefix(got[0], "Bearer old-token {") || !strings.HasPrefix(got[1], "Bearer new-token {") || got[0][len("Bearer old-token"):] != got[1][len("Bearer new-token"):] {
		t.Fatalf("requests after the value's rotation: %q", got)
	}

	// 2. The connection is pointed at a new secret (a new reference).
	sm.set("sp-token-2", "newer-token")
	source.setToken("secretsmanager:sp-token-2")
	sp.mu.Lock()
	sp.accept = "newer-token"
	sp.mu.Unlock()
	if err := create(); err != nil {
		t.Fatalf("after pointing at a new secret: %v", err)
	}
	if got := sp.requests()[3:]; len(got) != 2 || !strings.HasPrefix(got[0], "Bearer new-token") || !strings.HasPrefix(got[1], "Bearer newer-token") {
		t.Fatalf("requests after the reference's change: %q", got)
	}
	if err := create(); err != nil { // the fresh connection is cached now: no 401 first
		t.Fatal(err)
	}
	if got := sp.requests()[5:]; len(got) != 1 || !strings.HasPrefix(got[0], "Bearer newer-token") {
		t.Fatalf("the next delivery: %q", got)
	}

	// 3. A wrong credential, nothing rotated: sent once, the 401 stands.
	sp.mu.Lock()
	sp.accept = "something-else"
	sp.mu.Unlock()
	var se *scim.Error
	if err := create(); !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Fatalf("wrong credential: %v", err)
	}
	if got := sp.requests()[6:]; len(got) != 1 {
		t.Fatalf("a 401 with an unchanged credential was retried: %q", got)
	}

	// 4. Rotated, but the fresh credential is refused too: two requests, no third.
	sm.set("sp-token-2", "rotated-but-wrong")
	if err := create(); !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Fatalf("fresh credential refused: %v", err)
	}
	if got := sp.requests()[7:]; len(got) != 2 || !strings.HasPrefix(got[1], "Bearer rotated-but-wrong") {
		t.Fatalf("requests when the fresh credential is refused: %q", got)
	}
}

// TestFreshCredentialOnlyToItsOwnAddress: a delivery whose cached
// connection points at the old address gets a 401 after the connection was
// moved, with a new credential, to another address; the new credential is
// not sent to the old address.
func TestFreshCredentialOnlyToItsOwnAddress(t *testing.T) {
	old := &rotatingSP{accept: "old-token"}
	oldSrv := httptest.NewServer(old)
	defer oldSrv.Close()
	source := &memorySource{conn: config.ProvisioningDoc{ID: "sp", BaseURL: oldSrv.URL, Auth: config.AuthDoc{Method: "bearer", Token: "secretsmanager:sp-token"}}}
	sm := &memorySecrets{values: map[string]string{"sp-token": "old-token", "sp-token-moved": "moved-token"}}
	live := &config.Live{Source: source, Refresh: time.Hour, ConnectionRefresh: time.Hour}
	targets := &provisioner.Targets{Registry: live, Outbound: loopbackPolicy, Secrets: connectionSecrets(secrets.NewResolver(sm, time.Hour), "secretsmanager:sp-token")}
	ctx := context.Background()
	c, _, err := targets.Client(ctx, "sp")
	if err != nil {
		t.Fatal(err)
	}
	source.mu.Lock()
	source.conn.BaseURL = strings.Replace(oldSrv.URL, "127.0.0.1", "127.0.0.1.", 1) // another address as written
	source.conn.Auth.Token = "secretsmanager:sp-token-moved"
	source.mu.Unlock()
	old.mu.Lock()
	old.accept = "moved-token" // were it sent, the old address would take it
	old.mu.Unlock()
	if _, err := c.CreateUser(ctx, scim.User{UserName: "guest@example.org"}); err == nil {
		t.Fatal("the moved connection's credential was accepted at the old address")
	}
	for _, r := range old.requests() {
		if strings.Contains(r, "moved-token") {
			t.Fatalf("the old address received the moved connection's credential: %q", old.requests())
		}
	}
	if got := old.requests(); len(got) != 1 {
		t.Fatalf("requests at the old address: %q", got)
	}
}
