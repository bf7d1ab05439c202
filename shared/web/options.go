package web

import (
	"net/http"
	"strings"
)

// probedMethods are the methods an OPTIONS answer may list.
var probedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// answerOptions answers OPTIONS on a page path with 204 and the methods
// its routes serve (Allow), as the API's functions do, rather than the
// not-found page; a path no page serves stays a 404. It needs no session:
// nothing is read or changed.
func answerOptions(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range probedMethods {
			probe := r.Clone(r.Context())
			probe.Method = m
			// "/" is the catch-all of the not-found page: no route.
			if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(append(allow, http.MethodOptions), ", "))
		w.WriteHeader(http.StatusNoContent)
	})
}
