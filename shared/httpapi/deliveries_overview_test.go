package httpapi_test

import (
	"context"
	"maps"
	"net/http"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestFailedDeliveriesOfAllSPs: without sp, the dead-letter listing shows
// every SP's dead letters, counted per SP and per kind of reason; with sp,
// it stays the array of that SP's.
func TestFailedDeliveriesOfAllSPs(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	queued := w.Queue.Deliveries()
	bySP := map[string][]domain.Delivery{}
	for _, d := range queued {
		bySP[d.SPID] = append(bySP[d.SPID], d)
	}
	if len(bySP["sp-a"]) < 2 || len(bySP["sp-b"]) < 1 {
		t.Fatalf("the world queued %d deliveries to sp-a and %d to sp-b; want at least 2 and 1", len(bySP["sp-a"]), len(bySP["sp-b"]))
	}
	fail := func(d domain.Delivery, reason string) {
		t.Helper()
		d.Status, d.LastError = domain.DeliveryFailed, reason
		if err := w.Store.UpdateDeliveryStatus(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	fail(bySP["sp-a"][0], "scim POST /Users: 401 Unauthorized: token expired")
	fail(bySP["sp-a"][1], "gave up after 100 attempts: scim PATCH /Groups/7f3a: 503 Service Unavailable")
	fail(bySP["sp-b"][0], "scim POST /Groups: 401 Unauthorized")

	type overview struct {
		Total      int            `json:"total"`
		BySP       map[string]int `json:"bySp"`
		ByReason   map[string]int `json:"byReason"`
		Truncated  bool           `json:"truncated"`
		Deliveries []struct {
			ID     string `json:"id"`
			SP     string `json:"sp"`
			Reason string `json:"reason"`
		} `json:"deliveries"`
	}
	rec := w.do("super", "GET", "/api/v1/system/deliveries/failed", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("overview: %d %s", rec.Code, rec.Body.String())
	}
	o := decode[overview](t, rec)
	if o.Total != 3 || len(o.Deliveries) != 3 || o.Truncated {
		t.Fatalf("overview %+v, want the 3 dead letters", o)
	}
	if want := map[string]int{"sp-a": 2, "sp-b": 1}; !maps.Equal(o.BySP, want) {
		t.Errorf("bySp %v, want %v", o.BySP, want)
	}
	if want := map[string]int{"401 Unauthorized": 2, "503 Service Unavailable": 1}; !maps.Equal(o.ByReason, want) {
		t.Errorf("byReason %v, want %v", o.ByReason, want)
	}
	for _, d := range o.Deliveries {
		if d.ID == "" || d.Reason == "" {
			t.Errorf("dead letter %+v lacks id or reason", d)
		}
	}

	// With sp: that SP's, as an array.
	rec = w.do("super", "GET", "/api/v1/system/deliveries/failed?sp=sp-b", "")
	if one := decode[[]map[string]any](t, rec); rec.Code != http.StatusOK || len(one) != 1 || one[0]["sp"] != "sp-b" {
		t.Errorf("sp=sp-b: %d %s", rec.Code, rec.Body.String())
	}
	// Super users only.
	for _, caller := range []string{"instAdmin", "orgToken", "manager", "guest"} {
		if rec := w.do(caller, "GET", "/api/v1/system/deliveries/failed", ""); rec.Code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", caller, rec.Code)
		}
	}
}
