package config

import "time"

// Change is one audited change of the registry: who changed which
// application or connection, how, and which fields. It never holds a
// field's value, so a credential cannot leak through it; SecretChanged says
// that a credential was written.
type Change struct {
	Kind             string    `json:"kind"` // "application" or "connection"
	ID               string    `json:"id"`   // manage id or connection id
	Action           string    `json:"action"`
	Fields           []string  `json:"fields,omitempty"`
	SecretChanged    bool      `json:"secretChanged,omitempty"`
	OrganizationGUID string    `json:"organizationGUID,omitempty"`
	By               string    `json:"by"`
	At               time.Time `json:"at"`
}

// Change actions.
const (
	ActionCreate = "CREATE"
	ActionUpdate = "UPDATE"
	ActionDelete = "DELETE"
	ActionImport = "IMPORT"
)

// Change kinds.
const (
	KindApplication = "application"
	KindConnection  = "connection"
)
