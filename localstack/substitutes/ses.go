package substitutes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// SES is npm aws-ses-v2-local run by node through localstack/ses-server.js.
// It accepts SendEmail (v1 and v2) and keeps every message in memory instead
// of delivering it.
type SES struct {
	// URL is the endpoint for the SDK, e.g. http://127.0.0.1:41234.
	URL string

	proc *nodeProcess
}

// Mail is one message captured by aws-ses-v2-local, as GET /store returns it.
type Mail struct {
	MessageID string   `json:"messageId"`
	From      string   `json:"from"`
	ReplyTo   []string `json:"replyTo"`
	To        []string `json:"-"`
	Cc        []string `json:"-"`
	Bcc       []string `json:"-"`
	Subject   string   `json:"subject"`
	HTML      string   `json:"-"`
	Text      string   `json:"-"`
	Headers   []Header `json:"headers"`
	// SentAt has second precision: the store records epoch seconds.
	SentAt time.Time `json:"-"`
}

// Header is an extra header the sender set on a Mail.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// storedMail is the wire shape of one entry of GET /store's "emails".
type storedMail struct {
	Mail
	Destination struct {
		To  []string `json:"to"`
		Cc  []string `json:"cc"`
		Bcc []string `json:"bcc"`
	} `json:"destination"`
	Body struct {
		HTML string `json:"html"`
		Text string `json:"text"`
	} `json:"body"`
	At int64 `json:"at"`
}

// StartSES starts aws-ses-v2-local on addr ("" = a free port on 127.0.0.1)
// and returns once it answers HTTP. ctx bounds the start only.
func StartSES(ctx context.Context, addr string) (*SES, error) {
	p, err := startNode(ctx, "ses", "ses-server.js", addr, "/health-check")
	if err != nil {
		return nil, err
	}
	return &SES{URL: p.url, proc: p}, nil
}

// Close stops the node process; captured mail is lost.
func (s *SES) Close() error { return s.proc.Close() }

// Mails returns every captured message, oldest first.
func (s *SES) Mails(ctx context.Context) ([]Mail, error) {
	body, err := s.call(ctx, http.MethodGet, "/store")
	if err != nil {
		return nil, err
	}
	var store struct {
		Emails []storedMail `json:"emails"`
	}
	if err := json.Unmarshal(body, &store); err != nil {
		return nil, fmt.Errorf("substitutes: ses: decode /store: %w", err)
	}
	mails := make([]Mail, len(store.Emails))
	for i, e := range store.Emails {
		m := e.Mail
		m.To, m.Cc, m.Bcc = e.Destination.To, e.Destination.Cc, e.Destination.Bcc
		m.HTML, m.Text = e.Body.HTML, e.Body.Text
		m.SentAt = time.Unix(e.At, 0)
		mails[i] = m
	}
	return mails, nil
}

// Clear empties the captured mail (and the stored templates) through the
// substitute's POST /clear-store, so a test can start from nothing without a
// restart.
func (s *SES) Clear(ctx context.Context) error {
	_, err := s.call(ctx, http.MethodPost, "/clear-store")
	return err
}

func (s *SES) call(ctx context.Context, method, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, bytes.NewReader(nil))
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("substitutes: ses: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("substitutes: ses: %s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("substitutes: ses: %s %s: %s: %s", method, path, resp.Status, tail(body, 500))
	}
	return body, nil
}
