package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// boolParam reads an optional true/false query parameter.
func boolParam(r *http.Request, name string, def bool) (bool, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, domain.Invalidf("%s must be true or false", name)
	}
	return b, nil
}

// intParam reads an optional integer query parameter.
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, domain.Invalidf("%s must be an integer", name)
	}
	return n, nil
}
