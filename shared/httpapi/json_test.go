package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

func TestFlexTimeAcceptsISOAndEpochSeconds(t *testing.T) {
	want := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{`1798859045`, want},
		{`1798859045.0`, want},
		{`"2027-01-02T03:04:05Z"`, want},
		{`"2027-01-02T04:04:05+01:00"`, want},
		{`"2027-01-02T03:04:05"`, want},
		{`"2027-01-02"`, time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		var ft FlexTime
		if err := json.Unmarshal([]byte(tc.in), &ft); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !ft.Equal(tc.want) {
			t.Errorf("%s = %v, want %v", tc.in, ft.Time, tc.want)
		}
	}
	for _, bad := range []string{`"tomorrow"`, `true`, `"2027-13-01"`} {
		var ft FlexTime
		if err := json.Unmarshal([]byte(bad), &ft); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	out, _ := json.Marshal(FlexTime{want})
	if string(out) != `"2027-01-02T03:04:05Z"` {
		t.Errorf("written as %s, want ISO 8601", out)
	}
}

func TestErrorBodyPerKind(t *testing.T) {
	tests := []struct {
		err    error
		status int
	}{
		{domain.Invalidf("bad"), 400},
		{domain.Unauthenticatedf("who"), 401},
		{domain.Forbiddenf("no"), 403},
		{domain.NotFoundf("gone"), 404},
		{domain.Conflictf("taken"), 409},
		{domain.Gonef("expired"), 410},
		{domain.Unavailablef("idp down"), 503},
		{errInternal("dynamodb: secret detail"), 500},
		// A domain error of a kind without a status is an internal error,
		// not a panic on WriteHeader(0).
		{&domain.Error{Kind: domain.ErrorKind(99), Message: "secret detail"}, 500},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		writeError(rec, httptest.NewRequest("POST", "/api/v1/roles", nil), tc.err)
		var body ErrorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if rec.Code != tc.status || body.Status != tc.status || body.Path != "/api/v1/roles" || body.Error != http.StatusText(tc.status) ||
			body.Exception == "" || body.Message == "" || body.Timestamp == 0 {
			t.Errorf("%v: %d %+v", tc.err, rec.Code, body)
		}
		if tc.status == 500 && strings.Contains(body.Message, "secret detail") {
			t.Errorf("internal error detail leaked: %q", body.Message)
		}
	}
}

type errInternal string

func (e errInternal) Error() string { return string(e) }

func TestDecodeJSONRejectsWrongTypesAndEmptyBodies(t *testing.T) {
	tests := map[string]string{
		"empty":      ``,
		"not json":   `{"name": `,
		"wrong type": `{"name": 42}`,
		"bad date":   `{"defaultExpiryDate": "soon"}`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			var req roleRequest
			r := httptest.NewRequest("POST", "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			err := decodeJSON(httptest.NewRecorder(), r, &req)
			if domain.KindOf(err) != domain.KindInvalid {
				t.Fatalf("err = %v, want an invalid-input error", err)
			}
		})
	}
}
