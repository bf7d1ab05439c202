package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/middleware"
)

var plainFieldName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// decodeStrictBody is decodeBody for documents in which a misspelt key must
// not be dropped silently (the applications document): unknown fields are
// refused, and every error names the field in JSON words, never a Go type.
func decodeStrictBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return domain.Invalidf("request body is required")
	}
	if err := middleware.CheckJSONText(body); err != nil {
		return domain.Invalidf("%s", err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return domain.Invalidf("request body must be one JSON value")
		}
		return nil
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		// The name is the caller's: repeated only when it reads as a name.
		if name, err := strconv.Unquote(field); err == nil && plainFieldName.MatchString(name) {
			return domain.Invalidf("unknown field %q", name)
		}
		return domain.Invalidf("unknown field")
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return domain.Invalidf("request body must be %s", jsonTypeName(typeErr.Type))
		}
		return domain.Invalidf("field %q must be %s", typeErr.Field, jsonTypeName(typeErr.Type))
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return domain.Invalidf("request body is not valid JSON (at byte %d)", syntaxErr.Offset)
	}
	return domain.Invalidf("request body is not valid JSON")
}
