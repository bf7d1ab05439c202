package httpapi

import "net/http"

// The helpers below carry the steps almost every handler ends with, so that
// a handler reads as what it checks, what it calls and what it answers.

// decode reads the JSON body into v. On failure it has already answered
// with the error body and the handler only returns.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := decodeJSON(w, r, v); err != nil {
		writeError(w, r, err)
		return false
	}
	return true
}

// respond answers with the error body when err is set, else with v as JSON.
// v is evaluated before err is looked at, so the conversion that makes it
// must be safe on a service's zero result; a handler whose conversion is
// not (a dereference, say) checks err itself.
func respond[T any](w http.ResponseWriter, r *http.Request, status int, v T, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// respondNoContent answers with the error body when err is set, else 204.
func respondNoContent(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
