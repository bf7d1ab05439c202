package httpapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// The seed corpus of the attack of issue 21: epoch milliseconds, huge day
// counts, overflowing integers, NUL, ESC and bidi overrides, a 1 MB string.
var attackSeeds = []string{
	`{"expiryDate":1796448000000}`,
	`{"expiryDate":1796448000}`,
	`{"expiryDate":9223372036854775807}`,
	`{"expiryDate":-1}`,
	`{"expiryDate":0}`,
	`{"expiryDate":"0001-01-01"}`,
	`{"expiryDate":"99999-01-01T00:00:00Z"}`,
	`{"expiryDate":1e309}`,
	`{"defaultExpiryDays":2147483648}`,
	`{"defaultExpiryDays":9223372036854775807}`,
	`{"defaultExpiryDays":9223372036854775808}`,
	`{"defaultExpiryDate":"2020-01-01","name":"x"}`,
	`{"name":"a\u0000b","description":"\u001b[31mred"}`,
	`{"name":"\u202egnp.exe","description":"\u2066x\u2069"}`,
	`{"invites":["A@Example.org","a@example.ORG"],"roleIdentifiers":[1,1]}`,
	`{"endDate":"2030-01-01T00:00:00+14:00","userRoleId":-5}`,
	`{"roleIdentifiers":"1"}`,
	`[]`, `null`, `"x"`, `{`, ``,
	`{"name":"` + strings.Repeat("x", 1<<20) + `"}`,
}

// goTypeWords are what an error message must never show a caller.
var goTypeWords = []string{"int64", "int32", "float64", "[]", "map[", "struct", "httpapi.", "*", "FlexTime", "Go value"}

func checkDecodeError(t *testing.T, body string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if domain.KindOf(err) != domain.KindInvalid {
		t.Fatalf("%.80q: error %v is not invalid input", body, err)
	}
	for _, w := range goTypeWords {
		if strings.Contains(err.Error(), w) {
			t.Fatalf("%.80q: message %q shows %q", body, err.Error(), w)
		}
	}
	if len(err.Error()) > 400 {
		t.Fatalf("%.80q: message of %d bytes repeats the input", body, len(err.Error()))
	}
}

// fuzzDecoder fuzzes one request type: decoding never panics, refuses with
// an invalid-input error in JSON words, and any date it accepts is within
// the storable range.
func fuzzDecoder[T any](f *testing.F, dates func(*T) []*FlexTime) {
	for _, s := range attackSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var v T
		err := decodeBody(body, &v)
		checkDecodeError(t, string(body), err)
		if err != nil || dates == nil {
			return
		}
		for _, d := range dates(&v) {
			if d != nil && !d.IsZero() && !domain.DateInRange(d.Time) {
				t.Fatalf("%.80q: accepted date %v out of range", body, d.Time)
			}
		}
	})
}

func FuzzRoleRequest(f *testing.F) {
	fuzzDecoder(f, func(r *roleRequest) []*FlexTime { return []*FlexTime{r.DefaultExpiryDate} })
}

func FuzzRoleUpdateRequest(f *testing.F) { fuzzDecoder[roleUpdateRequest](f, nil) }

func FuzzInvitationRequest(f *testing.F) {
	fuzzDecoder(f, func(r *invitationRequest) []*FlexTime { return []*FlexTime{r.ExpiryDate, r.RoleExpiryDate} })
}

func FuzzEndDateRequest(f *testing.F) {
	fuzzDecoder(f, func(r *endDateRequest) []*FlexTime { return []*FlexTime{r.EndDate} })
}

func FuzzAPITokenRequest(f *testing.F) {
	fuzzDecoder(f, func(r *APITokenRequestJSON) []*FlexTime { return []*FlexTime{r.ExpiresAt} })
}

func FuzzUserRoleProvisioningRequest(f *testing.F) { fuzzDecoder[userRoleProvisioningRequest](f, nil) }
func FuzzAcceptRequest(f *testing.F)               { fuzzDecoder[acceptRequest](f, nil) }
func FuzzCRMProfileRequest(f *testing.F)           { fuzzDecoder[crmProfileRequest](f, nil) }
func FuzzCRMInviteRequest(f *testing.F)            { fuzzDecoder[crmInviteRequest](f, nil) }
func FuzzCRMContactRequest(f *testing.F)           { fuzzDecoder[crmContactRequest](f, nil) }
func FuzzCRMOrganisationLookupRequest(f *testing.F) {
	fuzzDecoder[crmOrganisationLookupRequest](f, nil)
}
func FuzzReconcileRequest(f *testing.F)       { fuzzDecoder[reconcileRequest](f, nil) }
func FuzzSelectionRequest(f *testing.F)       { fuzzDecoder[selectionRequest](f, nil) }
func FuzzValidationRequest(f *testing.F)      { fuzzDecoder[validationRequest](f, nil) }
func FuzzApplicationRequest(f *testing.F)     { fuzzDecoder[service.ApplicationView](f, nil) }
func FuzzConnectionRequest(f *testing.F)      { fuzzDecoder[service.ConnectionInput](f, nil) }
func FuzzCRMOrganisationRequest(f *testing.F) { fuzzDecoder[crmOrganisationDTO](f, nil) }
func FuzzMailRetryRequest(f *testing.F)       { fuzzDecoder[mailRetryRequest](f, nil) }

// FuzzRegistryImport: the applications document's strict decoder refuses
// unknown keys and never panics or answers in Go words.
func FuzzRegistryImport(f *testing.F) {
	for _, s := range append(attackSeeds,
		`{"applications": [{"manageId": "wiki", "manageType": "SAML20_SP", "provisionings": ["wiki-scim"]}], "provisionings": []}`,
		`{"applications": [], "provisionigns": []}`, `{"applications": {"manageId": 1}}`, `{"applications": []} {}`,
		`{"applications": [{"manageId": ["x"]}]}`, `{"provisionings": [{"auth": {"method": 7}}]}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var doc config.Document
		checkDecodeError(t, string(body), decodeStrictBody(body, &doc))
	})
}

// FuzzFlexTime: a date-time is accepted only within the storable range, and
// what is written reads back as the same second.
func FuzzFlexTime(f *testing.F) {
	for _, s := range []string{`1796448000000`, `1796448000`, `1796448000.5`, `-1`, `0`, `9223372036854775807`, `1e300`, `NaN`,
		`"2030-01-02"`, `"2030-01-02T03:04:05Z"`, `"2030-01-02T03:04:05+14:00"`, `"0001-01-01"`, `"9999-12-31T23:59:59Z"`,
		`"10000-01-01"`, `"2030-02-30"`, `null`, `true`, `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var ft FlexTime
		err := ft.UnmarshalJSON(raw)
		if err != nil {
			if strings.Contains(err.Error(), "int64") || len(err.Error()) > 300 {
				t.Fatalf("%q: message %q", raw, err)
			}
			return
		}
		if ft.IsZero() {
			return // null
		}
		if !domain.DateInRange(ft.Time) {
			t.Fatalf("%q accepted as %v", raw, ft.Time)
		}
		out, err := json.Marshal(ft)
		if err != nil {
			t.Fatalf("%v cannot be written: %v", ft.Time, err)
		}
		var back FlexTime
		if err := json.Unmarshal(out, &back); err != nil || !back.Equal(ft.Truncate(time.Second)) {
			t.Fatalf("%v written as %s reads back as %v %v", ft.Time, out, back.Time, err)
		}
	})
}
