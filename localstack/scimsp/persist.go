package scimsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	elimity "github.com/elimity-com/scim"
)

// savedState is the file format of Save: users and groups as stored.
type savedState struct {
	Users  []savedUser  `json:"users"`
	Groups []savedGroup `json:"groups"`
}

type savedUser struct {
	ID       string                     `json:"id"`
	Attrs    elimity.ResourceAttributes `json:"attributes"`
	Created  time.Time                  `json:"created"`
	Modified time.Time                  `json:"modified"`
}

type savedGroup struct {
	ID          string        `json:"id"`
	DisplayName string        `json:"displayName"`
	ExternalID  string        `json:"externalId,omitempty"`
	Members     []savedMember `json:"members"`
	Created     time.Time     `json:"created"`
	Modified    time.Time     `json:"modified"`
}

type savedMember struct {
	Value   string `json:"value"`
	Display string `json:"display,omitempty"`
}

// Save writes every user and group to path, atomically: a crash leaves
// either the previous file or the new one.
func (sp *SP) Save(path string) error {
	sp.saveMu.Lock()
	defer sp.saveMu.Unlock()
	b, err := json.Marshal(sp.state())
	if err != nil {
		return fmt.Errorf("scimsp: save: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("scimsp: save: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("scimsp: save: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if _, err := tmp.Write(b); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("scimsp: save: %w", err)
	}
	return nil
}

func (sp *SP) state() savedState {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	st := savedState{Users: make([]savedUser, 0, len(sp.users)), Groups: make([]savedGroup, 0, len(sp.groups))}
	for _, u := range sp.users {
		st.Users = append(st.Users, savedUser{ID: u.id, Attrs: u.attrs, Created: u.created, Modified: u.modified})
	}
	for _, g := range sp.groups {
		sg := savedGroup{ID: g.id, DisplayName: g.displayName, ExternalID: g.externalID, Members: make([]savedMember, 0, len(g.members)),
			Created: g.created, Modified: g.modified}
		for _, m := range g.members {
			sg.Members = append(sg.Members, savedMember{Value: m.value, Display: m.display})
		}
		st.Groups = append(st.Groups, sg)
	}
	return st
}

// Load replaces the users and groups with those Save wrote to path. A
// missing file is an empty SP.
func (sp *SP) Load(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("scimsp: load: %w", err)
	}
	var st savedState
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // attribute values come back as the SCIM server stored them
	if err := dec.Decode(&st); err != nil {
		return fmt.Errorf("scimsp: load %s: %w", path, err)
	}
	users := make(map[string]*userRecord, len(st.Users))
	for _, u := range st.Users {
		users[u.ID] = &userRecord{id: u.ID, attrs: numbersAsFloats(u.Attrs), created: u.Created, modified: u.Modified}
	}
	groups := make(map[string]*groupRecord, len(st.Groups))
	for _, g := range st.Groups {
		rec := &groupRecord{id: g.ID, displayName: g.DisplayName, externalID: g.ExternalID, created: g.Created, modified: g.Modified}
		for _, m := range g.Members {
			rec.members = append(rec.members, member{value: m.Value, display: m.Display})
		}
		groups[g.ID] = rec
	}
	sp.mu.Lock()
	sp.users, sp.groups = users, groups
	sp.mu.Unlock()
	return nil
}

// numbersAsFloats turns json.Number back into the float64 the elimity server
// hands over for JSON numbers, in nested maps and lists too.
func numbersAsFloats(attrs elimity.ResourceAttributes) elimity.ResourceAttributes {
	var conv func(v any) any
	conv = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			f, _ := strconv.ParseFloat(string(v), 64)
			return f
		case map[string]any:
			for k, x := range v {
				v[k] = conv(x)
			}
		case []any:
			for i, x := range v {
				v[i] = conv(x)
			}
		}
		return v
	}
	for k, v := range attrs {
		attrs[k] = conv(v)
	}
	return attrs
}

// PersistentHandler is Handler, saving the state to path after every
// request that may change it and before that request is answered: what
// the SP acknowledged is on disk, even if the process is killed next.
func (sp *SP) PersistentHandler(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			sp.handler.ServeHTTP(w, r)
			return
		}
		rec := &heldResponse{header: w.Header(), status: http.StatusOK}
		sp.handler.ServeHTTP(rec, r)
		if err := sp.Save(path); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
	})
}

// heldResponse keeps a response's status and body until the state is saved;
// headers go straight to the real writer, which has sent nothing yet.
type heldResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldResponse) Header() http.Header         { return h.header }
func (h *heldResponse) WriteHeader(status int)      { h.status = status }
func (h *heldResponse) Write(p []byte) (int, error) { return h.body.Write(p) }
