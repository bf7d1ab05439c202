package oidc

import (
	"encoding/json"
	"testing"
)

func payloadOf(t *testing.T, claims map[string]any) map[string]json.RawMessage {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClaimNamesDecode(t *testing.T) {
	tests := []struct {
		name   string
		names  ClaimNames
		claims map[string]any
		want   Claims
	}{
		{name: "defaults", claims: map[string]any{"sub": "s", "eduperson_principal_name": "e@x", "email": "m@x", "eduid": "f"},
			want: Claims{Subject: "s", EduPersonPrincipalName: "e@x", Email: "m@x", FedID: "f"}},
		{name: "configured names", names: ClaimNames{EduPersonPrincipalName: "eppn", Email: "mail", SchacHomeOrganization: "home", FedID: "fid", GivenName: "gn"},
			claims: map[string]any{"sub": "s", "eppn": []string{"e@x"}, "mail": "m@x", "home": "x", "fid": "f", "gn": "G",
				"eduperson_principal_name": "ignored@x", "email": "ignored@x"},
			want: Claims{Subject: "s", EduPersonPrincipalName: "e@x", Email: "m@x", SchacHomeOrganization: "x", FedID: "f", GivenName: "G"}},
		{name: "unverified e-mail is not taken", claims: map[string]any{"sub": "s", "email": "m@x", "email_verified": false},
			want: Claims{Subject: "s"}},
		{name: "verified e-mail", claims: map[string]any{"sub": "s", "email": "m@x", "email_verified": true},
			want: Claims{Subject: "s", Email: "m@x"}},
		{name: "client id of an access token", claims: map[string]any{"sub": "c", "client_id": "c"},
			want: Claims{Subject: "c", ClientID: "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.names.decode(payloadOf(t, tt.claims))
			if err != nil || got != tt.want {
				t.Fatalf("decode = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestClaimsMerge(t *testing.T) {
	idToken := Claims{Subject: "s", Email: "old@x", ACR: "urn:mfa"}
	tests := []struct {
		name     string
		userinfo Claims
		want     Claims
		wantErr  bool
	}{
		{name: "attributes at userinfo only", userinfo: Claims{Subject: "s", EduPersonPrincipalName: "e@x", Name: "N"},
			want: Claims{Subject: "s", Email: "old@x", EduPersonPrincipalName: "e@x", Name: "N", ACR: "urn:mfa"}},
		{name: "userinfo is fresher", userinfo: Claims{Subject: "s", Email: "new@x"},
			want: Claims{Subject: "s", Email: "new@x", ACR: "urn:mfa"}},
		{name: "the acr is the ID token's", userinfo: Claims{Subject: "s", ACR: "urn:weak"},
			want: Claims{Subject: "s", Email: "old@x", ACR: "urn:mfa"}},
		{name: "another sub", userinfo: Claims{Subject: "t", Email: "t@x"}, wantErr: true},
		{name: "no sub", userinfo: Claims{Email: "t@x"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := idToken.merge(tt.userinfo)
			if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
				t.Fatalf("merge = %+v, %v; want %+v (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestIsClient(t *testing.T) {
	tests := []struct {
		c    Claims
		want bool
	}{
		{Claims{Subject: "app", ClientID: "app"}, true},
		{Claims{ClientID: "app"}, true},
		{Claims{Subject: "person", ClientID: "app"}, false},
		{Claims{Subject: "person"}, false},
	}
	for _, tt := range tests {
		if got := tt.c.IsClient(); got != tt.want {
			t.Errorf("%+v.IsClient() = %v, want %v", tt.c, got, tt.want)
		}
	}
}
