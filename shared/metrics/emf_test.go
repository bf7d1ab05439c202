package metrics

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func TestDeliveryRecordIsValidEMF(t *testing.T) {
	var buf bytes.Buffer
	e := NewEMF(&buf, "Invite")
	e.now = func() time.Time { return time.UnixMilli(1795000000000) }
	e.Delivery("sp-1", Throttled, 1500*time.Microsecond)

	var rec struct {
		SP        string  `json:"SP"`
		Throttled int     `json:"Throttled"`
		Retried   int     `json:"Retried"`
		Latency   float64 `json:"LatencyMs"`
		AWS       struct {
			Timestamp int64 `json:"Timestamp"`
			Metrics   []struct {
				Namespace  string     `json:"Namespace"`
				Dimensions [][]string `json:"Dimensions"`
				Metrics    []struct{ Name, Unit string }
			} `json:"CloudWatchMetrics"`
		} `json:"_aws"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.SP != "sp-1" || rec.Throttled != 1 || rec.Retried != 1 || rec.Latency != 1.5 || rec.AWS.Timestamp != 1795000000000 {
		t.Fatalf("record = %+v", rec)
	}
	d := rec.AWS.Metrics[0]
	if d.Namespace != "Invite" || len(d.Dimensions) != 1 || d.Dimensions[0][0] != "SP" {
		t.Fatalf("directive = %+v", d)
	}
	names := map[string]string{}
	for _, m := range d.Metrics {
		names[m.Name] = m.Unit
	}
	// Every metric value in the record must be declared, else CloudWatch ignores it.
	if names["Throttled"] != "Count" || names["Retried"] != "Count" || names["LatencyMs"] != "Milliseconds" {
		t.Fatalf("declared metrics = %v", names)
	}
	var nilEMF *EMF
	nilEMF.Delivery("sp", Delivered, 0) // a nil recorder is a no-op
}
