package oidc

import (
	"encoding/json"
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
}

// decodeClaims reads Claims from the token payload, naming the claim at fault
// when one has a type this service does not understand.
func decodeClaims(payload map[string]json.RawMessage) (Claims, error) {
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
		{"eduperson_principal_name", &c.EduPersonPrincipalName},
		{"schac_home_organization", &c.SchacHomeOrganization},
		{"email", &c.Email},
		{"given_name", &c.GivenName},
		{"family_name", &c.FamilyName},
		{"name", &c.Name},
		{"subject_id", &c.SubjectID},
		{"uid", &c.UID},
		{"uids", &c.UID}, // after uid: OpenConext's list wins when both are sent
		{"eduid", &c.FedID},
		{"acr", &c.ACR},
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
