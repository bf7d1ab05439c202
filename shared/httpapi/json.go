package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/middleware"
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
// reference's clients send whole objects back, but types must match. Errors
// name the field and the JSON type it needs, never a Go type.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if r.Method != http.MethodGet && !isJSONMediaType(r.Header.Get("Content-Type")) {
		// A browser sends text/plain or a form across origins without a
		// preflight, with the pages' cookies: a JSON write must say it is
		// JSON. (The reference's CRM client sends a body with GET /crm/api/v1/profiles.)
		return &statusError{status: http.StatusUnsupportedMediaType, exception: "HttpMediaTypeNotSupportedException",
			message: "Content-Type must be application/json"}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return domain.Invalidf("request body is larger than %d bytes", maxBody)
		}
		return domain.Invalidf("cannot read request body")
	}
	return decodeBody(body, v)
}

// decodeBody is decodeJSON after the body is read: the part the fuzz tests
// drive.
func decodeBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return domain.Invalidf("request body is required")
	}
	if err := middleware.CheckJSONText(body); err != nil {
		return domain.Invalidf("%s", err.Error())
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return domain.Invalidf("request body must be %s", jsonTypeName(typeErr.Type))
			}
			return domain.Invalidf("field %q must be %s", typeErr.Field, jsonTypeName(typeErr.Type))
		}
		var fieldErr *flexTimeError
		if errors.As(err, &fieldErr) {
			return domain.Invalidf("%s", fieldErr.withField(dateField(body)).Error())
		}
		var syntaxErr *json.SyntaxError
		if errors.As(err, &syntaxErr) {
			return domain.Invalidf("request body is not valid JSON (at byte %d)", syntaxErr.Offset)
		}
		return domain.Invalidf("request body is not valid JSON")
	}
	return nil
}

// jsonTypeName says which JSON value a Go type reads, for error messages.
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	if t == reflect.TypeFor[FlexTime]() {
		return "a date-time"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	default:
		return "an object"
	}
}

// dateField finds the top-level field of a body whose value is not a
// date-time: encoding/json does not say which field a custom decoder
// refused, and every date of the API is a top-level field.
func dateField(body []byte) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return ""
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		raw := fields[name]
		if raw[0] != '"' && (raw[0] < '0' || raw[0] > '9') && raw[0] != '-' {
			continue
		}
		var t FlexTime
		if err := t.UnmarshalJSON(raw); err != nil && looksLikeDateField(name) {
			return name
		}
	}
	return ""
}

// dateFields are the request fields read as FlexTime.
var dateFields = map[string]bool{"expiryDate": true, "roleExpiryDate": true, "defaultExpiryDate": true, "endDate": true, "expiresAt": true}

func looksLikeDateField(name string) bool { return dateFields[name] }

// FlexTime accepts a date-time as ISO 8601 (RFC 3339, a local date-time
// read as UTC, or a plain date) or as an epoch number: seconds (spec 2.8's
// samples, fractions allowed), or milliseconds when its magnitude is at
// least 1e11 (JavaScript's Date.now() and Java's toEpochMilli() are what
// integrators send; 1e11 seconds would be the year 5138). Only dates
// between domain.MinDate and domain.MaxDate are accepted. It writes RFC 3339.
type FlexTime struct{ time.Time }

// epochMillisFrom is the magnitude from which an epoch number is read as
// milliseconds.
const epochMillisFrom = 1e11

type flexTimeError struct {
	field string
	why   string
}

func (e *flexTimeError) Error() string {
	what := "date-time"
	if e.field != "" {
		what = strconv.Quote(e.field)
	}
	// The value sent is not repeated: the caller has it, and whatever it
	// holds ("*", "[]") must not read as the service's own words.
	if e.why != "" {
		return fmt.Sprintf("%s %s", what, e.why)
	}
	return fmt.Sprintf("%s is not a date-time: use ISO 8601 (2030-01-31 or 2030-01-31T12:00:00Z) or epoch seconds (milliseconds from 1e11 on)", what)
}

func (e *flexTimeError) withField(field string) *flexTimeError {
	c := *e
	c.field = field
	return &c
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *FlexTime) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		parsed, ok := epochTime(n)
		if !ok {
			return &flexTimeError{why: "is out of range: dates must lie between 1970-01-01 and 9999-12-31"}
		}
		t.Time = parsed
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return &flexTimeError{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if parsed, err := time.Parse(layout, str); err == nil {
			parsed = parsed.UTC()
			if !domain.DateInRange(parsed) {
				return &flexTimeError{why: "is out of range: dates must lie between 1970-01-01 and 9999-12-31"}
			}
			t.Time = parsed
			return nil
		}
	}
	return &flexTimeError{}
}

// epochTime reads an epoch number as seconds or, from 1e11 on, as
// milliseconds, and reports whether it is within the accepted range.
func epochTime(n float64) (time.Time, bool) {
	if math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		return time.Time{}, false
	}
	if n >= epochMillisFrom {
		n /= 1000
	}
	if n > float64(domain.MaxDate.Unix()) {
		return time.Time{}, false
	}
	sec, frac := math.Modf(n)
	return time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC(), true
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

// isJSONMediaType reports whether a Content-Type is application/json (any
// parameters, such as charset, allowed).
func isJSONMediaType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}
