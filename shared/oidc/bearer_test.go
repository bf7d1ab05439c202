package oidc_test

import (
	"net/http/httptest"
	"testing"

	"github.com/edu-invite/invite/shared/oidc"
)

func TestBearerToken(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		want    string
		ok      bool
	}{
		{name: "bearer", headers: []string{"Bearer abc.def.ghi"}, want: "abc.def.ghi", ok: true},
		{name: "lower-case scheme", headers: []string{"bearer abc"}, want: "abc", ok: true},
		{name: "upper-case scheme", headers: []string{"BEARER abc"}, want: "abc", ok: true},
		{name: "extra spaces", headers: []string{"  Bearer   abc  "}, want: "abc", ok: true},
		{name: "token68 padding and symbols", headers: []string{"Bearer a-b_c~d+e/f=="}, want: "a-b_c~d+e/f==", ok: true},
		{name: "no header", headers: nil},
		{name: "empty header", headers: []string{""}},
		{name: "scheme only", headers: []string{"Bearer"}},
		{name: "scheme and space", headers: []string{"Bearer "}},
		{name: "basic", headers: []string{"Basic dXNlcjpwYXNz"}},
		{name: "scheme prefix", headers: []string{"Bearerabc"}},
		{name: "two credentials", headers: []string{"Bearer abc def"}},
		{name: "padding only", headers: []string{"Bearer =="}},
		{name: "comma", headers: []string{"Bearer abc,def"}},
		{name: "repeated header", headers: []string{"Bearer abc", "Bearer def"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			for _, h := range tt.headers {
				r.Header.Add("Authorization", h)
			}
			got, ok := oidc.BearerToken(r)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("BearerToken = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
