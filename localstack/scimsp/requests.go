package scimsp

import "sync"

// RecordedRequest is one request the SP received, for tests that assert the
// order of calls or that a retried delivery did not repeat a change.
type RecordedRequest struct {
	Method string
	Path   string // as seen by the SP's handler, e.g. "/v1/Users/<id>"
	Status int
}

// requestLog records the SCIM requests (GET /state is not recorded, so that
// someone watching the state does not disturb a test's assertions).
type requestLog struct {
	mu   sync.Mutex
	reqs []RecordedRequest
}

func (l *requestLog) add(method, path string, status int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, RecordedRequest{Method: method, Path: path, Status: status})
}

func (l *requestLog) snapshot() []RecordedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]RecordedRequest{}, l.reqs...)
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = nil
}
