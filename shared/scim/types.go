package scim

import "encoding/json"

// Schema and message URNs of RFC 7643/7644 used on the wire.
const (
	SchemaUser           = "urn:ietf:params:scim:schemas:core:2.0:User"
	SchemaEnterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
	SchemaGroup          = "urn:ietf:params:scim:schemas:core:2.0:Group"
	SchemaPatchOp        = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	SchemaListResponse   = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	SchemaError          = "urn:ietf:params:scim:api:messages:2.0:Error"
)

// User is a SCIM User as sent to and returned by an SP (spec 2.1).
type User struct {
	Schemas     []string `json:"schemas"`
	ID          string   `json:"id,omitempty"`
	ExternalID  string   `json:"externalId,omitempty"`
	UserName    string   `json:"userName"`
	Name        *Name    `json:"name,omitempty"`
	DisplayName string   `json:"displayName,omitempty"`
	Emails      []Email  `json:"emails,omitempty"`
	Meta        *Meta    `json:"meta,omitempty"`
}

// Name is the structured name of a User.
type Name struct {
	FamilyName string `json:"familyName,omitempty"`
	GivenName  string `json:"givenName,omitempty"`
}

// Email is one e-mail address of a User.
type Email struct {
	Type    string `json:"type,omitempty"`
	Value   string `json:"value"`
	Primary bool   `json:"primary,omitempty"`
}

// Group is a SCIM Group as sent to and returned by an SP (spec 2.2).
type Group struct {
	Schemas     []string `json:"schemas"`
	ID          string   `json:"id,omitempty"`
	ExternalID  string   `json:"externalId,omitempty"`
	DisplayName string   `json:"displayName"`
	Members     []Member `json:"members"`
	Meta        *Meta    `json:"meta,omitempty"`
}

// MarshalJSON always writes "members" as an array: the spec wants
// "members": [] at creation, and a nil slice would otherwise become null,
// which some SPs reject or read as "leave members unchanged".
func (g Group) MarshalJSON() ([]byte, error) {
	type plain Group // without methods, so no recursion
	p := plain(g)
	if p.Members == nil {
		p.Members = []Member{}
	}
	return json.Marshal(p)
}

// Member is one member of a Group: Value is the SP-side user id.
type Member struct {
	Value      string `json:"value"`
	ExternalID string `json:"externalId,omitempty"`
	Display    string `json:"display,omitempty"`
}

// Meta is the read-only resource metadata an SP returns.
type Meta struct {
	ResourceType string `json:"resourceType,omitempty"`
	Created      string `json:"created,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	Location     string `json:"location,omitempty"`
	Version      string `json:"version,omitempty"`
}

// PatchOp is the operation of a membership PATCH.
type PatchOp string

const (
	PatchAdd    PatchOp = "add"
	PatchRemove PatchOp = "remove"
)

// patchRequest is the PatchOp message of spec 2.2.
type patchRequest struct {
	Schemas    []string         `json:"schemas"`
	ID         string           `json:"id"`
	Operations []patchOperation `json:"Operations"`
}

type patchOperation struct {
	Op    PatchOp       `json:"op"`
	Path  string        `json:"path"`
	Value []memberValue `json:"value"`
}

// memberValue is a member reference in a PATCH: the spec sends the SP-side
// user id only.
type memberValue struct {
	Value string `json:"value"`
}

// listResponse is the envelope of a filtered GET (RFC 7644 3.4.2).
type listResponse[T any] struct {
	TotalResults int `json:"totalResults"`
	Resources    []T `json:"Resources"`
}

// errorResponse is a SCIM error body (RFC 7644 3.12). status is ignored: it
// is a string by the RFC but a number at some SPs, and the HTTP status is
// authoritative anyway.
type errorResponse struct {
	SCIMType string `json:"scimType"`
	Detail   string `json:"detail"`
}
