package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestPageRequestDefaultsAndBounds(t *testing.T) {
	tests := []struct {
		query   string
		want    domain.PageRequest
		wantErr string
	}{
		{"", domain.PageRequest{Size: 10, Sort: "name"}, ""},
		{"?query=+Ann+&pageNumber=2&pageSize=25&sort=email&sortDirection=desc",
			domain.PageRequest{Query: "Ann", Number: 2, Size: 25, Sort: "email", Descending: true}, ""},
		{"?pageSize=100", domain.PageRequest{Size: 100, Sort: "name"}, ""},
		{"?pageSize=101", domain.PageRequest{}, "pageSize"},
		{"?pageSize=0", domain.PageRequest{}, "pageSize"},
		{"?pageNumber=-1", domain.PageRequest{}, "pageNumber"},
		{"?pageNumber=x", domain.PageRequest{}, "pageNumber"},
		{"?sort=password", domain.PageRequest{}, "sort must be one of name, email"},
		{"?sortDirection=UP", domain.PageRequest{}, "sortDirection"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := pageRequest(httptest.NewRequest("GET", "/x"+tt.query, nil), "name", "email")
			if tt.wantErr != "" {
				if domain.KindOf(err) != domain.KindInvalid || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want invalid %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestPageEnvelope(t *testing.T) {
	tests := []struct {
		name                 string
		req                  domain.PageRequest
		items                int
		total                int64
		pages                int
		first, last, isEmpty bool
	}{
		{"first of three", domain.PageRequest{Number: 0, Size: 10, Sort: "name"}, 10, 25, 3, true, false, false},
		{"last partial", domain.PageRequest{Number: 2, Size: 10, Sort: "name"}, 5, 25, 3, false, true, false},
		{"nothing found", domain.PageRequest{Number: 0, Size: 10, Sort: "name"}, 0, 0, 0, true, true, true},
		{"past the end", domain.PageRequest{Number: 7, Size: 10, Sort: "name"}, 0, 25, 3, false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPage(make([]int, tt.items), tt.req, tt.total)
			if p.TotalPages != tt.pages || p.First != tt.first || p.Last != tt.last || p.Empty != tt.isEmpty ||
				p.NumberOfElements != tt.items || p.Pageable.Offset != int64(tt.req.Number*tt.req.Size) {
				t.Fatalf("page = %+v", p)
			}
			b, _ := json.Marshal(p)
			var fields map[string]any
			_ = json.Unmarshal(b, &fields)
			for _, k := range []string{"totalPages", "totalElements", "size", "number", "numberOfElements", "content", "sort", "pageable", "first", "last", "empty"} {
				if _, ok := fields[k]; !ok {
					t.Errorf("envelope lacks %q: %s", k, b)
				}
			}
		})
	}
}
