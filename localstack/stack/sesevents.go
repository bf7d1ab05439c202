package stack

import (
	"encoding/json"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
)

// serveSESEvent is POST /local/events/ses: it takes an EventBridge event
// of SES (see events/ses-bounce.json) and invokes the mail-events function
// with it, as the EventBridge rule does in AWS. The SES substitute emits no
// events, so this is how bounces are tried locally.
func (s *Stack) serveSESEvent(w http.ResponseWriter, r *http.Request) {
	var ev events.EventBridgeEvent
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 256<<10)).Decode(&ev); err != nil {
		http.Error(w, "not an EventBridge event: "+err.Error(), http.StatusBadRequest)
		return
	}
	res, err := s.App.HandleMailEvent(r.Context(), ev.Detail)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}
