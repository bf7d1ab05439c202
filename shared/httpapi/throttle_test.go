package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/httpapi"
)

// Issue 21 item 6: failed authentications per credential and per source
// are slowed, then refused with 429 and Retry-After until the window ends.
func TestGuessingIsThrottled(t *testing.T) {
	w := newWorld(t)
	now := w.Now
	var slept []time.Duration
	th := httpapi.NewFailureThrottle()
	th.Now = func() time.Time { return now }
	th.Sleep = func(d time.Duration) { slept = append(slept, d) }
	w.API.Throttle = th
	server := w.API.Local()
	call := func(source, token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/v1/roles", nil)
		req.RemoteAddr = source + ":4711"
		req.Header.Set(auth.APITokenHeader, token)
		rec := httptest.NewRecorder()
		server.ServeHTTP(rec, req)
		return rec
	}
	for i := range th.RefuseAfter {
		if rec := call("198.51.100.7", "guess-"+strconv.Itoa(i)); rec.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, rec.Code)
		}
	}
	if len(slept) == 0 || slept[len(slept)-1] <= slept[0] {
		t.Errorf("guesses were not slowed increasingly: %v", slept)
	}
	rec := call("198.51.100.7", orgTokenValue)
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("after %d failures the source answered %d", th.RefuseAfter, rec.Code)
	}
	if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra <= 0 || ra > 600 {
		t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
	// Another source with a valid token is served; one that keeps
	// guessing one credential is refused on that credential anywhere.
	if rec := call("203.0.113.9", orgTokenValue); rec.Code != http.StatusOK {
		t.Errorf("other source: %d", rec.Code)
	}
	for range th.RefuseAfter {
		call("192.0.2.1", "the-same-guess")
	}
	if rec := call("192.0.2.99", "the-same-guess"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("guessed credential from a fresh source: %d", rec.Code)
	}
	// The window passes: the source may try again.
	now = now.Add(11 * time.Minute)
	if rec := call("198.51.100.7", orgTokenValue); rec.Code != http.StatusOK {
		t.Errorf("after the window: %d", rec.Code)
	}
}
