package oidc

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Claims is who the bearer is, as asserted by the IdP. The JSON names are the
// OpenConext claim names they are read from:
//
//	Subject                sub                      required, non-empty
//	EduPersonPrincipalName eduperson_principal_name
//	SchacHomeOrganization  schac_home_organization
//	Email                  email
//	GivenName              given_name
//	FamilyName             family_name
//	Name                   name
//	SubjectID              subject_id
//	UID                    uids (OpenConext, a list: first value), else uid
//	FedID                  eduid
//	ACR                    acr
//
// OpenConext relays SAML attributes, which are multi-valued, so every claim
// except sub is accepted either as a string or as a list of strings (the first
// non-empty value is taken).
type Claims struct {
	Subject                string `json:"sub"`
	EduPersonPrincipalName string `json:"eduperson_principal_name,omitempty"`
	SchacHomeOrganization  string `json:"schac_home_organization,omitempty"`
	Email                  string `json:"email,omitempty"`
	GivenName              string `json:"given_name,omitempty"`
	FamilyName             string `json:"family_name,omitempty"`
	Name                   string `json:"name,omitempty"`
	SubjectID              string `json:"subject_id,omitempty"`
	UID                    string `json:"uid,omitempty"`
	FedID                  string `json:"eduid,omitempty"`
	ACR                    string `json:"acr,omitempty"`
	// ClientID is the client an access token was issued to (RFC 9068
	// client_id); a token whose sub is its client id has no person behind it.
	ClientID string `json:"client_id,omitempty"`
}

// ClaimNames says which claim carries each attribute. Providers name them
// differently (an eduPersonPrincipalName may be "eduperson_principal_name",
// "eppn" or a URN); the zero value of a field means the default, today's
// OpenConext name.
type ClaimNames struct {
	EduPersonPrincipalName string
	SchacHomeOrganization  string
	Email                  string
	GivenName              string
	FamilyName             string
	Name                   string
	FedID                  string
}

// withDefaults fills the names left empty.
func (n ClaimNames) withDefaults() ClaimNames {
	def := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	return ClaimNames{
		EduPersonPrincipalName: def(n.EduPersonPrincipalName, "eduperson_principal_name"),
		SchacHomeOrganization:  def(n.SchacHomeOrganization, "schac_home_organization"),
		Email:                  def(n.Email, "email"),
		GivenName:              def(n.GivenName, "given_name"),
		FamilyName:             def(n.FamilyName, "family_name"),
		Name:                   def(n.Name, "name"),
		FedID:                  def(n.FedID, "eduid"),
	}
}

// decodeClaims reads Claims from the token payload with the default claim
// names.
func decodeClaims(payload map[string]json.RawMessage) (Claims, error) {
	return ClaimNames{}.decode(payload)
}

// decode reads Claims from a token or userinfo payload, naming the claim at
// fault when one has a type this service does not understand. An e-mail the
// provider says it has not verified (email_verified false) is not taken: the
// service matches invitations on it.
func (n ClaimNames) decode(payload map[string]json.RawMessage) (Claims, error) {
	n = n.withDefaults()
	var c Claims
	if raw, ok := payload["sub"]; ok {
		if err := json.Unmarshal(raw, &c.Subject); err != nil {
			return Claims{}, fmt.Errorf("claim sub: %w", err)
		}
	}
	attributes := []struct {
		name string
		into *string
	}{
		{n.EduPersonPrincipalName, &c.EduPersonPrincipalName},
		{n.SchacHomeOrganization, &c.SchacHomeOrganization},
		{n.Email, &c.Email},
		{n.GivenName, &c.GivenName},
		{n.FamilyName, &c.FamilyName},
		{n.Name, &c.Name},
		{"subject_id", &c.SubjectID},
		{"uid", &c.UID},
		{"uids", &c.UID}, // after uid: OpenConext's list wins when both are sent
		{n.FedID, &c.FedID},
		{"acr", &c.ACR},
		{"client_id", &c.ClientID},
	}
	for _, a := range attributes {
		raw, ok := payload[a.name]
		if !ok {
			continue
		}
		var value attributeValue
		if err := json.Unmarshal(raw, &value); err != nil {
			return Claims{}, fmt.Errorf("claim %s: %w", a.name, err)
		}
		if value != "" {
			*a.into = string(value)
		}
	}
	if raw, ok := payload["email_verified"]; ok && n.Email == "email" {
		var verified any
		if err := json.Unmarshal(raw, &verified); err != nil {
			return Claims{}, fmt.Errorf("claim email_verified: %w", err)
		}
		if verified == false || verified == "false" {
			c.Email = ""
		}
	}
	return c, nil
}

// merge adds userinfo's claims to the ID token's (OpenID Connect Core 5.3.2:
// the userinfo sub must be the ID token's, else the answer is not about this
// person and must not be used). A claim in both is taken from userinfo, the
// fresher source; the acr is the ID token's, the only signed statement of
// how the person signed in.
func (c Claims) merge(userinfo Claims) (Claims, error) {
	if userinfo.Subject != c.Subject {
		return Claims{}, errors.New("userinfo sub differs from the ID token's")
	}
	set := func(into *string, v string) {
		if v != "" {
			*into = v
		}
	}
	set(&c.EduPersonPrincipalName, userinfo.EduPersonPrincipalName)
	set(&c.SchacHomeOrganization, userinfo.SchacHomeOrganization)
	set(&c.Email, userinfo.Email)
	set(&c.GivenName, userinfo.GivenName)
	set(&c.FamilyName, userinfo.FamilyName)
	set(&c.Name, userinfo.Name)
	set(&c.SubjectID, userinfo.SubjectID)
	set(&c.UID, userinfo.UID)
	set(&c.FedID, userinfo.FedID)
	return c, nil
}

// attributeValue decodes a claim sent as a string, a list of strings (first
// non-empty one wins) or null. Any other type is an error: it means the IdP
// sends something this service does not understand, and silently dropping it
// would make the cause hard to find.
type attributeValue string

func (a *attributeValue) UnmarshalJSON(data []byte) error {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	switch v := raw.(type) {
	case nil:
		*a = ""
	case string:
		*a = attributeValue(v)
	case []any:
		*a = ""
		for _, item := range v {
			s, ok := item.(string)
			if !ok {
				return fmt.Errorf("list of %T, want strings", item)
			}
			if s != "" {
				*a = attributeValue(s)
				break
			}
		}
	default:
		return fmt.Errorf("%T, want string or list of strings", raw)
	}
	return nil
}

// IsClient reports whether an access token has no person behind it: a
// client's own token (client credentials), whose sub is the client's id
// (RFC 9068 section 2.2) or absent (RFC 7662).
func (c Claims) IsClient() bool {
	return c.ClientID != "" && (c.Subject == "" || c.Subject == c.ClientID)
}
