package substitutes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// SecretsManager answers the four Secrets Manager calls the service makes
// (CreateSecret, PutSecretValue, GetSecretValue, DeleteSecret) in the AWS
// JSON 1.1 protocol (X-Amz-Target: secretsmanager.<Action>), so the service
// reaches it through AWS_ENDPOINT_URL_SECRETS_MANAGER exactly as it reaches
// the real service. No emulator exists in the registries this project may
// use, hence this small one. With a data directory, secrets are kept in one
// JSON file there (0600) and survive a restart; without, in memory.
//
// It keeps every version of a secret (VersionId, AWSCURRENT on the newest)
// so that a reader asking for a VersionId gets that version, and it never
// logs a value.
type SecretsManager struct {
	// URL is the endpoint for the SDK.
	URL string

	srv  *http.Server
	file string

	mu      sync.Mutex
	secrets map[string]*storedSecret
}

type storedSecret struct {
	Name     string          `json:"name"`
	ARN      string          `json:"arn"`
	Versions []secretVersion `json:"versions"`
	Created  time.Time       `json:"created"`
}

type secretVersion struct {
	ID      string    `json:"id"`
	Value   string    `json:"value"`
	Created time.Time `json:"created"`
}

// secretsFile is the file name of the secrets in a data directory.
const secretsFile = "secretsmanager.json"

// StartSecretsManager serves the emulator on addr ("" = a free loopback
// port). dataDir "" keeps the secrets in memory; otherwise they are loaded
// from and written to dataDir/secretsmanager.json.
func StartSecretsManager(addr, dataDir string) (*SecretsManager, error) {
	sm := &SecretsManager{secrets: map[string]*storedSecret{}}
	if dataDir != "" {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("substitutes: secrets manager: %w", err)
		}
		sm.file = filepath.Join(dataDir, secretsFile)
		if b, err := os.ReadFile(sm.file); err == nil {
			if err := json.Unmarshal(b, &sm.secrets); err != nil {
				return nil, fmt.Errorf("substitutes: secrets manager: %s: %w", sm.file, err)
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("substitutes: secrets manager: %w", err)
		}
	}
	ln, err := listenLoopback(addr)
	if err != nil {
		return nil, fmt.Errorf("substitutes: secrets manager: %w", err)
	}
	sm.srv = &http.Server{Handler: sm, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = sm.srv.Serve(ln) }()
	sm.URL = "http://" + ln.Addr().String()
	return sm, nil
}

// Close stops the server; the data file stays.
func (sm *SecretsManager) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return sm.srv.Shutdown(ctx)
}

// Names lists the names of the secrets held (for tests).
func (sm *SecretsManager) Names() []string {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	var names []string
	for n := range sm.secrets {
		names = append(names, n)
	}
	return names
}

// smError is an error in the AWS JSON protocol's shape.
type smError struct {
	status  int
	kind    string
	message string
}

func (sm *SecretsManager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	action, ok := strings.CutPrefix(strings.ToLower(target), "secretsmanager.")
	if r.Method != http.MethodPost || !ok {
		writeSMError(w, smError{http.StatusBadRequest, "UnknownOperationException", "unsupported target " + target})
		return
	}
	var in map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil {
		writeSMError(w, smError{http.StatusBadRequest, "SerializationException", "body is not JSON"})
		return
	}
	str := func(k string) string { s, _ := in[k].(string); return s }
	var out any
	var e *smError
	switch action {
	case "createsecret":
		out, e = sm.create(str("Name"), str("SecretString"))
	case "putsecretvalue":
		out, e = sm.put(str("SecretId"), str("SecretString"))
	case "getsecretvalue":
		out, e = sm.get(str("SecretId"), str("VersionId"), str("VersionStage"))
	case "deletesecret":
		out, e = sm.delete(str("SecretId"))
	default:
		e = &smError{http.StatusBadRequest, "UnknownOperationException", "operation " + target + " is not emulated"}
	}
	if e != nil {
		writeSMError(w, *e)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(out)
}

func writeSMError(w http.ResponseWriter, e smError) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-Errortype", e.kind)
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": e.kind, "message": e.message})
}

func notFound(id string) *smError {
	return &smError{http.StatusBadRequest, "ResourceNotFoundException", "Secrets Manager can't find the specified secret: " + id}
}

func newVersionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// lookup finds a secret by name or ARN; the caller holds mu.
func (sm *SecretsManager) lookup(id string) *storedSecret {
	if s, ok := sm.secrets[id]; ok {
		return s
	}
	for _, s := range sm.secrets {
		if s.ARN == id {
			return s
		}
	}
	return nil
}

func (sm *SecretsManager) create(name, value string) (any, *smError) {
	if name == "" {
		return nil, &smError{http.StatusBadRequest, "InvalidParameterException", "Name is required"}
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	if _, exists := sm.secrets[name]; exists {
		return nil, &smError{http.StatusBadRequest, "ResourceExistsException", "the secret " + name + " already exists"}
	}
	now := time.Now().UTC()
	s := &storedSecret{Name: name, ARN: "arn:aws:secretsmanager:eu-west-1:000000000000:secret:" + name + "-" + newVersionID()[:6], Created: now}
	out := map[string]any{"ARN": s.ARN, "Name": name}
	if value != "" {
		v := secretVersion{ID: newVersionID(), Value: value, Created: now}
		s.Versions = append(s.Versions, v)
		out["VersionId"] = v.ID
	}
	sm.secrets[name] = s
	if err := sm.saveLocked(); err != nil {
		return nil, err
	}
	return out, nil
}

func (sm *SecretsManager) put(id, value string) (any, *smError) {
	if value == "" {
		return nil, &smError{http.StatusBadRequest, "InvalidParameterException", "SecretString is required"}
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	s := sm.lookup(id)
	if s == nil {
		return nil, notFound(id)
	}
	v := secretVersion{ID: newVersionID(), Value: value, Created: time.Now().UTC()}
	s.Versions = append(s.Versions, v)
	if len(s.Versions) > 20 { // older versions are of no use to anyone
		s.Versions = s.Versions[len(s.Versions)-20:]
	}
	if err := sm.saveLocked(); err != nil {
		return nil, err
	}
	return map[string]any{"ARN": s.ARN, "Name": s.Name, "VersionId": v.ID, "VersionStages": []string{"AWSCURRENT"}}, nil
}

func (sm *SecretsManager) get(id, versionID, stage string) (any, *smError) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	s := sm.lookup(id)
	if s == nil || len(s.Versions) == 0 {
		return nil, notFound(id)
	}
	v := s.Versions[len(s.Versions)-1]
	if versionID != "" {
		found := false
		for _, c := range s.Versions {
			if c.ID == versionID {
				v, found = c, true
			}
		}
		if !found {
			return nil, &smError{http.StatusBadRequest, "ResourceNotFoundException", "no version " + versionID + " of " + s.Name}
		}
	} else if stage != "" && stage != "AWSCURRENT" {
		return nil, &smError{http.StatusBadRequest, "ResourceNotFoundException", "only AWSCURRENT is emulated"}
	}
	return map[string]any{"ARN": s.ARN, "Name": s.Name, "VersionId": v.ID, "SecretString": v.Value,
		"VersionStages": []string{"AWSCURRENT"}, "CreatedDate": float64(v.Created.Unix())}, nil
}

func (sm *SecretsManager) delete(id string) (any, *smError) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	s := sm.lookup(id)
	if s == nil {
		return nil, notFound(id)
	}
	delete(sm.secrets, s.Name)
	if err := sm.saveLocked(); err != nil {
		return nil, err
	}
	return map[string]any{"ARN": s.ARN, "Name": s.Name, "DeletionDate": float64(time.Now().Unix())}, nil
}

// saveLocked writes the secrets file atomically; the caller holds mu.
func (sm *SecretsManager) saveLocked() *smError {
	if sm.file == "" {
		return nil
	}
	b, err := json.Marshal(sm.secrets)
	if err == nil {
		tmp := sm.file + ".tmp"
		if err = os.WriteFile(tmp, b, 0o600); err == nil {
			err = os.Rename(tmp, sm.file)
		}
	}
	if err != nil {
		return &smError{http.StatusInternalServerError, "InternalServiceError", "cannot persist secrets: " + err.Error()}
	}
	return nil
}
