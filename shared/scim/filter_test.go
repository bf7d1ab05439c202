package scim

import (
	"context"
	"testing"
)

func TestEqFilter(t *testing.T) {
	tests := []struct {
		attr, value string
		want        string
		wantErr     bool
	}{
		{"userName", "jdoe@example.edu", `userName eq "jdoe@example.edu"`, false},
		{"externalId", `say "hi"`, `externalId eq "say \"hi\""`, false},
		{"externalId", `dom\user`, `externalId eq "dom\\user"`, false},
		{"displayName", "a\nb\x01", `displayName eq "a\nb\u0001"`, false},
		{"displayName", "<R&D>", `displayName eq "<R&D>"`, false},
		{"name.familyName", "Ö", `name.familyName eq "Ö"`, false},
		{"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber", "42",
			`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "42"`, false},
		{"", "x", "", true},
		{"userName eq \"a\" or userName", "x", "", true},
		{"1abc", "x", "", true},
	}
	for _, tt := range tests {
		got, err := eqFilter(tt.attr, tt.value)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("eqFilter(%q, %q) = %q, %v; want %q (error %v)", tt.attr, tt.value, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestFilterOnTheWire checks that quotes, backslashes, plus signs and
// spaces survive query encoding.
func TestFilterOnTheWire(t *testing.T) {
	sp := newFakeSP(t, reply{Status: 200, Body: `{"totalResults":0,"Resources":[]}`})
	if _, err := NewClient(basicTarget(sp.URL), nil).FindUsers(context.Background(), "userName", `a+b "c"\d&e=f`); err != nil {
		t.Fatal(err)
	}
	got := sp.only(t)
	if want := `userName eq "a+b \"c\"\\d&e=f"`; got.Query != want {
		t.Errorf("decoded filter %q, want %q", got.Query, want)
	}
	if want := `filter=userName%20eq%20%22a%2Bb%20%5C%22c%5C%22%5C%5Cd%26e%3Df%22`; got.RawQuery != want {
		t.Errorf("raw query %q, want %q", got.RawQuery, want)
	}
}
