package scim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestPatchMembersIsSplitIntoBoundedRequests(t *testing.T) {
	var sizes []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Operations []struct {
				Value []map[string]string `json:"value"`
			} `json:"Operations"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Error(err)
		}
		sizes = append(sizes, len(body.Operations[0].Value))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	tests := []struct {
		max, members int
		want         string
	}{
		{0, 250, "[100 100 50]"},
		{3, 7, "[3 3 1]"},
		{10, 10, "[10]"},
	}
	for _, tc := range tests {
		sizes = nil
		c := NewClient(Target{ID: "sp", BaseURL: srv.URL, MaxPatchMembers: tc.max,
			Credentials: Credentials{Method: AuthBearer, Token: "t"}}, nil)
		members := make([]Member, tc.members)
		for i := range members {
			members[i] = Member{Value: fmt.Sprint(i)}
		}
		if err := c.PatchGroupMembers(context.Background(), "g1", PatchAdd, members); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(sizes); got != tc.want {
			t.Errorf("max %d, %d members: request sizes %s, want %s", tc.max, tc.members, got, tc.want)
		}
	}
}
