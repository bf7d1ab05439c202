package service_test

import (
	"context"
	"testing"
	"time"
)

// BenchmarkExpiryOfACohort removes a cohort of EXPIRY_COHORT guests
// (default 2,000), each with one membership of a role with two SCIM
// targets, all ending on the same day, in one run: memberships removed a
// second and DynamoDB requests per membership.
func BenchmarkExpiryOfACohort(b *testing.B) {
	cohort := envInt("EXPIRY_COHORT", 2000)
	var took time.Duration
	var requests int64
	for b.Loop() {
		b.StopTimer()
		s, log, _ := cohortService(b, cohort)
		b.StartTimer()
		before, start := log.total.Load(), time.Now()
		res, err := s.RemoveExpired(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		took, requests = time.Since(start), log.total.Load()-before
		if res.UserRoles != cohort || res.Remaining != 0 {
			b.Fatalf("removed %+v of %d", res, cohort)
		}
	}
	b.ReportMetric(float64(cohort)/took.Seconds(), "memberships/s")
	b.ReportMetric(float64(requests)/float64(cohort), "requests/membership")
}
