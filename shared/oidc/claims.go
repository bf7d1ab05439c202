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

// tokenClaims is the token payload as it arrives on the wire.
type tokenClaims struct {
	Subject                string         `json:"sub"`
	EduPersonPrincipalName attributeValue `json:"eduperson_principal_name"`
	SchacHomeOrganization  attributeValue `json:"schac_home_organization"`
	Email                  attributeValue `json:"email"`
	GivenName              attributeValue `json:"given_name"`
	FamilyName             attributeValue `json:"family_name"`
	Name                   attributeValue `json:"name"`
	SubjectID              attributeValue `json:"subject_id"`
	UIDs                   attributeValue `json:"uids"`
	UID                    attributeValue `json:"uid"`
	FedID                  attributeValue `json:"eduid"`
	ACR                    attributeValue `json:"acr"`
}

func (t tokenClaims) claims() Claims {
	uid := string(t.UIDs)
	if uid == "" {
		uid = string(t.UID)
	}
	return Claims{
		Subject:                t.Subject,
		EduPersonPrincipalName: string(t.EduPersonPrincipalName),
		SchacHomeOrganization:  string(t.SchacHomeOrganization),
		Email:                  string(t.Email),
		GivenName:              string(t.GivenName),
		FamilyName:             string(t.FamilyName),
		Name:                   string(t.Name),
		SubjectID:              string(t.SubjectID),
		UID:                    uid,
		FedID:                  string(t.FedID),
		ACR:                    string(t.ACR),
	}
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
