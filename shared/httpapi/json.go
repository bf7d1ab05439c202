package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// maxBody bounds request bodies; the largest legitimate one is an
// invitation with a few hundred recipients.
const maxBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decodeJSON reads a JSON body into v. Unknown fields are ignored, as the
// reference's clients send whole objects back, but types must match.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return domain.Invalidf("request body is larger than %d bytes", maxBody)
		}
		return domain.Invalidf("cannot read request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return domain.Invalidf("request body is required")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return domain.Invalidf("field %q must be of type %s", typeErr.Field, typeErr.Type.String())
		}
		var fieldErr *flexTimeError
		if errors.As(err, &fieldErr) {
			return domain.Invalidf("%s", fieldErr.Error())
		}
		return domain.Invalidf("request body is not valid JSON: %s", err.Error())
	}
	return nil
}

// FlexTime accepts a date-time as ISO 8601 (RFC 3339, or a plain date) or
// as integer epoch seconds (spec 2.8's samples), and writes ISO 8601.
type FlexTime struct{ time.Time }

type flexTimeError struct{ raw string }

func (e *flexTimeError) Error() string {
	return fmt.Sprintf("%s is not a date-time: use ISO 8601 or epoch seconds", e.raw)
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *FlexTime) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		t.Time = time.Unix(int64(n), 0).UTC()
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return &flexTimeError{raw: s}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if parsed, err := time.Parse(layout, str); err == nil {
			t.Time = parsed.UTC()
			return nil
		}
	}
	return &flexTimeError{raw: strconv.Quote(str)}
}

// MarshalJSON implements json.Marshaler.
func (t FlexTime) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// Ptr returns nil for nil, else the time.
func (t *FlexTime) Ptr() *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	v := t.Time
	return &v
}

// mapSlice converts each element with f. The result is never nil, so that
// an empty list is written as [] and not as null.
func mapSlice[S, J any](xs []S, f func(S) J) []J {
	out := make([]J, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func isoTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func isoTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return isoTime(*t)
}

func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Invalidf("%s must be a positive integer", name)
	}
	return id, nil
}
