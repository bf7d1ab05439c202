package scimsp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// scimPrefix is the version segment the service's targets use (spec 4.1).
const scimPrefix = "/v1"

func (sp *SP) routes(server http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state", sp.serveState)
	scim := http.StripPrefix(scimPrefix, server)
	mux.Handle(scimPrefix+"/", sp.auth.require(scim))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/state" {
			mux.ServeHTTP(w, r)
			return
		}
		// Every SCIM request is recorded, also the ones refused or unknown.
		rec := &recordingWriter{ResponseWriter: w}
		loc := &location{base: externalBase(r)}
		r = r.WithContext(context.WithValue(r.Context(), locationKey{}, loc))
		rec.location = loc
		if r.Method != http.MethodGet && sp.loss.lose() {
			// The change is made, the answer never arrives.
			mux.ServeHTTP(&lostAnswer{header: http.Header{}}, r)
			http.Error(w, "answer lost on the way", http.StatusGatewayTimeout)
			sp.log.add(r.Method, r.URL.Path, http.StatusGatewayTimeout)
			return
		}
		mux.ServeHTTP(rec, r)
		sp.log.add(r.Method, r.URL.Path, rec.statusOrOK())
	})
}

// serveState shows the stored users and groups to people; it needs no
// authentication because the local stack is on a developer's machine.
func (sp *SP) serveState(w http.ResponseWriter, r *http.Request) {
	state := struct {
		Users  any `json:"users"`
		Groups any `json:"groups"`
	}{sp.Users(), sp.Groups()}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(state)
}

// externalBase is scheme://host plus any prefix that a mounting
// http.StripPrefix removed (RequestURI keeps the path as the client sent it).
func externalBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	sent := r.RequestURI
	if i := strings.IndexByte(sent, '?'); i >= 0 {
		sent = sent[:i]
	}
	prefix := ""
	if here := r.URL.EscapedPath(); strings.HasSuffix(sent, here) && !strings.Contains(sent, "://") {
		prefix = strings.TrimSuffix(sent, here)
	}
	return scheme + "://" + r.Host + prefix + scimPrefix
}

// location carries the address of the resource a handler produced to the
// response writer, which sets the Location header (RFC 7644 3.3) that the
// elimity server does not set.
type location struct {
	base string
	path string // "/Users/<id>"; set by the resource handlers
}

type locationKey struct{}

// setLocation records the resource the request created or returned.
func setLocation(r *http.Request, collection, id string) {
	if loc, ok := r.Context().Value(locationKey{}).(*location); ok {
		loc.path = collection + "/" + id
	}
}

// recordingWriter notes the status and adds Location to successful
// single-resource responses.
type recordingWriter struct {
	http.ResponseWriter
	status   int
	location *location
}

func (w *recordingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		if (status == http.StatusOK || status == http.StatusCreated) && w.location != nil && w.location.path != "" {
			w.Header().Set("Location", w.location.base+w.location.path)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recordingWriter) statusOrOK() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
