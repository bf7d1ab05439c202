package httpapi

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"
)

// A list that a client walks to its end (a sync of a role's members) goes
// by page token rather than page number: a page by number passes every
// member before it, so its cost grows with its depth; a page by token
// starts right after the page before, at the same cost at any depth. The
// page envelope stays the spec's; the way on is the response's Link header
// (RFC 8288), rel="next", present while a member follows the page: the
// URL asked for with pageNumber one up and pageToken the next page's
// token. Its target is the request's path and query (a URI reference
// resolved against the URL the client called, which a proxy in front may
// have given another host). With pageToken, pageNumber only labels the
// page in the envelope.

// pageTokenParam is the query parameter of a page token.
const pageTokenParam = "pageToken"

// maxPageTokenBytes bounds a page token: those the service gives hold two
// index sort keys, some 2 kB at most.
const maxPageTokenBytes = 4096

// walkPageRequest is pageRequest with the page token, if any.
func walkPageRequest(r *http.Request, defaultSort string, sorts ...string) (domain.PageRequest, error) {
	req, err := pageRequest(r, defaultSort, sorts...)
	if err != nil {
		return req, err
	}
	q := r.URL.Query()
	if q.Has(pageTokenParam) {
		token := q.Get(pageTokenParam)
		if token == "" || len(token) > maxPageTokenBytes {
			return req, domain.Invalidf("pageToken must be the token of a Link rel=\"next\" of this list")
		}
		req.After = token
	}
	return req, nil
}

// setNextLink gives the Link to the page after this one, when there is one.
func setNextLink(w http.ResponseWriter, r *http.Request, req domain.PageRequest, next string) {
	if next == "" {
		return
	}
	q := r.URL.Query()
	q.Set("pageNumber", strconv.Itoa(req.Number+1))
	q.Set(pageTokenParam, next)
	target := url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: q.Encode()}
	w.Header().Set("Link", "<"+target.String()+`>; rel="next"`)
}
