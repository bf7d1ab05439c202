package httpapi_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkRegistryListFiveHundred is the list page of issue 16 at scale:
// 500 applications, each with a SCIM connection, imported through the
// API, then listed through the API with a super-user token. (A person's
// request also runs the login sync, whose write costs minidyn a copy of the
// whole table per transaction: a cost of the test substitute, not of
// DynamoDB, so it is left out here.) The goal is a p95 under
// 100 ms (reported as p95-ms); "cold" drops the cache before each request,
// so each one reads the whole registry from the table.
func BenchmarkRegistryListFiveHundred(b *testing.B) {
	w := newWorld(b)
	var apps, conns []string
	for i := 0; i < 500; i++ {
		conns = append(conns, fmt.Sprintf(`{"id": "bench-sp-%03d", "name": "Bench SP %d", "baseUrl": "https://sp%03d.example.org/scim",
			"auth": {"method": "bearer", "token": "secretsmanager:invite/scim-connections/bench-sp-%03d"}}`, i, i, i, i))
		apps = append(apps, fmt.Sprintf(`{"manageId": "https://app%03d.example.org/saml", "manageType": "SAML20_SP", "name": "App %d",
			"nameNl": "App %d", "landingPage": "https://app%03d.example.org", "provisionings": ["bench-sp-%03d"]}`, i, i, i, i, i))
	}
	doc := `{"applications": [` + strings.Join(apps, ",") + `], "provisionings": [` + strings.Join(conns, ",") + `]}`
	if rec := w.do("superToken", "POST", "/api/v1/manage/registry/import", doc); rec.Code != 200 {
		b.Fatalf("import: %d %s", rec.Code, rec.Body.String())
	}
	for _, path := range []string{"/api/v1/manage/registry/applications", "/api/v1/manage/registry/connections"} {
		for _, cold := range []bool{false, true} {
			name := strings.TrimPrefix(path, "/api/v1/manage/registry/")
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) {
				var took []time.Duration
				for i := 0; i < b.N; i++ {
					if cold {
						w.Svc.RegistryAdmin.Invalidate()
					}
					start := time.Now()
					rec := w.do("superToken", "GET", path, "")
					took = append(took, time.Since(start))
					var list []json.RawMessage
					if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &list) != nil || len(list) < 500 {
						b.Fatalf("%s: %d, %d items", path, rec.Code, len(list))
					}
				}
				slices.Sort(took)
				b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
			})
		}
	}
}
